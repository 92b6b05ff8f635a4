import './zod-setup.js';
import { z } from 'zod';
import { listOf } from './meta.js';

/* ------------------------------------------------------------------------------------------ */
/* Constants (spec §9)                                                                         */
/* ------------------------------------------------------------------------------------------ */

/** The 14 grades of the generation form, in order (spec §9). */
export const GRADES = [
  'Kindergarten (Year 1)',
  '1st Grade (Year 2)',
  '2nd Grade (Year 3)',
  '3rd Grade (Year 4)',
  '4th Grade (Year 5)',
  '5th Grade (Year 6)',
  '6th Grade (Year 7)',
  '7th Grade (Year 8)',
  '8th Grade (Year 9)',
  '9th Grade (Year 10)',
  '10th Grade (Year 11)',
  '11th Grade (Year 12)',
  '12th Grade (Year 13)',
  'Collegiate',
] as const;
export type Grade = (typeof GRADES)[number];

/** US grade number of a grade: Kindergarten 0, 1st Grade 1 … 12th Grade 12, Collegiate 13. */
export function gradeLevel(grade: string): number {
  const index = (GRADES as readonly string[]).indexOf(grade);
  return index === -1 ? 8 : index;
}

/** The material types shown before the server's list loads (spec §9). */
export const DEFAULT_MATERIAL_TYPES = ['Quiz', 'Test', 'Lesson', 'Worksheet'] as const;
export type MaterialType = (typeof DEFAULT_MATERIAL_TYPES)[number];

/** How often the generator page asks whether a generation has finished (spec §4, §9). */
export const GENERATION_CHECK_INTERVAL_MS = 2000;
/** How long the 'Material Deleted' toast stays (spec §9). */
export const MATERIAL_DELETED_TOAST_MS = 4000;
/** The phrase the strict folder-delete modal asks for (spec §5). */
export const DELETE_FOLDER_PHRASE = 'permanently delete';

/**
 * The longest reference text a material takes, in characters: about 35,000 words, so the
 * longest chapters of the sample books (Moby-Dick's and Les Misérables' run to 15,000 words)
 * fit whole. The one limit for the generation form, the API (413 past it) and file import
 * (imported text is cut here with a message).
 */
export const REFERENCE_TEXT_MAX_CHARS = 200_000;

/** The 413 message for a reference text over REFERENCE_TEXT_MAX_CHARS. */
export function referenceTextTooLongMessage(length: number): string {
  return `The reference text is too long: ${length.toLocaleString('en-US')} characters, and the limit is ${REFERENCE_TEXT_MAX_CHARS.toLocaleString('en-US')} (about 35,000 words, a long chapter). Use one chapter or a shorter passage.`;
}

/** Limits of the generation form, checked by the form and by the API. */
export const MATERIAL_LIMITS = {
  name: 200,
  subject: 100,
  descriptionText: 2000,
  setName: 100,
  /** REFERENCE_TEXT_MAX_CHARS: longer texts answer 413 with this limit in the message. */
  referenceTextChars: REFERENCE_TEXT_MAX_CHARS,
  /**
   * Questions a material may hold once a teacher has edited it (sections and exit ticket
   * together): the generator writes at most 50, and a teacher may add a few.
   */
  questions: 60,
} as const;

/** The spec's messages for the generator screens, copied exactly. */
export const MATERIAL_MESSAGES = {
  noMaterials: "You don't have any materials yet! When you create materials they will appear here.",
  notCompleted:
    'This material has not completed generating. If it has been more than a few minutes it has probably encountered an error.',
  needSubscription:
    'You need a subscription to keep making materials. Click here to manage your subscription.',
  deleteMaterial: 'Are you sure you want to permanently delete this material?',
  deletedTitle: 'Material Deleted',
  deletedMessage: 'Material deleted successfully!',
  foldersIntro: 'Folders can be used to organize your quizzes, tests, and other materials',
  noFolders: "You don't have any folders yet! Once you make a folder it will appear here.",
  deleteFolderTitle: 'Are you sure?',
  deleteFolder: 'Are you sure you want to permanently delete this folder?',
} as const;

