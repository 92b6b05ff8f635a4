import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  generationNotCountedNote,
  STORAGE_KEYS,
  type MaterialDocument,
  type MaterialListCard,
} from '@chapterwise/shared';
import { SessionProvider } from '../../../lib/session';
import { ToastProvider } from '../../../lib/toast';
import { MaterialList } from './material-list';

const document: MaterialDocument = {
  version: 1,
  title: 'The mill',
  type: 'Quiz',
  grade: '4th Grade (Year 5)',
  subject: 'English',
  instructions: '',
  vocabulary: [],
  sections: [
    {
      title: 'Multiple choice',
      instructions: '',
      questions: [
        {
          id: 'q1',
          kind: 'multiple_choice',
          prompt: 'What did Anna carry in her other hand?',
          choices: ['A lantern', 'A basket of bread'],
          answerIndex: 1,
          evidence: 'She carried a lantern in one hand and a basket of bread in the other.',
        },
      ],
    },
  ],
  generator: {
    engine: 'local',
    droppedQuestions: 0,
    unverified: false,
    notes: [generationNotCountedNote(1, 10)],
  },
};

/** A card as `getusersmaterials?view=card` sends it: no texts, the document only. */
const card: MaterialListCard = {
  _id: '5b0c2f3e-8a4d-4d7e-9f10-2a3b4c5d6e7f',
  name: 'The mill',
  grade: '4th Grade (Year 5)',
  subject: 'English',
  type: 'Quiz',
  setId: null,
  bookUrl: null,
  chapterUrl: null,
  createdAt: '2026-11-27T10:00:00.000Z',
  status: 'finished',
  output: { document },
};

function stubApi() {
  const sent: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = String(input);
      sent.push(url);
      const json = (body: unknown) =>
        Promise.resolve(
          new Response(JSON.stringify(body), {
            status: 200,
            headers: { 'content-type': 'application/json' },
          }),
        );
      if (url.includes('/users/me')) return json({ user: { _id: 'u1', username: 'teacher' } });
      if (url.includes('/materials/getusersmaterials'))
        return json({ generatedMaterials: { data: [card], count: 1 } });
      return Promise.resolve(new Response('{}', { status: 404 }));
    }),
  );
  return sent;
}

const exp = Math.floor(Date.now() / 1000) + 3600;
const TOKEN = `h.${btoa(JSON.stringify({ sub: 'u1', exp }))}.s`;

describe('MaterialList', () => {
  beforeEach(() => localStorage.setItem(STORAGE_KEYS.auth, TOKEN));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it("asks for the cards' fields only and shows the document, with the not-counted note first", async () => {
    const sent = stubApi();
    const router = createMemoryRouter([{ path: '/', element: <MaterialList /> }]);
    render(
      <QueryClientProvider
        client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
      >
        <ToastProvider>
          <SessionProvider>
            <RouterProvider router={router} />
          </SessionProvider>
        </ToastProvider>
      </QueryClientProvider>,
    );
    expect(await screen.findByText('What did Anna carry in her other hand?')).toBeTruthy();
    const list = sent.find((url) => url.includes('/materials/getusersmaterials'))!;
    expect(new URL(list, 'http://localhost').searchParams.get('view')).toBe('card');
    const notes = screen.getByRole('complementary', { name: 'Notes from the generator' });
    expect(notes.textContent).toBe(
      'This text supported only 1 of the 10 questions asked for, so this generation was not counted: your credit has been given back.',
    );
    await waitFor(() => expect(screen.getByRole('link', { name: 'Edit The mill' })).toBeTruthy());
  });
});
