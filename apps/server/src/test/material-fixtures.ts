import { MaterialDocumentSchema, type MaterialDocument } from '@chapterwise/shared';

/**
 * Text that breaks naive exporters: XML, GIFT's special characters, CSV quotes and commas, a
 * tab and a newline, and a spreadsheet formula.
 */
export const HOSTILE = {
  xml: 'Is </xml> <b>bold</b> & "quoted" safe?',
  gift: 'Braces {like} these ~ = # : and a back\\slash',
  csv: 'A "quote", a comma; and a\ttab\nand a newline',
  formula: '=HYPERLINK("http://evil.example","click")',
  plus: '+1 more',
  minus: '-5 degrees',
  at: '@SUM(A1:A2)',
  unicode: 'Élise’s café — naïve 😀 Ωmega ☃',
};

/**
 * A Test-shaped document with every question kind (multiple choice, true/false true and false,
 * fill in the blank, short answer, matching, discussion), vocabulary, a lesson plan with an exit
 * ticket, hostile strings everywhere, and one question and one word whose quote a teacher's edit
 * left outside the text ("quote not found").
 */
export function hostileDocument(overrides: Partial<MaterialDocument> = {}): MaterialDocument {
  return MaterialDocumentSchema.parse({
    title: 'Frankenstein </xml> {Letter 1} Test',
    type: 'Test',
    grade: '8th Grade (Year 9)',
    subject: 'English',
    instructions: 'Answer every question. Use the text & cite it.',
    vocabulary: [
      {
        term: 'ardent',
        partOfSpeech: 'adjective',
        definition: 'very eager; passionate {zealous}',
        context: 'I am already far north of London, and as I walk in the streets of Petersburgh…',
      },
      {
        term: HOSTILE.formula,
        definition: HOSTILE.csv,
        context: 'A quote a teacher typed that the book does not hold.',
        evidenceFound: false,
      },
    ],
    sections: [
      {
        title: 'Multiple choice',
        instructions: 'Choose the best answer.',
        questions: [
          {
            id: 'q1',
            kind: 'multiple_choice',
            prompt: `Where does Walton write from? ${HOSTILE.xml}`,
            choices: ['St. Petersburgh', HOSTILE.gift, 'Archangel', HOSTILE.formula],
            answerIndex: 0,
            evidence: 'I write to you from St. Petersburgh.',
          },
          {
            id: 'q2',
            kind: 'multiple_choice',
            prompt: HOSTILE.csv,
            choices: [HOSTILE.plus, HOSTILE.minus, HOSTILE.at, HOSTILE.unicode, 'Fifth', 'Sixth'],
            answerIndex: 4,
            evidence: 'A sentence with "quotes" & <angle> brackets {braces}.',
            evidenceFound: false,
          },
          {
            id: 'q3',
            kind: 'multiple_choice',
            prompt:
              'This question is deliberately much longer than Kahoot allows for a question, because teachers sometimes write long prompts with context before the actual question mark?',
            choices: [
              'An answer that is also much longer than the seventy-five characters Kahoot accepts',
              'Short',
            ],
            answerIndex: 0,
            evidence: 'Long evidence.',
          },
        ],
      },
      {
        title: 'True or false',
        instructions: '',
        questions: [
          {
            id: 'q4',
            kind: 'true_false',
            prompt: `Walton is travelling south. ${HOSTILE.gift}`,
            answer: false,
            evidence: 'I am already far north of London.',
            correction: 'I am already far north of London.',
          },
          {
            id: 'q5',
            kind: 'true_false',
            prompt: HOSTILE.formula,
            answer: true,
            evidence: 'It is true.',
          },
        ],
      },
      {
        title: 'Fill in the blank',
        instructions: '',
        questions: [
          {
            id: 'q6',
            kind: 'fill_blank',
            prompt: 'Walton feels a cold _____ breeze on his cheeks {north}.',
            answer: 'northern',
            evidence: 'I feel a cold northern breeze play upon my cheeks.',
          },
        ],
      },
      {
        title: 'Short answer',
        instructions: '',
        questions: [
          {
            id: 'q7',
            kind: 'short_answer',
            prompt: `Why does Walton write to his sister? ${HOSTILE.unicode}`,
            answer: 'To reassure her ~ that he is safe = and his plans go well.',
            evidence: 'You will rejoice to hear that no disaster has accompanied the commencement.',
          },
        ],
      },
      {
        title: 'Matching',
        instructions: 'Match each item.',
        questions: [
          {
            id: 'q8',
            kind: 'matching',
            prompt: 'Match each place with what Walton says of it.',
            pairs: [
              {
                left: 'Petersburgh',
                right: 'where he writes from',
                evidence: 'from St. Petersburgh',
              },
              { left: 'London', right: HOSTILE.xml, evidence: 'far north of London' },
              { left: HOSTILE.gift, right: 'the pole', evidence: 'the region of beauty' },
            ],
            order: [2, 0, 1],
          },
        ],
      },
      {
        title: 'Discussion',
        instructions: '',
        questions: [
          {
            id: 'q9',
            kind: 'discussion',
            prompt: `Is Walton's ambition admirable? ${HOSTILE.csv}`,
            answer: 'A strong answer weighs his courage against his recklessness.',
            evidence: 'I shall satiate my ardent curiosity.',
          },
        ],
      },
    ],
    lesson: {
      durationMinutes: 45,
      objectives: ['Explain Walton’s goals'],
      activities: [{ title: 'Read aloud', minutes: 10, steps: ['Read the letter'] }],
      differentiation: { support: ['Glossary'], extension: ['Compare with chapter 2'] },
      assessment: ['Exit ticket'],
      exitTicket: [
        {
          id: 'e1',
          kind: 'multiple_choice',
          prompt: 'Who receives the letters?',
          choices: ['Mrs. Saville', 'Victor'],
          answerIndex: 0,
          evidence: 'To Mrs. Saville, England.',
        },
      ],
    },
    generator: { engine: 'local' },
    ...overrides,
  });
}

/** A plain quiz of `n` multiple choice and true/false questions (benchmarks and size checks). */
export function quizOf(n: number): MaterialDocument {
  const questions = Array.from({ length: n }, (_, i) =>
    i % 3 === 2
      ? {
          id: `t${i}`,
          kind: 'true_false' as const,
          prompt: `Statement ${i + 1} about the chapter, which the reader checks against the text.`,
          answer: i % 2 === 0,
          evidence: `The sentence of the text that settles statement ${i + 1}.`,
        }
      : {
          id: `m${i}`,
          kind: 'multiple_choice' as const,
          prompt: `Question ${i + 1}: what does the narrator notice first when the ship reaches the ice?`,
          choices: ['The silence', 'The cold wind', 'A sledge far away', 'The stars'],
          answerIndex: i % 4,
          evidence: `The quote that supports the answer to question ${i + 1}, copied from the text.`,
        },
  );
  return MaterialDocumentSchema.parse({
    title: 'Frankenstein, Letter 4 Test',
    type: 'Test',
    grade: '8th Grade (Year 9)',
    subject: 'English',
    sections: [{ title: 'Questions', questions }],
  });
}