/* ------------------------------------------------------------------------------------------ */
/* The structured material document                                                            */
/* ------------------------------------------------------------------------------------------ */

export const QUESTION_KINDS = [
  'multiple_choice',
  'true_false',
  'fill_blank',
  'short_answer',
  'matching',
  'discussion',
] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

/** Section headings per kind, used by the renderers and the exports. */
export const QUESTION_KIND_LABELS: Record<QuestionKind, string> = {
  multiple_choice: 'Multiple choice',
  true_false: 'True or false',
  fill_blank: 'Fill in the blank',
  short_answer: 'Short answer',
  matching: 'Matching',
  discussion: 'Discussion',
};

/** A quote copied from the reference text that supports the answer. */
const Evidence = z.string().trim().min(1).max(2000);
const Text = z.string().trim().min(1).max(4000);

/**
 * Set by the server when a teacher saves an edit: false when the question's evidence quote (for
 * matching, any pair's) is not found in the material's reference text by the quality gate's
 * matching rules. Absent when it was found, when nothing was edited, and when there is no
 * reference text (the material is unverified). The server ignores what a client sends here.
 */
const EvidenceFound = z.boolean().optional();

/**
 * What a question's stem asks, set by the generator so the evaluation can count cloze items and
 * the kinds of question a material uses: a sentence with a blank (cloze), who/what/when/where/how
 * many (wh), why/cause, which happened first (sequence), which statement the text supports
 * (supported), a word's meaning in context (vocab_context), an inference or discussion prompt,
 * a true statement (tf_true), a false one made by swapping a fact (tf_swap) or negating
 * (tf_negation), who says a line (speaker), a question about a topic or character (topic),
 * matching words to meanings (match_meaning) or to sentences (match_sentence).
 */
export const QUESTION_FORMS = [
  'cloze',
  'wh',
  'cause',
  'sequence',
  'supported',
  'vocab_context',
  'inference',
  'discussion',
  'tf_true',
  'tf_swap',
  'tf_negation',
  'speaker',
  'topic',
  'match_meaning',
  'match_sentence',
  'match_speaker',
] as const;
export type QuestionForm = (typeof QUESTION_FORMS)[number];

const QuestionBase = z.object({
  id: z.string().min(1).max(40),
  prompt: Text,
  /** What the stem asks (see QUESTION_FORMS); optional, kept through edits. */
  form: z.enum(QUESTION_FORMS).optional(),
  explanation: z.string().trim().max(2000).optional(),
  evidenceFound: EvidenceFound,
});

export const MultipleChoiceQuestionSchema = QuestionBase.extend({
  kind: z.literal('multiple_choice'),
  choices: z.array(z.string().trim().min(1).max(500)).min(2).max(6),
  /** Index of the one correct choice. */
  answerIndex: z.number().int().min(0).max(5),
  evidence: Evidence,
});

export const TrueFalseQuestionSchema = QuestionBase.extend({
  kind: z.literal('true_false'),
  /** The statement is the prompt; answer says whether the text supports it. */
  answer: z.boolean(),
  evidence: Evidence,
  /** For false statements: what the text actually says. */
  correction: z.string().trim().max(2000).optional(),
});

export const FillBlankQuestionSchema = QuestionBase.extend({
  kind: z.literal('fill_blank'),
  /** The prompt holds the blank as "_____". */
  answer: z.string().trim().min(1).max(200),
  evidence: Evidence,
});

export const ShortAnswerQuestionSchema = QuestionBase.extend({
  kind: z.literal('short_answer'),
  /** A model answer. */
  answer: Text,
  evidence: Evidence,
});

export const MatchingPairSchema = z.object({
  left: z.string().trim().min(1).max(300),
  right: z.string().trim().min(1).max(1000),
  evidence: Evidence,
});

export const MatchingQuestionSchema = QuestionBase.extend({
  kind: z.literal('matching'),
  /** Correct pairs; students see the right-hand column shuffled by `order`. */
  pairs: z.array(MatchingPairSchema).min(2).max(12),
  /** The order in which the right-hand items are shown: a permutation of the pair indexes. */
  order: z.array(z.number().int().min(0)).max(12),
});

