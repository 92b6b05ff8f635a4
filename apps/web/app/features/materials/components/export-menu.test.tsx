import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '@chapterwise/shared';
import { SessionProvider } from '../../../lib/session';
import { ToastProvider } from '../../../lib/toast';
import { ExportMenu } from './export-menu';

const MATERIAL_ID = '5b0c2f3e-8a4d-4d7e-9f10-2a3b4c5d6e7f';

/** Answers the calls the menu makes: the session, Google's status, and the send. */
function stubApi(google: { configured: boolean; connected: boolean; email: string | null }) {
  const sent: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      sent.push(`${init?.method ?? 'GET'} ${url.split('?')[0]}`);
      const json = (status: number, body: unknown) =>
        Promise.resolve(
          new Response(JSON.stringify(body), {
            status,
            headers: { 'content-type': 'application/json' },
          }),
        );
      if (url.includes('/users/me')) {
        return json(200, {
          user: { _id: 'u1', username: 'teacher', email: 't@example.org', firstName: 'T' },
        });
      }
      if (url.includes('/google/status')) return json(200, google);
      if (url.includes('/google/forms')) {
        return json(201, {
          data: {
            status: 'created',
            formId: 'form-123',
            editUrl: 'https://docs.google.com/forms/d/form-123/edit',
            questionCount: 7,
            notes: ['The vocabulary list (2 words) was left out.'],
          },
        });
      }
      return json(404, { errors: { message: 'Not found', code: 'NOT_FOUND' } });
    }),
  );
  return sent;
}

function renderMenu() {
  const router = createMemoryRouter(
    [{ path: '/dashboard', element: <ExportMenu name="Letter 1 quiz" materialId={MATERIAL_ID} /> }],
    { initialEntries: ['/dashboard'] },
  );
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
}

const exp = Math.floor(Date.now() / 1000) + 3600;
const TOKEN = `h.${btoa(JSON.stringify({ sub: 'u1', exp }))}.s`;

describe('Export menu: Send to Google Forms', () => {
  beforeEach(() => localStorage.setItem(STORAGE_KEYS.auth, TOKEN));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('is not offered when the site has no Google OAuth client', async () => {
    const sent = stubApi({ configured: false, connected: false, email: null });
    renderMenu();
    await waitFor(() => expect(sent).toContain('GET /api/v1/users/me'));
    await userEvent.click(screen.getByRole('button', { name: 'Export Letter 1 quiz' }));
    await waitFor(() => expect(sent).toContain('GET /api/v1/google/status'));
    expect(screen.getByRole('button', { name: /Moodle \(GIFT\)/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send to Google Forms' })).toBeNull();
  });

  it('sends the material and links the new form, with what was left out', async () => {
    const sent = stubApi({ configured: true, connected: true, email: 'teacher@school.example' });
    renderMenu();
    await waitFor(() => expect(sent).toContain('GET /api/v1/users/me'));
    await userEvent.click(screen.getByRole('button', { name: 'Export Letter 1 quiz' }));
    const button = await screen.findByRole('button', { name: 'Send to Google Forms' });
    expect(screen.getByText(/Connected as teacher@school\.example/)).toBeTruthy();
    await userEvent.click(button);
    const link = await screen.findByRole('link', { name: 'Open in Google Forms' });
    expect(link.getAttribute('href')).toBe('https://docs.google.com/forms/d/form-123/edit');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(screen.getByText(/A quiz with 7 questions is in your Google Forms/)).toBeTruthy();
    expect(screen.getByText(/vocabulary list \(2 words\) was left out/)).toBeTruthy();
    expect(sent).toContain('POST /api/v1/google/forms');
  });
});
