import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  EVIDENCE_NOT_FOUND_MESSAGE,
  type Material,
  type MaterialDocument,
} from '@chapterwise/shared';
import { SessionProvider } from '../../../lib/session';
import { ToastProvider } from '../../../lib/toast';
import { MaterialEditor } from './material-editor';

const QUOTE = 'The captain entered at once and shut the door behind him.';

const document: MaterialDocument = {
  version: 1,
  title: 'Treasure Island quiz',
  type: 'Quiz',
  grade: '6th Grade (Year 7)',
  subject: 'English',
  instructions: 'Answer every question.',
  vocabulary: [],
  sections: [
    {
      title: 'Multiple choice',
      instructions: 'Choose the best answer.',
      questions: [
        {
          id: 'q1',
          kind: 'multiple_choice',
          prompt: 'Who shut the door?',
          choices: ['The squire', 'The captain', 'The doctor'],
          answerIndex: 1,
          evidence: QUOTE,
        },
        {
          id: 'q2',
          kind: 'multiple_choice',
          prompt: 'Who entered at once?',
          choices: ['The captain', 'Black Dog'],
          answerIndex: 0,
          evidence: QUOTE,
          evidenceFound: false,
        },
      ],
    },
    {
      title: 'True or false',
      instructions: '',
      questions: [
        {
          id: 'q3',
          kind: 'true_false',
          prompt: 'The captain left the door open.',
          answer: false,
          evidence: QUOTE,
        },
      ],
    },
  ],
  generator: { engine: 'local', droppedQuestions: 0, unverified: false, notes: [] },
};

const material: Material = {
  _id: '5f0c3a52-6d3e-4d4e-9a55-0d5f1c2b3a4e',
  name: 'Admiral Benbow quiz',
  grade: document.grade,
  subject: document.subject,
  type: 'Quiz',
  setId: null,
  referenceText: `It was a cold morning. ${QUOTE} Nobody spoke.`,
  descriptionText: '',
  bookUrl: null,
  chapterUrl: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  status: 'finished',
  output: { choices: [{ message: { role: 'assistant', content: 'text' } }], document },
};

interface Sent {
  url: string;
  body: { id: string; name: string; document: MaterialDocument };
}

/** A fetch that answers the update call with `answer(body)` and records what was sent. */
function stubFetch(answer: (body: Sent['body']) => { status: number; body: unknown }) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as Sent['body'];
      sent.push({ url, body });
      const { status, body: json } = answer(body);
      return new Response(JSON.stringify(json), { status });
    }),
  );
  return sent;
}

function renderEditor() {
  const router = createMemoryRouter(
    [
      {
        path: '/material/:id/edit',
        element: <MaterialEditor material={material} returnTo="/set/period-3" />,
      },
      { path: '/set/period-3', element: <p>The folder page</p> },
    ],
    { initialEntries: [`/material/${material._id}/edit`] },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <SessionProvider>
        <ToastProvider>
          <RouterProvider router={router} />
        </ToastProvider>
      </SessionProvider>
    </QueryClientProvider>,
  );
  return router;
}

const question = (n: number) =>
  screen.getByRole('group', { name: new RegExp(`^Question ${n}\\b`) });