export const DiscussionQuestionSchema = QuestionBase.extend({
  kind: z.literal('discussion'),
  /** What a strong answer includes (for the teacher). */
  answer: Text,
  evidence: Evidence,
});

export const QuestionSchema = z.discriminatedUnion('kind', [
  MultipleChoiceQuestionSchema,
  TrueFalseQuestionSchema,
  FillBlankQuestionSchema,
  ShortAnswerQuestionSchema,
  MatchingQuestionSchema,
  DiscussionQuestionSchema,
]);
export type Question = z.infer<typeof QuestionSchema>;
export type MultipleChoiceQuestion = z.infer<typeof MultipleChoiceQuestionSchema>;
export type TrueFalseQuestion = z.infer<typeof TrueFalseQuestionSchema>;
export type FillBlankQuestion = z.infer<typeof FillBlankQuestionSchema>;
export type ShortAnswerQuestion = z.infer<typeof ShortAnswerQuestionSchema>;
export type MatchingQuestion = z.infer<typeof MatchingQuestionSchema>;
export type DiscussionQuestion = z.infer<typeof DiscussionQuestionSchema>;

export const MaterialSectionSchema = z.object({
  title: z.string().trim().min(1).max(200),
  instructions: z.string().trim().max(1000).default(''),
  questions: z.array(QuestionSchema).max(60),
});
export type MaterialSection = z.infer<typeof MaterialSectionSchema>;

export const VocabularyItemSchema = z.object({
  term: z.string().trim().min(1).max(100),
  partOfSpeech: z.string().trim().max(30).optional(),
  definition: z.string().trim().min(1).max(1000),
  /** The sentence of the text where the term is used (a verbatim quote). */
  context: Evidence,
  /** As for questions: false when an edited example is not found in the reference text. */
  evidenceFound: EvidenceFound,
});
export type VocabularyItem = z.infer<typeof VocabularyItemSchema>;

export const LessonActivitySchema = z.object({
  title: z.string().trim().min(1).max(200),
  minutes: z.number().int().min(1).max(240),
  grouping: z.string().trim().max(60).optional(),
  steps: z.array(z.string().trim().min(1).max(1000)).min(1).max(12),
});
export type LessonActivity = z.infer<typeof LessonActivitySchema>;

export const LessonPlanSchema = z.object({
  durationMinutes: z.number().int().min(10).max(240),
  objectives: z.array(z.string().trim().min(1).max(500)).min(1).max(8),
  materialsNeeded: z.array(z.string().trim().min(1).max(300)).max(10).default([]),
  /** Key sentences of the text, in order (an extractive summary; verbatim quotes). */
  keyPassages: z.array(Evidence).max(10).default([]),
  activities: z.array(LessonActivitySchema).min(1).max(10),
  differentiation: z.object({
    support: z.array(z.string().trim().min(1).max(500)).min(1).max(6),
    extension: z.array(z.string().trim().min(1).max(500)).min(1).max(6),
    languageLearners: z.array(z.string().trim().min(1).max(500)).max(6).default([]),
  }),
  assessment: z.array(z.string().trim().min(1).max(500)).min(1).max(6),
  exitTicket: z.array(QuestionSchema).min(1).max(5),
});
export type LessonPlan = z.infer<typeof LessonPlanSchema>;

/**
 * A generated material in structured form: what the exports, the print view and the text in
 * `output.choices[0].message.content` are made from. Every question carries an evidence quote
 * copied from the reference text; the quality gate drops questions whose quote is not there.
 */
