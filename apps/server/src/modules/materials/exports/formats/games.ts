import {
  choicesOf,
  describe,
  oneLine,
  questionsOf,
  shorten,
  spreadsheetText,
  type ExportInput,
  type ExportResult,
  type Exporter,
} from '../common.js';
import { toCsv, toXlsx, type Cell } from '../files.js';

/*
 * The game tools' spreadsheet imports: Kahoot (.xlsx in its quiz template), Blooket and Gimkit
 * (.csv in their templates) and Wayground, formerly Quizizz (.xlsx). They take multiple choice;
 * true/false goes in as the two choices True and False; every other kind is left out and named
 * in the notes. Where a tool has limits (Kahoot: question 120 characters, answers 75, four
 * answers, time limits from a fixed set) a longer text is shortened at a word and the notes
 * say so; a question whose answers would become alike when shortened is left out instead.
 */

export interface GameQuestion {
  number: number;
  prompt: string;
  choices: string[];
  /** Index in `choices` of the correct one. */
  correct: number;
  /** Seconds, from the tool's allowed set. */
  seconds: number;
}

interface Limits {
  tool: string;
  maxChoices: number;
  questionChars?: number;
  answerChars?: number;
  /** The allowed time limits, ascending. */
  times: number[];
}

/** Seconds to read the question and its answers (about 3 words a second) plus 10 to think. */
function readingSeconds(prompt: string, choices: string[]): number {
  const words = [prompt, ...choices].join(' ').split(/\s+/).filter(Boolean).length;
  return 10 + words / 3;
}

