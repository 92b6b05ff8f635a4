import type { z } from 'zod';
import {
  choiceLetter,
  MATERIAL_LIMITS,
  MaterialDocumentSchema,
  numberedQuestions,
  QUESTION_KINDS,
  type MaterialDocument,
  type Question,
} from './materials.js';

/*
 * The rules a teacher's edit of a material must keep, shared by the editor (checked before it
 * sends) and the API (`POST /materials/updatematerial`, checked again by the service). Every
 * problem becomes one sentence that names where it is, the way the editor numbers things:
 * "Question 3: the choices must be different." The editor finds the question again from that
 * prefix (`locateEditMessage`), so a server answer lands next to the question it is about.
 */

/** Where a problem of an edit is: a numbered question (as printed), a vocabulary word, … */
export type EditTarget =
  | { kind: 'question' | 'vocabulary' | 'activity' | 'objective' | 'part'; number: number }
  | { kind: 'material' };

export interface EditIssue {
  message: string;
  target: EditTarget;
}

export type MaterialEditCheck =
  { ok: true; document: MaterialDocument } | { ok: false; issue: EditIssue };

const PREFIX: Record<Exclude<EditTarget['kind'], 'material'>, string> = {
  question: 'Question',
  vocabulary: 'Vocabulary word',
  activity: 'Activity',
  objective: 'Objective',
  part: 'Part',
};

function issue(target: EditTarget, text: string): EditIssue {
  const sentence = text.endsWith('.') ? text : `${text}.`;
  if (target.kind === 'material') {
    return { target, message: sentence.charAt(0).toUpperCase() + sentence.slice(1) };
  }
  return { target, message: `${PREFIX[target.kind]} ${target.number}: ${sentence}` };
}

/** The target a message of `checkMaterialEdit` (or the API's 400 answer) names. */
export function locateEditMessage(message: string): EditTarget {
  const match = /^(Question|Vocabulary word|Activity|Objective|Part) (\d+):/.exec(message);
  if (!match) return { kind: 'material' };
  const kind = (Object.keys(PREFIX) as Array<keyof typeof PREFIX>).find(
    (k) => PREFIX[k] === match[1],
  )!;
  return { kind, number: Number(match[2]) };
}

/** Letters, digits and single spaces, lower case: what makes two choices "the same". */
export function comparableText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The words that identify a question, for spotting one asked twice. */
function questionKey(question: Question): string {
  if (question.kind === 'matching')
    return comparableText(question.pairs.map((p) => p.left).join(' '));
  return comparableText(question.prompt);
}

/* ------------------------------------------------------------------------------------------ */
/* Schema problems, in the editor's words                                                      */
/* ------------------------------------------------------------------------------------------ */

type Path = ReadonlyArray<PropertyKey>;
type Issue = z.core.$ZodIssue;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function at(value: unknown, path: Path): unknown {
  let here = value;
  for (const key of path) {
    if (Array.isArray(here) && typeof key === 'number') here = here[key];
    else if (isRecord(here) && typeof key === 'string') here = here[key];
    else return undefined;
  }
  return here;
}

/** How many questions the raw document's sections hold before section `index`. */
function questionsBefore(input: unknown, sectionIndex: number): number {
  const sections = at(input, ['sections']);
  if (!Array.isArray(sections)) return 0;
  let n = 0;
  for (const section of sections.slice(0, sectionIndex)) {
    const questions = at(section, ['questions']);
    if (Array.isArray(questions)) n += questions.length;
  }
  return n;
}