export const MaterialDocumentSchema = z.object({
  version: z.literal(1).default(1),
  title: z.string().trim().min(1).max(300),
  type: z.string().trim().min(1).max(60),
  grade: z.string().trim().max(60).default(''),
  subject: z.string().trim().max(120).default(''),
  instructions: z.string().trim().max(2000).default(''),
  sections: z.array(MaterialSectionSchema).max(12).default([]),
  vocabulary: z.array(VocabularyItemSchema).max(30).default([]),
  lesson: LessonPlanSchema.optional(),
  /** How it was made: the engine, and what the quality gate removed. */
  generator: z
    .object({
      engine: z.string().max(40),
      model: z.string().max(200).optional(),
      droppedQuestions: z.number().int().nonnegative().default(0),
      /** Candidate distractors the validity gates turned down (local generator). */
      distractorRejections: z.number().int().nonnegative().optional(),
      /** True when there was no reference text to check answers against. */
      unverified: z.boolean().default(false),
      notes: z.array(z.string().max(500)).max(10).default([]),
      /**
       * Questions the plan asked for in the sections (a lesson's exit ticket is not counted),
       * and how many the type holds by default at this grade. A generation that makes fewer
       * than half of the smaller is not charged for (decision 025). Absent in older documents.
       */
      questionsAskedFor: z.number().int().nonnegative().optional(),
      typicalQuestions: z.number().int().nonnegative().optional(),
    })
    .default({ engine: 'local', droppedQuestions: 0, unverified: false, notes: [] }),
});
export type MaterialDocument = z.infer<typeof MaterialDocumentSchema>;

/**
 * The note a material carries when it was not charged for because the text supported too few
 * of the questions asked for (decision 025); shown first among the generator's notes.
 */
export function generationNotCountedNote(made: number, askedFor: number): string {
  const supported = made === 0 ? 'none' : `only ${made}`;
  return `This text supported ${supported} of the ${askedFor} question${askedFor === 1 ? '' : 's'} asked for, so this generation was not counted: your credit has been given back.`;
}

/** The spec's output shape: the text in choices[0].message.content, and the structured form. */
export const MaterialOutputSchema = z.object({
  choices: z
    .array(z.object({ message: z.object({ role: z.literal('assistant'), content: z.string() }) }))
    .min(1),
  document: MaterialDocumentSchema,
});
export type MaterialOutput = z.infer<typeof MaterialOutputSchema>;

/* ------------------------------------------------------------------------------------------ */
/* Rendering the document as text                                                               */
/* ------------------------------------------------------------------------------------------ */

const LETTERS = 'ABCDEFGHIJKL';

/** "A", "B", … for the index of a choice. */
export function choiceLetter(index: number): string {
  return LETTERS[index] ?? String(index + 1);
}

/** All questions of a document in the order they are numbered (sections, then exit ticket). */
export function numberedQuestions(document: MaterialDocument): Question[] {
  return [
    ...document.sections.flatMap((section) => section.questions),
    ...(document.lesson?.exitTicket ?? []),
  ];
}

