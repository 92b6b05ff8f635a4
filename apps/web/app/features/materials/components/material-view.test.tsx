import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  EVIDENCE_NOT_FOUND_MESSAGE,
  generationNotCountedNote,
  type MaterialDocument,
} from '@chapterwise/shared';
import { MaterialView } from './material-view';

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
          choices: ['The squire', 'The captain'],
          answerIndex: 1,
          evidence: 'The captain entered at once and shut the door behind him.',
        },
      ],
    },
    {
      title: 'True or false',
      instructions: '',
      questions: [
        {
          id: 'q2',
          kind: 'true_false',
          prompt: 'The captain left the door open.',
          answer: false,
          evidence: 'The captain entered at once and shut the door behind him.',
          correction: 'The captain shut the door behind him.',
        },
      ],
    },
  ],
  generator: { engine: 'local', droppedQuestions: 0, unverified: false, notes: [] },
};

describe('MaterialView', () => {
  afterEach(cleanup);

  it('numbers the questions across parts, letters the choices, and keeps the key apart', () => {
    const { container } = render(<MaterialView document={document} keyOpen />);
    expect(screen.getByRole('heading', { name: 'Part 1: Multiple choice' })).toBeTruthy();
    const items = container.querySelectorAll('.mv-questions > li');
    expect([...items].map((li) => li.getAttribute('value'))).toEqual(['1', '2']);
    expect(screen.getByText('A.')).toBeTruthy();
    expect(screen.getByText('True or false: The captain left the door open.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Answer key' })).toBeTruthy();
    expect(screen.getByText('B. The captain')).toBeTruthy();
    expect(screen.getByText('False')).toBeTruthy();
  });

  it('gives students name lines and no answer key', () => {
    render(<MaterialView document={document} copy="student" />);
    expect(screen.getByText(/Name: _+/)).toBeTruthy();
    expect(screen.queryByText('Answer key')).toBeNull();
    expect(screen.queryByText('B. The captain')).toBeNull();
  });

  it('warns the teacher, not the student, about a quote an edit left outside the text', () => {
    const edited: MaterialDocument = {
      ...document,
      sections: document.sections.map((section, i) =>
        i === 0
          ? {
              ...section,
              questions: section.questions.map((q) => ({ ...q, evidenceFound: false })),
            }
          : section,
      ),
    };
    const teacher = render(<MaterialView document={edited} keyOpen />);
    // On the question and in the key.
    expect(screen.getAllByText(EVIDENCE_NOT_FOUND_MESSAGE)).toHaveLength(2);
    teacher.unmount();
    render(<MaterialView document={edited} copy="student" />);
    expect(screen.queryByText(EVIDENCE_NOT_FOUND_MESSAGE)).toBeNull();
  });

  it('tells the teacher, not the student, when the text supported fewer questions than asked', () => {
    const note = 'The text supported 7 of the 10 multiple choice questions asked for.';
    const noted = { ...document, generator: { ...document.generator, notes: [note] } };
    const teacher = render(<MaterialView document={noted} />);
    const notes = screen.getByRole('complementary', { name: 'Notes from the generator' });
    expect(notes.textContent).toBe(note);
    teacher.unmount();
    render(<MaterialView document={noted} copy="student" />);
    expect(screen.queryByText(note)).toBeNull();
  });
  it('says first, in plain words, when a generation was not counted (decision 025)', () => {
    const notes = [
      generationNotCountedNote(3, 10),
      'The text supported 2 of the 6 multiple choice questions asked for.',
    ];
    render(
      <MaterialView document={{ ...document, generator: { ...document.generator, notes } }} />,
    );
    const items = screen
      .getByRole('complementary', { name: 'Notes from the generator' })
      .querySelectorAll('li');
    expect(items[0]!.textContent).toBe(
      'This text supported only 3 of the 10 questions asked for, so this generation was not counted: your credit has been given back.',
    );
    expect(items).toHaveLength(2);
    expect(generationNotCountedNote(0, 1)).toMatch(
      /^This text supported none of the 1 question asked for,/,
    );
  });
});