// userEvent types key by key: on a busy machine a test takes a few seconds.
describe('<MaterialEditor>', { timeout: 20_000 }, () => {
  beforeEach(() => localStorage.setItem('token', 'header.payload.sig'));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('shows the stored warning, and a problem next to the question it names without calling the API', async () => {
    const user = userEvent.setup();
    const sent = stubFetch(() => ({ status: 500, body: {} }));
    renderEditor();
    expect(within(question(2)).getByText(EVIDENCE_NOT_FOUND_MESSAGE)).toBeTruthy();
    expect(within(question(1)).queryByText(EVIDENCE_NOT_FOUND_MESSAGE)).toBeNull();

    const choiceC = within(question(1)).getByLabelText('Choice C');
    await user.clear(choiceC);
    await user.type(choiceC, 'the SQUIRE');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    const alert = within(question(1)).getByRole('alert');
    expect(alert.textContent).toBe('Question 1: the choices must be different.');
    expect(question(1).getAttribute('aria-describedby')).toBe(alert.id);
    await waitFor(() => expect(window.document.activeElement).toBe(alert));
    expect(sent).toHaveLength(0);

    // The message follows the draft: fixed, it goes.
    await user.type(choiceC, ' and the captain');
    expect(within(question(1)).queryByRole('alert')).toBeNull();
  });

  it('edits, deletes with undo, adds a question, and saves with Ctrl+S, then goes back', async () => {
    const user = userEvent.setup();
    const sent = stubFetch((body) => ({
      status: 200,
      body: {
        data: {
          ...material,
          name: body.name,
          output: { ...material.output, document: body.document },
        },
      },
    }));
    const router = renderEditor();

    // Reorder within a part.
    await user.click(within(question(2)).getByRole('button', { name: 'Move question 2 up' }));
    expect(within(question(1)).getByLabelText<HTMLTextAreaElement>('Question').value).toBe(
      'Who entered at once?',
    );
    expect(
      within(question(1)).getByRole<HTMLButtonElement>('button', { name: 'Move question 1 up' })
        .disabled,
    ).toBe(true);
    await user.click(within(question(1)).getByRole('button', { name: 'Move question 1 down' }));

    const prompt = within(question(1)).getByLabelText('Question');
    await user.clear(prompt);
    await user.type(prompt, 'Who closed the door?');
    await user.click(within(question(1)).getByRole('radio', { name: 'Choice A is correct' }));
    await user.click(within(question(1)).getByRole('button', { name: 'Remove choice C' }));

    await user.click(screen.getByRole('button', { name: 'Delete question 2' }));
    expect(screen.getByText('Question 2 deleted.')).toBeTruthy();
    expect(question(2).textContent).toContain('True or false');
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(within(question(2)).getByLabelText<HTMLTextAreaElement>('Question').value).toBe(
      'Who entered at once?',
    );
    await user.click(screen.getByRole('button', { name: 'Delete question 2' }));

    expect(question(2).textContent).toContain('True or false');

    await user.selectOptions(screen.getByLabelText('Kind of question'), 'true_false');
    await user.click(screen.getByRole('button', { name: 'Add question' }));
    const added = question(3);
    await waitFor(() =>
      expect(window.document.activeElement).toBe(within(added).getByLabelText('Statement')),
    );
    await user.type(within(added).getByLabelText('Statement'), 'The captain whistled.');
    await user.type(within(added).getByLabelText('Evidence'), 'He whistled a sea song.');

    // No answer picked yet: the check says so, next to the question.
    fireEvent.keyDown(window, { key: 's', ctrlKey: true });
    await waitFor(() =>
      expect(within(question(3)).getByRole('alert').textContent).toBe(
        'Question 3: choose whether the statement is true or false.',
      ),
    );
    await user.click(within(added).getByRole('radio', { name: 'False' }));
    await act(async () => {
      fireEvent.keyDown(window, { key: 's', metaKey: true });
    });

    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.url).toBe('/api/v1/materials/updatematerial');
    const { body } = sent[0]!;
    expect(body.id).toBe(material._id);
    expect(body.name).toBe('Admiral Benbow quiz');
    const [mc, tf] = body.document.sections;
    expect(mc!.questions).toHaveLength(1);
    expect(mc!.questions[0]).toMatchObject({
      prompt: 'Who closed the door?',
      choices: ['The squire', 'The captain'],
      answerIndex: 0,
    });
    expect(tf!.questions.map((q) => q.prompt)).toEqual([
      'The captain left the door open.',
      'The captain whistled.',
    ]);
    expect(tf!.questions[1]).toMatchObject({ kind: 'true_false', answer: false });

    await waitFor(() => expect(router.state.location.pathname).toBe('/set/period-3'));
    expect(screen.getByText('The folder page')).toBeTruthy();
    expect(screen.getByText('Material saved')).toBeTruthy();
  });

  it("shows the server's 400 next to the question it names, and asks before leaving unsaved", async () => {
    const user = userEvent.setup();
    stubFetch(() => ({
      status: 400,
      body: {
        errors: { code: 'BAD_REQUEST', message: 'Question 3: it is the same as question 1.' },
      },
    }));
    const router = renderEditor();
    await user.type(within(question(3)).getByLabelText('Statement'), ' Really.');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() =>
      expect(within(question(3)).getByRole('alert').textContent).toBe(
        'Question 3: it is the same as question 1.',
      ),
    );

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    const dialog = await screen.findByRole('dialog', { hidden: true });
    expect(within(dialog).getByText('Leave without saving?')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Keep editing', hidden: true }));
    expect(router.state.location.pathname).toBe(`/material/${material._id}/edit`);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(
      within(await screen.findByRole('dialog', { hidden: true })).getByRole('button', {
        name: 'Leave without saving',
        hidden: true,
      }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/set/period-3'));
  });
});