/** Puts a quote in curly quotation marks, unless it already holds quoted speech. */
function wrapQuote(text: string): string {
  const inner = text.replace(/^["“]+|["”]+$/g, '');
  return /["“”]/.test(inner) ? text : `“${inner}”`;
}

function renderQuestion(question: Question, number: number, lines: string[]): void {
  switch (question.kind) {
    case 'multiple_choice':
      lines.push(`${number}. ${question.prompt}`);
      question.choices.forEach((choice, i) => lines.push(`   ${choiceLetter(i)}. ${choice}`));
      break;
    case 'true_false':
      lines.push(`${number}. True or false: ${question.prompt}`);
      lines.push('   True / False');
      break;
    case 'fill_blank':
      lines.push(`${number}. ${question.prompt}`);
      break;
    case 'short_answer':
      lines.push(`${number}. ${question.prompt}`);
      lines.push('   ______________________________________________');
      break;
    case 'matching': {
      lines.push(`${number}. ${question.prompt}`);
      question.pairs.forEach((pair, i) => lines.push(`   ${i + 1}) ${pair.left}`));
      lines.push('');
      orderOf(question).forEach((pairIndex, i) => {
        const pair = question.pairs[pairIndex];
        if (pair) lines.push(`   ${choiceLetter(i)}. ${pair.right}`);
      });
      break;
    }
    case 'discussion':
      lines.push(`${number}. ${question.prompt}`);
      break;
  }
}

/** The shown order of a matching question's right-hand column (falls back to the given order). */
export function orderOf(question: MatchingQuestion): number[] {
  const n = question.pairs.length;
  const order = question.order;
  const valid =
    order.length === n && new Set(order).size === n && order.every((i) => i >= 0 && i < n);
  return valid ? order : question.pairs.map((_, i) => i);
}

/** The key of one question, e.g. "B. Geneva" or "False". */
export function answerText(question: Question): string {
  switch (question.kind) {
    case 'multiple_choice':
      return `${choiceLetter(question.answerIndex)}. ${question.choices[question.answerIndex] ?? ''}`;
    case 'true_false':
      return question.answer ? 'True' : 'False';
    case 'fill_blank':
    case 'short_answer':
    case 'discussion':
      return question.answer;
    case 'matching': {
      const order = orderOf(question);
      return question.pairs
        .map((_, pairIndex) => `${pairIndex + 1}-${choiceLetter(order.indexOf(pairIndex))}`)
        .join(', ');
    }
  }
}

/** The evidence lines of one question's key. */
export function evidenceOf(question: Question): string[] {
  if (question.kind === 'matching') return question.pairs.map((p) => p.evidence);
  return [question.evidence];
}

/** The warning on a question (or vocabulary example) whose quote is not in the reference text. */
export const EVIDENCE_NOT_FOUND_MESSAGE =
  'The quoted evidence was not found in the reference text.';

/** True when a teacher's edit left a quote that the reference text does not contain. */
export function evidenceMissing(item: { evidenceFound?: boolean | undefined }): boolean {
  return item.evidenceFound === false;
}

export interface RenderOptions {
  /** 'teacher' (default): everything, with the answer key. 'student': no lesson plan, no key. */
  copy?: 'teacher' | 'student';
}

/**
 * The text teachers read in `output.choices[0].message.content`: the student part (title,
 * instructions, numbered questions with lettered choices, vocabulary, lesson plan), then the
 * answer key with the evidence quote of every answer.
 */
export function renderMaterialText(
  document: MaterialDocument,
  options: RenderOptions = {},
): string {
  const student = options.copy === 'student';
  const lines: string[] = [];
  lines.push(document.title);
  const meta = [
    document.grade && `Grade: ${document.grade}`,
    document.subject && `Subject: ${document.subject}`,
    `Type: ${document.type}`,
  ].filter(Boolean);
  lines.push(meta.join(' | '));
  lines.push('');
  if (student) {
    lines.push('Name: ______________________    Date: ____________');
    lines.push('');
  }
  if (document.instructions) {
    lines.push(`Instructions: ${document.instructions}`);
    lines.push('');
  }

  const lesson = document.lesson;
  if (lesson && !student) {
    lines.push(`LESSON PLAN (${lesson.durationMinutes} minutes)`);
    lines.push('');
    lines.push('Learning objectives. Students will be able to:');
    lesson.objectives.forEach((o) => lines.push(`- ${o}`));
    lines.push('');
    if (lesson.materialsNeeded.length) {
      lines.push('Materials:');
      lesson.materialsNeeded.forEach((m) => lines.push(`- ${m}`));
      lines.push('');
    }
    if (lesson.keyPassages.length) {
      lines.push('Key passages (summary in the words of the text):');
      lesson.keyPassages.forEach((p) => lines.push(`- ${wrapQuote(p)}`));
      lines.push('');
    }
    lines.push('Activities:');
    lesson.activities.forEach((activity, i) => {
      const grouping = activity.grouping ? `, ${activity.grouping}` : '';
      lines.push(`${i + 1}. ${activity.title} (${activity.minutes} min${grouping})`);
      activity.steps.forEach((step) => lines.push(`   - ${step}`));
    });
    lines.push('');
    lines.push('Differentiation:');
    lesson.differentiation.support.forEach((s) => lines.push(`- Support: ${s}`));
    lesson.differentiation.extension.forEach((s) => lines.push(`- Extension: ${s}`));
    lesson.differentiation.languageLearners.forEach((s) => lines.push(`- Language learners: ${s}`));
    lines.push('');
    lines.push('Assessment:');
    lesson.assessment.forEach((a) => lines.push(`- ${a}`));
    lines.push('');
  }

  if (document.vocabulary.length) {
    lines.push('VOCABULARY');
    document.vocabulary.forEach((item, i) => {
      const pos = item.partOfSpeech ? ` (${item.partOfSpeech})` : '';
      lines.push(`${i + 1}. ${item.term}${pos}: ${item.definition}`);
      lines.push(`   In the text: ${wrapQuote(item.context)}`);
      if (!student && evidenceMissing(item))
        lines.push(`   Warning: ${EVIDENCE_NOT_FOUND_MESSAGE}`);
    });
    lines.push('');
  }

  let number = 0;
  const numbered = new Map<Question, number>();
  document.sections.forEach((section, s) => {
    if (!section.questions.length) return;
    lines.push(`PART ${s + 1}: ${section.title.toUpperCase()}`);
    if (section.instructions) lines.push(section.instructions);
    lines.push('');
    for (const question of section.questions) {
      number += 1;
      numbered.set(question, number);
      renderQuestion(question, number, lines);
      lines.push('');
    }
  });
  if (lesson) {
    lines.push('EXIT TICKET');
    lines.push('');
    for (const question of lesson.exitTicket) {
      number += 1;
      numbered.set(question, number);
      renderQuestion(question, number, lines);
      lines.push('');
    }
  }

  if (numbered.size && !student) {
    lines.push('==============================');
    lines.push('ANSWER KEY');
    lines.push('');
    for (const [question, n] of numbered) {
      lines.push(`${n}. ${answerText(question)}`);
      if (question.kind === 'true_false' && !question.answer && question.correction) {
        lines.push(`   The text says: ${wrapQuote(question.correction)}`);
      } else {
        for (const quote of evidenceOf(question)) lines.push(`   Evidence: ${wrapQuote(quote)}`);
      }
      if (evidenceMissing(question)) lines.push(`   Warning: ${EVIDENCE_NOT_FOUND_MESSAGE}`);
    }
    lines.push('');
  }
  if (document.generator.unverified && !student) {
    lines.push(
      'Note: no reference text was given, so these answers could not be checked against a text.',
    );
  }
  return (
    lines
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim() + '\n'
  );
}

/* ------------------------------------------------------------------------------------------ */
/* API contracts                                                                                */
/* ------------------------------------------------------------------------------------------ */

export const MATERIAL_STATUSES = ['pending', 'running', 'finished', 'failed'] as const;
export type MaterialStatus = (typeof MATERIAL_STATUSES)[number];

const requiredText = (max: number) =>
  z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .max(max, `must be at most ${max} characters`);

const Uuid = z.uuid({ error: 'must be an id' });

/** The generation form (spec §3) plus where it goes and where its text came from. */
export const GenerateMaterialBodySchema = z.object({
  name: requiredText(MATERIAL_LIMITS.name),
  subject: requiredText(MATERIAL_LIMITS.subject),
  grade: z.enum(GRADES, {
    error: 'must be one of the 14 grades, from "Kindergarten (Year 1)" to "Collegiate"',
  }),
  type: requiredText(60),
  /** Checked against MATERIAL_LIMITS.referenceTextChars by the service (413 when longer). */
  referenceText: z.string().default(''),
  descriptionText: z
    .string()
    .max(
      MATERIAL_LIMITS.descriptionText,
      `must be at most ${MATERIAL_LIMITS.descriptionText} characters`,
    )
    .default(''),
  setId: Uuid.nullish(),
  bookUrl: z.string().trim().max(300).nullish(),
  chapterUrl: z.string().trim().max(300).nullish(),
});
export type GenerateMaterialInput = z.input<typeof GenerateMaterialBodySchema>;

export const GenerateMaterialAnswerSchema = z.object({ materialId: z.string() });

export const CheckGenerationBodySchema = z.object({ id: Uuid });
export const CheckGenerationAnswerSchema = z.object({
  finished: z.boolean(),
  status: z.enum(MATERIAL_STATUSES),
  error: z.string().optional(),
});
export type CheckGenerationAnswer = z.infer<typeof CheckGenerationAnswerSchema>;

export const MaterialSchema = z.object({
  _id: z.string(),
  name: z.string(),
  grade: z.string(),
  subject: z.string(),
  type: z.string(),
  setId: z.string().nullable(),
  referenceText: z.string(),
  descriptionText: z.string(),
  bookUrl: z.string().nullable(),
  chapterUrl: z.string().nullable(),
  createdAt: z.string(),
  /** When a teacher last saved an edit of it (absent until then). */
  editedAt: z.string().optional(),
  /** True for the platform's ready-made chapter materials: anyone may read them, nobody edits them. */
  isPlatform: z.boolean().optional(),
  status: z.enum(MATERIAL_STATUSES),
  error: z.string().optional(),
  output: MaterialOutputSchema.optional(),
});
export type Material = z.infer<typeof MaterialSchema>;

/**
 * A ready-made chapter material as the chapter page lists it: what its card shows, without the
 * reference text or the document (issue 18: the chapter text is sent once). The full material
 * comes from `GET /materials/getmaterial?id` when a preview is opened.
 */
export const ChapterMaterialCardSchema = MaterialSchema.pick({
  _id: true,
  name: true,
  grade: true,
  subject: true,
  type: true,
  bookUrl: true,
  chapterUrl: true,
  createdAt: true,
  status: true,
}).extend({
  isPlatform: z.literal(true),
  /** Numbered questions in the document (sections and exit ticket). */
  questionCount: z.number().int().nonnegative(),
  /** True when the document holds a lesson plan. */
  hasLesson: z.boolean(),
});
export type ChapterMaterialCard = z.infer<typeof ChapterMaterialCardSchema>;

/**
 * A teacher's material as the 'Your Materials' cards show it (`getusersmaterials?view=card`,
 * decision 026): no reference text or description (a chapter each, never shown on a card), and
 * of the output only the document the card renders, not its text rendering. The whole material
 * (`getmaterial?id`) is read when one is opened, edited or exported.
 */
export const MaterialListCardSchema = MaterialSchema.omit({
  referenceText: true,
  descriptionText: true,
  output: true,
}).extend({
  /** Present once the generation finished, like `output` of a whole material. */
  output: z.object({ document: MaterialDocumentSchema }).optional(),
});
export type MaterialListCard = z.infer<typeof MaterialListCardSchema>;

export const MaterialSetSchema = z.object({
  _id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  materialCount: z.number().int().nonnegative(),
});
export type MaterialSet = z.infer<typeof MaterialSetSchema>;

export const CreateSetBodySchema = z.object({ name: requiredText(MATERIAL_LIMITS.setName) });
export const DeleteSetBodySchema = z.object({ _id: Uuid });
export const DeleteMaterialBodySchema = z.object({ id: Uuid });
export const MoveMaterialBodySchema = z.object({ id: Uuid, setId: Uuid.nullable() });

/**
 * `POST /materials/updatematerial`: a teacher's edit. `document` is the whole edited
 * MaterialDocument; it is checked by `checkMaterialEdit` (material-edits.ts) in the service, not
 * here, so that a 400 names the question ("Question 3: …") rather than a JSON path.
 */
export const UpdateMaterialBodySchema = z.object({
  id: Uuid,
  name: requiredText(MATERIAL_LIMITS.name).optional(),
  document: z
    .record(z.string(), z.unknown(), { error: 'must be a material document (an object)' })
    .meta({
      description:
        'The edited MaterialDocument (the shape of output.document). type, grade, subject, generator and the lesson’s key passages are kept from the stored document.',
    }),
});
export type UpdateMaterialInput = z.input<typeof UpdateMaterialBodySchema>;

export const ListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(24),
});
/**
 * `view`: `full` (the default, api-shapes.md: whole materials) or `card` (the cards' fields only,
 * MaterialListCardSchema: what the web app's list asks for).
 */
export const MATERIAL_LIST_VIEWS = ['full', 'card'] as const;
export const MaterialsQuerySchema = ListQuerySchema.extend({
  setId: Uuid.optional(),
  view: z.enum(MATERIAL_LIST_VIEWS).default('full'),
});
export const IdQuerySchema = z.object({ id: Uuid });
export const ChapterMaterialsQuerySchema = z.object({
  bookUrl: requiredText(300),
  chapterUrl: requiredText(300),
});
export const MaterialSetsAnswerSchema = z.object({ materialSets: listOf(MaterialSetSchema) });
export const MaterialsAnswerSchema = z.object({
  generatedMaterials: listOf(z.union([MaterialSchema, MaterialListCardSchema])),
});
export const WasSuccessfulSchema = z.object({ wasSuccessful: z.literal(true) });