/** Singular and plural names of the lists of a document, for "at least 2 choices". */
const LISTS: Record<string, [string, string]> = {
  choices: ['choice', 'choices'],
  pairs: ['pair', 'pairs'],
  questions: ['question in a part', 'questions in a part'],
  sections: ['part', 'parts'],
  vocabulary: ['vocabulary word', 'vocabulary words'],
  objectives: ['objective', 'objectives'],
  activities: ['activity', 'activities'],
  steps: ['step', 'steps'],
  exitTicket: ['exit-ticket question', 'exit-ticket questions'],
  materialsNeeded: ['item in the materials list', 'items in the materials list'],
  keyPassages: ['key passage', 'key passages'],
  assessment: ['assessment item', 'assessment items'],
  support: ['support idea', 'support ideas'],
  extension: ['extension idea', 'extension ideas'],
  languageLearners: ['idea for language learners', 'ideas for language learners'],
  order: ['entry in the order of the matches', 'entries in the order of the matches'],
};

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

/** What is wrong, as the end of a sentence whose subject is the field ("… is required"). */
function verbOf(problem: Issue, value: unknown, listItem: boolean): string {
  switch (problem.code) {
    case 'too_small': {
      const min = Number(problem.minimum);
      if (problem.origin === 'string')
        return min <= 1
          ? listItem
            ? 'is empty'
            : 'is required'
          : `needs at least ${min} characters`;
      return `must be at least ${min}`;
    }
    case 'too_big': {
      const max = Number(problem.maximum);
      if (problem.origin === 'string') return `must be at most ${max} characters`;
      return `must be at most ${max}`;
    }
    case 'invalid_type':
      if (value === undefined) return 'is missing';
      return `must be ${TYPE_WORDS[problem.expected] ?? problem.expected}`;
    case 'invalid_value':
      return `must be ${problem.values.map((v) => JSON.stringify(v)).join(' or ')}`;
    default:
      return 'is not valid';
  }
}

function questionField(path: Path, kind: unknown): string {
  const [head, index, leaf] = path;
  switch (head) {
    case undefined:
      return 'the question';
    case 'prompt':
      return kind === 'true_false' ? 'the statement' : 'the prompt';
    case 'explanation':
      return 'the explanation';
    case 'evidence':
      return 'the evidence quote';
    case 'correction':
      return 'the correction';
    case 'answerIndex':
      return 'the correct choice';
    case 'answer':
      if (kind === 'true_false') return 'the answer (true or false)';
      if (kind === 'short_answer') return 'the model answer';
      if (kind === 'discussion') return 'what a strong answer includes';
      return 'the answer';
    case 'choices':
      return typeof index === 'number' ? `choice ${choiceLetter(index)}` : 'the choices';
    case 'pairs': {
      if (typeof index !== 'number') return 'the pairs';
      const n = index + 1;
      if (leaf === 'left') return `the item of pair ${n}`;
      if (leaf === 'right') return `the match of pair ${n}`;
      if (leaf === 'evidence') return `the evidence quote of pair ${n}`;
      return `pair ${n}`;
    }
    case 'order':
      return 'the order of the matches';
    case 'kind':
      return 'the kind of question';
    default:
      return `the ${String(head)}`;
  }
}

const VOCABULARY_FIELDS: Record<string, string> = {
  term: 'the word',
  definition: 'the definition',
  context: 'the example from the text',
  partOfSpeech: 'the part of speech',
};
const ACTIVITY_FIELDS: Record<string, string> = {
  title: 'the title',
  minutes: 'the minutes',
  grouping: 'the grouping',
  steps: 'the steps',
};
const DOCUMENT_FIELDS: Record<string, string> = {
  title: 'the title',
  instructions: 'the instructions',
  type: 'the type',
  grade: 'the grade',
  subject: 'the subject',
  sections: 'the parts',
  vocabulary: 'the vocabulary',
  lesson: 'the lesson plan',
  version: 'the version',
  generator: 'the generator details',
};

/** A sentence about a list that is too short or too long ("there must be at least 2 choices"). */
function listSentence(problem: Issue, key: PropertyKey | undefined): string | null {
  if (problem.code !== 'too_small' && problem.code !== 'too_big') return null;
  if (problem.origin !== 'array' || typeof key !== 'string') return null;
  const names = LISTS[key];
  if (!names) return null;
  if (problem.code === 'too_small') {
    const min = Number(problem.minimum);
    return `there must be at least ${min} ${min === 1 ? names[0] : names[1]}`;
  }
  const max = Number(problem.maximum);
  return `there can be at most ${max} ${max === 1 ? names[0] : names[1]}`;
}

