import type { Question } from '@chapterwise/shared';
import type { GoogleFormsRequest, GoogleItem } from '../../../../providers/google/index.js';
import {
  describe,
  feedbackOf,
  oneLine,
  type ExportInput,
  type NumberedQuestion,
} from '../common.js';

/*
 * A material as a Google Forms quiz: what `forms.create` and one `forms.batchUpdate` send.
 *
 * - The form is a quiz (`updateSettings.quizSettings.isQuiz`), titled with the material's title;
 *   its description holds the instructions.
 * - Multiple choice and true/false: radio questions graded with their correct answer (1 point),
 *   the evidence as feedback for right and wrong answers (Google allows no general feedback on
 *   auto-graded choice questions).
 * - Fill in the blank: a short-text question graded by its answer (Google compares without
 *   regard to case), the evidence as general feedback.
 * - Matching: the prompt as a text item, then one drop-down per left-hand item, graded.
 * - Short answer and discussion: paragraph questions without an answer key (our answers are
 *   model sentences no exact match would accept); the teacher grades them in Forms.
 * - Parts become text items ("Part 1: …") when there are several; vocabulary lists are left out.
 * - Titles and options are one line (Forms shows them on one); a choice question whose options
 *   read alike after that is left out, because Forms refuses duplicate options.
 * - "Quote not found" marks never go in: feedback reaches students.
 */

export interface GoogleFormPlan {
  title: string;
  documentTitle: string;
  requests: GoogleFormsRequest[];
  /** What was left out or changed, in the teacher's words. */
  notes: string[];
  /** Questions that went in (graded or not). */
  questionCount: number;
}

const POINTS = 1;
/** Forms' item titles are short lines; long prompts keep their whole text in the description. */
const TITLE_MAX = 300;

function titled(text: string): Pick<GoogleItem, 'title' | 'description'> {
  const line = oneLine(text);
  if (line.length <= TITLE_MAX) return { title: line };
  return { title: `${line.slice(0, TITLE_MAX - 1).trimEnd()}…`, description: text.trim() };
}

function choiceItem(
  prompt: string,
  choices: string[],
  correct: number,
  feedback: string,
  type: 'RADIO' | 'DROP_DOWN' = 'RADIO',
): GoogleItem | null {
  const options = choices.map((choice) => oneLine(choice));
  if (new Set(options).size !== options.length || options.some((o) => !o)) return null;
  return {
    ...titled(prompt),
    questionItem: {
      question: {
        required: true,
        grading: {
          pointValue: POINTS,
          correctAnswers: { answers: [{ value: options[correct]! }] },
          whenRight: { text: feedback },
          whenWrong: { text: feedback },
        },
        choiceQuestion: { type, options: options.map((value) => ({ value })), shuffle: false },
      },
    },
  };
}

/** The items of one question (a matching question makes several). */
function itemsOf(entry: NumberedQuestion): { items: GoogleItem[]; note?: string } {
  const question: Question = entry.question;
  const feedback = feedbackOf(question);
  switch (question.kind) {
    case 'multiple_choice':
    case 'true_false': {
      const item =
        question.kind === 'true_false'
          ? choiceItem(
              `True or false: ${question.prompt}`,
              ['True', 'False'],
              question.answer ? 0 : 1,
              feedback,
            )
          : choiceItem(question.prompt, question.choices, question.answerIndex, feedback);
      return item
        ? { items: [item] }
        : { items: [], note: `${describe(entry)} was left out: two of its answers read the same.` };
    }
    case 'fill_blank':
      return {
        items: [
          {
            ...titled(question.prompt),
            questionItem: {
              question: {
                required: true,
                grading: {
                  pointValue: POINTS,
                  correctAnswers: { answers: [{ value: oneLine(question.answer) }] },
                  generalFeedback: { text: feedback },
                },
                textQuestion: { paragraph: false },
              },
            },
          },
        ],
      };
    case 'short_answer':
    case 'discussion':
      return {
        items: [
          {
            ...titled(question.prompt),
            questionItem: {
              question: {
                required: question.kind === 'short_answer',
                textQuestion: { paragraph: true },
              },
            },
          },
        ],
      };
    case 'matching': {
      const rights = question.pairs.map((pair) => pair.right);
      const shown = (
        question.order.length === rights.length ? question.order : rights.map((_, i) => i)
      ).map((i) => rights[i]!);
      const rows = question.pairs.map((pair, i) =>
        choiceItem(
          pair.left,
          shown,
          shown.indexOf(rights[i]!),
          `Evidence: “${oneLine(pair.evidence)}”`,
          'DROP_DOWN',
        ),
      );
      if (rows.some((row) => !row)) {
        return {
          items: [],
          note: `${describe(entry)} was left out: two of its answers read the same.`,
        };
      }
      return {
        items: [{ ...titled(question.prompt), textItem: {} }, ...(rows as GoogleItem[])],
      };
    }
  }
}

/** The quiz of one material, as Google Forms requests (see the header for what goes where). */
export function buildGoogleForm(input: ExportInput): GoogleFormPlan {
  const { document } = input;
  const notes: string[] = [];
  const items: GoogleItem[] = [];
  const parts = document.sections
    .filter((section) => section.questions.length)
    .map((section, i) => ({
      heading: `Part ${i + 1}: ${section.title}`,
      instructions: section.instructions,
      questions: section.questions,
    }));
  if (document.lesson?.exitTicket.length) {
    parts.push({ heading: 'Exit ticket', instructions: '', questions: document.lesson.exitTicket });
  }
  let number = 0;
  let questionCount = 0;
  let ungraded = 0;
  for (const part of parts) {
    if (parts.length > 1) {
      items.push({
        title: oneLine(part.heading),
        ...(part.instructions ? { description: part.instructions } : {}),
        textItem: {},
      });
    }
    for (const question of part.questions) {
      number += 1;
      const made = itemsOf({ question, number });
      if (made.note) notes.push(made.note);
      if (made.items.length) questionCount += 1;
      if (made.items.length && (question.kind === 'short_answer' || question.kind === 'discussion'))
        ungraded += 1;
      items.push(...made.items);
    }
  }
  if (document.vocabulary.length) {
    notes.push(`The vocabulary list (${document.vocabulary.length} words) was left out.`);
  }
  if (ungraded) {
    notes.push(
      `${ungraded} short-answer or discussion ${ungraded === 1 ? 'question has' : 'questions have'} no answer key in Forms: give points when you grade (the teacher copy has the model answers).`,
    );
  }

  const title = oneLine(document.title || input.name) || 'Quiz';
  const description = [
    document.instructions,
    [document.grade, document.subject].filter(Boolean).join(' · '),
  ]
    .filter(Boolean)
    .join('\n\n');
  const requests: GoogleFormsRequest[] = [
    {
      updateSettings: {
        settings: { quizSettings: { isQuiz: true } },
        updateMask: 'quizSettings.isQuiz',
      },
    },
    ...(description
      ? [{ updateFormInfo: { info: { description }, updateMask: 'description' } } as const]
      : []),
    ...items.map((item, index) => ({ createItem: { item, location: { index } } })),
  ];
  return {
    title,
    documentTitle: oneLine(input.name) || title,
    requests,
    notes,
    questionCount,
  };
}
