import { describe, expect, it } from 'vitest';
import type { MaterialDocument, Question } from '@chapterwise/shared';
import { buildPlan } from './plan.js';
import { applyQualityGate, normaliseForMatch, ReferenceIndex } from './quality.js';

const TEXT = `“I am always at the captain's orders. Show him in,” said the squire.

The captain, who was close behind his messenger, entered at once and shut the door behind him.
Mr. Arrow was a _brown old sailor_ with earrings in his ears and a squint--he and the squire were very thick.`;

const section = (kind: Question['kind']) => ({ title: kind, instructions: '' });

function doc(questions: Question[]): MaterialDocument {
  return {
    version: 1,
    title: 'T',
    type: 'Quiz',
    grade: '',
    subject: '',
    instructions: '',
    sections: [{ title: 'All', instructions: '', questions }],
    vocabulary: [],
    generator: { engine: 'test', droppedQuestions: 0, unverified: false, notes: [] },
  };
}

const mc = (over: Partial<Extract<Question, { kind: 'multiple_choice' }>> = {}): Question => ({
  id: 'x',
  kind: 'multiple_choice',
  prompt: 'Who entered at once and shut the door behind him?',
  choices: ['The squire', 'The captain', 'Mr. Arrow'],
  answerIndex: 1,
  evidence:
    'The captain, who was close behind his messenger, entered at once and shut the door behind him.',
  ...over,
});

describe('evidence matching', () => {
  const reference = new ReferenceIndex(TEXT);

  it('finds quotes whatever the quotation marks, dashes, italics marks, case and line breaks', () => {
    expect(
      reference.hasEvidence('"I am always at the captain’s orders. Show him in," said the squire.'),
    ).toBe(true);
    expect(
      reference.hasEvidence(
        'Mr. Arrow was a brown old sailor with earrings in his ears and a squint — he and the squire were very thick.',
      ),
    ).toBe(true);
    expect(
      reference.hasEvidence('the captain, who was close behind his messenger,\n entered at once'),
    ).toBe(true);
    expect(reference.hasEvidence('The captain … entered at once and shut the door')).toBe(false); // parts under three words
    expect(
      reference.hasEvidence('The captain, who was close behind... shut the door behind him.'),
    ).toBe(true);
  });

  it('refuses paraphrases, invented quotes and scraps too short to prove anything', () => {
    expect(reference.hasEvidence('The captain came in quickly and closed the door.')).toBe(false);
    expect(reference.hasEvidence('The parrot said pieces of eight.')).toBe(false);
    expect(reference.hasEvidence('the captain')).toBe(false);
    expect(normaliseForMatch('  A “B”—c_d_ ')).toBe('a "b"-cd');
  });
});

describe('the quality gate', () => {
  const reference = new ReferenceIndex(TEXT);
  const gate = (questions: Question[], counts = { multiple_choice: 10 }) =>
    applyQualityGate(doc(questions), { reference, counts, sectionFor: section });

  it('keeps a sound question and numbers it', () => {
    const result = gate([mc()]);
    expect(result.dropped).toEqual([]);
    expect(result.document.sections[0]!.questions[0]!.id).toBe('q1');
  });

  it('drops a question whose evidence is not in the text (a hallucinated answer)', () => {
    const result = gate([
      mc({ evidence: 'The captain was a tall man who carried a parrot on his shoulder.' }),
    ]);
    expect(result.dropped).toEqual([
      expect.objectContaining({ reason: 'the evidence is not in the text' }),
    ]);
    expect(result.document.sections).toEqual([]);
    expect(result.shortfall).toEqual({ multiple_choice: 10 });
  });

  it('drops repeated questions, repeated choices, keys out of range and keys the evidence does not back', () => {
    const result = gate([
      mc(),
      mc({ id: 'y' }),
      mc({ choices: ['The captain', 'the captain', 'Mr. Arrow'], answerIndex: 0 }),
      mc({ answerIndex: 5 }),
      mc({ prompt: 'Who had earrings?', answerIndex: 0 }),
    ]);
    expect(result.document.sections[0]!.questions).toHaveLength(1);
    expect(result.dropped.map((d) => d.reason)).toEqual([
      'it repeats another question',
      'two choices are the same',
      'the answer is not one of the choices',
      'the evidence does not support the answer',
    ]);
  });

  it('drops a multiple-choice question with two right answers', () => {
    const result = gate([
      mc({
        prompt: 'Who was very thick with the squire?',
        choices: ['Mr. Arrow', 'The squire', 'earrings'],
        answerIndex: 1,
        evidence: 'Mr. Arrow was a brown old sailor with earrings in his ears and a squint',
      }),
      mc({
        prompt: 'Who had a squint?',
        choices: ['Arrow', 'Mr. Arrow', 'The captain'],
        answerIndex: 0,
        evidence: 'Mr. Arrow was a brown old sailor with earrings in his ears and a squint',
      }),
    ]);
    expect(result.dropped.map((d) => d.reason)).toEqual([
      'a wrong choice is also in the evidence',
      'a wrong choice contains the answer',
    ]);
  });

  it('drops a "false" statement that the text actually says, and a "true" one it does not', () => {
    const result = gate(
      [
        {
          id: 'a',
          kind: 'true_false',
          prompt: 'Mr. Arrow was a brown old sailor with earrings in his ears and a squint.',
          answer: false,
          evidence: 'Mr. Arrow was a brown old sailor with earrings in his ears and a squint',
        },
        {
          id: 'b',
          kind: 'true_false',
          prompt: 'The squire wore a green coat to dinner.',
          answer: true,
          evidence:
            'The captain, who was close behind his messenger, entered at once and shut the door behind him.',
        },
        {
          id: 'c',
          kind: 'true_false',
          prompt: 'The captain entered slowly and left the door open.',
          answer: false,
          evidence:
            'The captain, who was close behind his messenger, entered at once and shut the door behind him.',
          correction: 'He entered at once and shut the door.',
        },
      ],
      { true_false: 3 } as never,
    );
    expect(result.document.sections[0]!.questions.map((q) => q.prompt)).toEqual([
      'The captain entered slowly and left the door open.',
    ]);
  });

  it('cuts extras to the count and fills gaps from spares', () => {
    const spare = mc({
      id: 's',
      prompt: 'Who said to show him in?',
      choices: ['The squire', 'The captain'],
      answerIndex: 0,
      evidence: "“I am always at the captain's orders. Show him in,” said the squire.",
    });
    const result = applyQualityGate(doc([mc({ evidence: 'not in the text at all, no' })]), {
      reference,
      counts: { multiple_choice: 1 },
      reserve: { multiple_choice: [spare, mc()] },
      sectionFor: section,
    });
    expect(result.document.sections[0]!.questions.map((q) => q.prompt)).toEqual([
      'Who said to show him in?',
    ]);
    expect(result.shortfall).toEqual({});
  });

  it('does not verify when there is no reference text, and says so', () => {
    const result = applyQualityGate(doc([mc({ evidence: 'anything at all here' })]), {
      reference: new ReferenceIndex(''),
      counts: { multiple_choice: 1 },
      sectionFor: section,
    });
    expect(result.document.sections[0]!.questions).toHaveLength(1);
    expect(result.document.generator.unverified).toBe(true);
  });
});