/** One schema problem of a raw edited document, in the editor's words. */
function describeSchemaIssue(input: unknown, problem: Issue): EditIssue {
  const path = problem.path;
  const value = at(input, path);
  const last = path[path.length - 1];
  const listItem = typeof last === 'number';
  const sentence = (field: string, container: PropertyKey | undefined) =>
    listSentence(problem, container) ??
    (problem.code === 'invalid_union'
      ? `the kind of question must be one of ${QUESTION_KINDS.join(', ')}`
      : `${field} ${verbOf(problem, value, listItem)}`);

  // A question: sections[s].questions[q]… or lesson.exitTicket[q]…
  let number: number | undefined;
  let rest: Path = [];
  if (path[0] === 'sections' && path[2] === 'questions' && typeof path[3] === 'number') {
    number = questionsBefore(input, Number(path[1])) + path[3] + 1;
    rest = path.slice(4);
  } else if (path[0] === 'lesson' && path[1] === 'exitTicket' && typeof path[2] === 'number') {
    number = questionsBefore(input, Infinity) + path[2] + 1;
    rest = path.slice(3);
  }
  if (number !== undefined) {
    const base = path.slice(0, path.length - rest.length);
    const kind = at(input, [...base, 'kind']);
    if (kind === 'multiple_choice' && rest[0] === 'answerIndex' && problem.code === 'too_small') {
      return issue({ kind: 'question', number }, 'pick the correct choice');
    }
    if (
      kind === 'true_false' &&
      rest[0] === 'answer' &&
      (problem.code === 'invalid_type' || value === undefined)
    ) {
      return issue({ kind: 'question', number }, 'choose whether the statement is true or false');
    }
    return issue({ kind: 'question', number }, sentence(questionField(rest, kind), rest[0]));
  }

  if (path[0] === 'sections' && typeof path[1] === 'number') {
    const field =
      path[2] === 'instructions'
        ? 'the instructions'
        : path[2] === 'title'
          ? 'the title'
          : 'the part';
    return issue({ kind: 'part', number: path[1] + 1 }, sentence(field, path[2]));
  }
  if (path[0] === 'vocabulary' && typeof path[1] === 'number') {
    const field = VOCABULARY_FIELDS[String(path[2])] ?? 'the word';
    return issue({ kind: 'vocabulary', number: path[1] + 1 }, sentence(field, path[2]));
  }
  if (path[0] === 'lesson' && path[1] === 'activities' && typeof path[2] === 'number') {
    const field =
      path[3] === 'steps' && typeof path[4] === 'number'
        ? `step ${path[4] + 1}`
        : (ACTIVITY_FIELDS[String(path[3])] ?? 'the activity');
    return issue({ kind: 'activity', number: path[2] + 1 }, sentence(field, path[3]));
  }
  if (path[0] === 'lesson' && path[1] === 'objectives' && typeof path[2] === 'number') {
    return issue({ kind: 'objective', number: path[2] + 1 }, sentence('the objective', undefined));
  }
  if (path[0] === 'lesson' && path.length > 1) {
    const words = path
      .slice(1)
      .map((p) =>
        typeof p === 'number'
          ? `item ${p + 1}`
          : String(p).replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`),
      )
      .join(', ');
    return issue(
      { kind: 'material' },
      listSentence(problem, last)
        ? `the lesson plan: ${listSentence(problem, last)}`
        : `the lesson plan's ${words} ${verbOf(problem, value, listItem)}`,
    );
  }
  const field =
    DOCUMENT_FIELDS[String(path[0])] ?? (path.length ? `the ${path.join('.')}` : 'the material');
  return issue({ kind: 'material' }, sentence(field, path[0]));
}