/** The questions a game tool can take, shortened to its limits; the rest named in `notes`. */
export function gameQuestions(
  inputs: ExportInput[],
  limits: Limits,
  notes: string[],
): GameQuestion[] {
  const out: GameQuestion[] = [];
  for (const { document } of inputs) {
    for (const entry of questionsOf(document)) {
      const set = choicesOf(entry.question);
      if (!set) {
        notes.push(
          `${describe(entry)} left out: ${limits.tool} takes multiple choice and true/false questions only.`,
        );
        continue;
      }
      let prompt = oneLine(entry.question.prompt);
      if (entry.question.kind === 'true_false') prompt = `True or false: ${prompt}`;
      let choices = set.choices.map(oneLine);
      let correct = set.correct;
      if (choices.length > limits.maxChoices) {
        // Keep the correct answer and the first distractors, in their order.
        const distractors = choices.map((_, i) => i).filter((i) => i !== correct);
        const kept = [correct, ...distractors.slice(0, limits.maxChoices - 1)].sort(
          (a, b) => a - b,
        );
        choices = kept.map((i) => choices[i]!);
        correct = kept.indexOf(set.correct);
        notes.push(
          `Question ${entry.number}: kept ${limits.maxChoices} of ${set.choices.length} answers (${limits.tool} takes ${limits.maxChoices}).`,
        );
      }
      if (limits.questionChars && prompt.length > limits.questionChars) {
        prompt = shorten(prompt, limits.questionChars);
        notes.push(
          `Question ${entry.number}: the question was shortened to ${limits.questionChars} characters.`,
        );
      }
      if (limits.answerChars) {
        const max = limits.answerChars;
        const shortened = choices.map((c) => shorten(c, max));
        if (new Set(shortened).size < shortened.length) {
          notes.push(
            `Question ${entry.number} left out: its answers are alike once shortened to ${max} characters.`,
          );
          continue;
        }
        if (shortened.some((c, i) => c !== choices[i]))
          notes.push(`Question ${entry.number}: answers were shortened to ${max} characters.`);
        choices = shortened;
      }
      const need = readingSeconds(prompt, choices);
      const seconds = limits.times.find((t) => t >= need) ?? limits.times[limits.times.length - 1]!;
      out.push({ number: entry.number, prompt, choices, correct, seconds });
    }
  }
  return out;
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const CSV_TYPE = 'text/csv; charset=utf-8';

/* Kahoot -------------------------------------------------------------------------------------- */

/** Kahoot's allowed time limits in seconds (its template's header lists them). */
export const KAHOOT_TIMES = [5, 10, 20, 30, 60, 90, 120, 240];
export const KAHOOT_LIMITS = { question: 120, answer: 75, answers: 4 };
export const KAHOOT_HEADER = [
  '',
  'Question - max 120 characters',
  'Answer 1 - max 75 characters',
  'Answer 2 - max 75 characters',
  'Answer 3 - max 75 characters',
  'Answer 4 - max 75 characters',
  'Time limit (sec) – 5, 10, 20, 30, 60, 90, 120, or 240 secs',
  'Correct answer(s) - choose at least one',
];

function kahootSheet(inputs: ExportInput[], notes: string[]): Buffer {
  const questions = gameQuestions(
    inputs,
    {
      tool: 'Kahoot',
      maxChoices: KAHOOT_LIMITS.answers,
      questionChars: KAHOOT_LIMITS.question,
      answerChars: KAHOOT_LIMITS.answer,
      times: KAHOOT_TIMES.filter((t) => t >= 20),
    },
    notes,
  );
  // Kahoot's template: its instructions in rows 1–7, the header in row 8, questions from row 9.
  const rows: Cell[][] = [
    [],
    ['', 'Quiz template'],
    [
      '',
      'Add questions, at least two answer alternatives, time limit and choose correct answers (at least one). Have fun creating your awesome quiz!',
    ],
    [
      '',
      'Remember: questions have a limit of 120 characters and answers can have 75 characters max.',
    ],
    ['', oneLine(inputs.map((i) => i.document.title).join(' · '))],
    ['', 'Made with Chapterwise. Upload this file in Kahoot: Add question → Import spreadsheet.'],
    [],
    KAHOOT_HEADER,
  ];
  questions.forEach((q, i) => {
    const answers: Cell[] = [0, 1, 2, 3].map((k) =>
      q.choices[k] === undefined ? '' : q.choices[k],
    );
    rows.push([i + 1, q.prompt, ...answers, q.seconds, q.correct + 1]);
  });
  return toXlsx({ name: 'Sheet1', rows, boldRows: [7], widths: [4, 60, 30, 30, 30, 30, 16, 16] });
}

export const kahoot: Exporter = {
  id: 'kahoot',
  extension: 'xlsx',
  contentType: XLSX_TYPE,
  copies: false,
  build(input): ExportResult {
    const notes: string[] = [];
    return { body: kahootSheet([input], notes), notes };
  },
};

/* Blooket ------------------------------------------------------------------------------------- */

export const BLOOKET_HEADER = [
  'Question #',
  'Question Text',
  'Answer 1',
  'Answer 2',
  'Answer 3\n(Optional)',
  'Answer 4\n(Optional)',
  'Time Limit (sec)\n(Max: 300 seconds)',
  'Correct Answer(s)\n(Only include Answer #)',
];

export const blooket: Exporter = {
  id: 'blooket',
  extension: 'csv',
  contentType: CSV_TYPE,
  copies: false,
  build(input): ExportResult {
    const notes: string[] = [];
    const questions = gameQuestions(
      [input],
      { tool: 'Blooket', maxChoices: 4, times: [20, 30, 60, 90, 120, 300] },
      notes,
    );
    // Blooket's template: a title row of eight fields (its importer reads the column count
    // from it), the header, then one question a row; CRLF line ends, no byte-order mark.
    const rows: Cell[][] = [
      ['Blooket\nImport Template', '', '', '', '', '', '', ''],
      BLOOKET_HEADER,
    ];
    questions.forEach((q, i) => {
      const answers = [0, 1, 2, 3].map((k) => spreadsheetText(q.choices[k] ?? ''));
      rows.push([i + 1, spreadsheetText(q.prompt), ...answers, q.seconds, q.correct + 1]);
    });
    return { body: toCsv(rows), notes };
  },
};

/* Gimkit -------------------------------------------------------------------------------------- */

export const GIMKIT_HEADER = [
  'Question',
  'Correct Answer',
  'Incorrect Answer 1',
  'Incorrect Answer 2 (Optional)',
  'Incorrect Answer 3 (Optional)',
];

export const gimkit: Exporter = {
  id: 'gimkit',
  extension: 'csv',
  contentType: CSV_TYPE,
  copies: false,
  build(input): ExportResult {
    const notes: string[] = [];
    const questions = gameQuestions([input], { tool: 'Gimkit', maxChoices: 4, times: [30] }, notes);
    const rows: Cell[][] = [['Gimkit Spreadsheet Import Template', '', '', '', ''], GIMKIT_HEADER];
    for (const q of questions) {
      const wrong = q.choices.filter((_, i) => i !== q.correct);
      rows.push([
        spreadsheetText(q.prompt),
        spreadsheetText(q.choices[q.correct]!),
        ...[0, 1, 2].map((k) => spreadsheetText(wrong[k] ?? '')),
      ]);
    }
    return { body: toCsv(rows), notes };
  },
};

/* Wayground (Quizizz) ------------------------------------------------------------------------- */

export const WAYGROUND_HEADER = [
  'Question Text',
  'Question Type',
  'Option 1',
  'Option 2',
  'Option 3',
  'Option 4',
  'Option 5',
  'Correct Answer',
  'Time in seconds',
  'Image Link',
  'Answer explanation',
];

export const wayground: Exporter = {
  id: 'wayground',
  extension: 'xlsx',
  contentType: XLSX_TYPE,
  copies: false,
  build(input): ExportResult {
    const notes: string[] = [];
    const questions = gameQuestions(
      [input],
      { tool: 'Wayground', maxChoices: 5, times: [20, 30, 45, 60, 90, 120, 180, 300] },
      notes,
    );
    const byNumber = new Map(questionsOf(input.document).map((e) => [e.number, e.question]));
    const rows: Cell[][] = [WAYGROUND_HEADER];
    for (const q of questions) {
      const source = byNumber.get(q.number);
      const explanation =
        source && 'evidence' in source ? `Evidence: “${oneLine(source.evidence)}”` : '';
      const options = [0, 1, 2, 3, 4].map((k) => q.choices[k] ?? '');
      rows.push([
        q.prompt,
        'Multiple Choice',
        ...options,
        q.correct + 1,
        q.seconds,
        '',
        explanation,
      ]);
    }
    return {
      body: toXlsx({
        name: 'Sheet1',
        rows,
        boldRows: [0],
        widths: [60, 16, 24, 24, 24, 24, 24, 14, 14, 12, 60],
      }),
      notes,
    };
  },
};