describe('reading the description', () => {
  const plan = (descriptionText: string, type = 'Quiz', grade = '8th Grade (Year 9)') =>
    buildPlan({ type, grade, descriptionText });

  it('uses the defaults of each type and grade', () => {
    expect(plan('').counts).toEqual({ multiple_choice: 5, true_false: 3, short_answer: 2 });
    expect(plan('').defaultMix).toBe(true);
    expect(plan('', 'Quiz', 'Kindergarten (Year 1)')).toMatchObject({
      counts: { multiple_choice: 5, true_false: 5 },
      choices: 3,
    });
    expect(plan('', 'Test').counts).toEqual({
      multiple_choice: 10,
      true_false: 5,
      short_answer: 3,
      matching: 1,
      discussion: 2,
    });
    expect(plan('', 'Worksheet')).toMatchObject({
      vocabulary: 6,
      counts: { matching: 1, fill_blank: 6, short_answer: 4, discussion: 2 },
    });
    expect(plan('', 'Lesson')).toMatchObject({
      kind: 'lesson',
      durationMinutes: 45,
      vocabulary: 5,
    });
  });

  it('understands counts, "only", "no" and totals', () => {
    expect(plan('10 questions, true/false only').counts).toEqual({ true_false: 10 });
    expect(plan('only multiple choice please').counts).toEqual({ multiple_choice: 10 });
    expect(plan('Make 15 questions').counts).toEqual({
      multiple_choice: 8,
      true_false: 4,
      short_answer: 3,
    });
    expect(plan('Make 15 questions').defaultMix).toBe(true);
    expect(plan('8 multiple-choice and 4 true or false questions').counts).toEqual({
      multiple_choice: 8,
      true_false: 4,
    });
    expect(plan('no true/false').counts).toEqual({ multiple_choice: 7, short_answer: 3 });
    // A kind named or excluded is the teacher's mix: no places move between kinds.
    expect(plan('no true/false').defaultMix).toBe(false);
    expect(plan('10 questions, true/false only').defaultMix).toBe(false);
    expect(plan('20 questions with 5 short answer', 'Test').counts).toMatchObject({
      short_answer: 5,
    });
    expect(
      Object.values(plan('20 questions with 5 short answer', 'Test').counts).reduce(
        (a, b) => a + b!,
        0,
      ),
    ).toBe(20);
    expect(plan('ten fill in the blank questions', 'Worksheet').counts.fill_blank).toBe(10);
    expect(plan('500 questions').counts.multiple_choice).toBeLessThanOrEqual(30);
  });

  it('understands lesson length, vocabulary, choices, word banks and focus', () => {
    expect(plan('a 60-minute lesson', 'Lesson').durationMinutes).toBe(60);
    expect(plan('one hour lesson', 'Lesson').durationMinutes).toBe(60);
    expect(plan('include 8 vocabulary words', 'Worksheet').vocabulary).toBe(8);
    expect(plan('with 3 answer choices').choices).toBe(3);
    expect(plan('add a word bank', 'Worksheet', '10th Grade (Year 11)').wordBank).toBe(true);
    expect(plan('no word bank', 'Worksheet', '2nd Grade (Year 3)').wordBank).toBe(false);
    expect(plan('focus on the storm and the ship').focusTerms).toEqual(
      expect.arrayContaining(['storm', 'ship']),
    );
  });
});