/* ------------------------------------------------------------------------------------------ */
/* Editing rules                                                                               */
/* ------------------------------------------------------------------------------------------ */

/** The rules beyond the schema, on a document that matches it. Null when it keeps them all. */
function checkRules(document: MaterialDocument): EditIssue | null {
  const questions = numberedQuestions(document);
  if (questions.length === 0) {
    return issue({ kind: 'material' }, 'a material needs at least one question');
  }
  if (questions.length > MATERIAL_LIMITS.questions) {
    return issue(
      { kind: 'material' },
      `a material can have at most ${MATERIAL_LIMITS.questions} questions, and this one has ${questions.length}`,
    );
  }
  const seen = new Map<string, number>();
  for (const [i, question] of questions.entries()) {
    const target = { kind: 'question' as const, number: i + 1 };
    switch (question.kind) {
      case 'multiple_choice': {
        if (question.answerIndex >= question.choices.length)
          return issue(target, 'the correct answer must be one of the choices');
        const keys = question.choices.map(comparableText);
        const blank = keys.findIndex((k) => !k);
        if (blank !== -1)
          return issue(target, `choice ${choiceLetter(blank)} needs a word or a number`);
        if (new Set(keys).size !== keys.length)
          return issue(target, 'the choices must be different');
        break;
      }
      case 'fill_blank':
        if (!/_{3,}/.test(question.prompt))
          return issue(target, 'the prompt needs a blank (___) where the answer goes');
        break;
      case 'matching': {
        const lefts = question.pairs.map((p) => comparableText(p.left));
        const rights = question.pairs.map((p) => comparableText(p.right));
        if (new Set(lefts).size !== lefts.length || new Set(rights).size !== rights.length)
          return issue(target, 'the items to match must be different');
        break;
      }
      default:
        break;
    }
    const key = questionKey(question);
    const earlier = seen.get(key);
    if (earlier !== undefined) return issue(target, `it is the same as question ${earlier}`);
    seen.set(key, i + 1);
  }

  const terms = new Map<string, number>();
  for (const [i, item] of document.vocabulary.entries()) {
    const key = comparableText(item.term);
    const earlier = terms.get(key);
    if (earlier !== undefined)
      return issue(
        { kind: 'vocabulary', number: i + 1 },
        `“${item.term}” is already word ${earlier}`,
      );
    terms.set(key, i + 1);
  }

  if (document.lesson) {
    const minutes = lessonMinutes(document.lesson);
    if (minutes < 10 || minutes > 240)
      return issue(
        { kind: 'material' },
        `the lesson's activities take ${minutes} minutes in all; a lesson takes 10 to 240 minutes`,
      );
  }
  return null;
}

/** A lesson's length: the minutes of its activities added up (the generator makes it so too). */
export function lessonMinutes(
  lesson: Pick<NonNullable<MaterialDocument['lesson']>, 'activities'>,
): number {
  return lesson.activities.reduce((sum, a) => sum + a.minutes, 0);
}

/**
 * Checks a teacher's edited document: the shared MaterialDocumentSchema, then the editing rules
 * (2–6 distinct non-empty choices with the answer among them, a true/false answer, distinct
 * items to match, a blank in fill-in prompts, no question asked twice, no word listed twice,
 * at most MATERIAL_LIMITS.questions questions, a lesson of 10–240 minutes). Returns the parsed
 * document, or the first problem as one sentence naming the question.
 */
export function checkMaterialEdit(input: unknown): MaterialEditCheck {
  const parsed = MaterialDocumentSchema.safeParse(input);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return {
      ok: false,
      issue: first
        ? describeSchemaIssue(input, first)
        : { target: { kind: 'material' }, message: 'The material is not valid.' },
    };
  }
  const problem = checkRules(parsed.data);
  return problem ? { ok: false, issue: problem } : { ok: true, document: parsed.data };
}
