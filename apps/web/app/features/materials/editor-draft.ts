import {
  QUESTION_KIND_LABELS,
  type MaterialDocument,
  type Question,
  type QuestionKind,
} from '@chapterwise/shared';

/**
 * The material editor's working copy and the pure changes made to it. The editor clones the
 * draft, applies one of these, and keeps the result: no change reaches the server before Save,
 * where the shared `checkMaterialEdit` and then the API check it.
 */
export interface EditorDraft {
  name: string;
  document: MaterialDocument;
}

/** Where a question sits: in a part (section) of the material, or in a lesson's exit ticket. */
export type QuestionPlace =
  { list: 'section'; section: number; index: number } | { list: 'exit'; index: number };

export interface NumberedQuestion {
  question: Question;
  place: QuestionPlace;
  /** As printed: across the parts in order, then the exit ticket. */
  number: number;
}

/** The questions of a list, as the array itself (for changing a cloned draft). */
export function listOf(document: MaterialDocument, place: QuestionPlace): Question[] {
  if (place.list === 'exit') return document.lesson?.exitTicket ?? [];
  return document.sections[place.section]?.questions ?? [];
}

/** Every question with its place and printed number. */
export function numberQuestions(document: MaterialDocument): NumberedQuestion[] {
  const out: NumberedQuestion[] = [];
  document.sections.forEach((section, s) =>
    section.questions.forEach((question, index) =>
      out.push({
        question,
        place: { list: 'section', section: s, index },
        number: out.length + 1,
      }),
    ),
  );
  document.lesson?.exitTicket.forEach((question, index) =>
    out.push({ question, place: { list: 'exit', index }, number: out.length + 1 }),
  );
  return out;
}

/**
 * A new, empty question of a kind. A true/false question starts with no answer, so the teacher
 * has to choose one (the check says so until they do).
 */
export function blankQuestion(kind: QuestionKind, id: string): Question {
  const base = { id, prompt: '' };
  switch (kind) {
    case 'multiple_choice':
      return { ...base, kind, choices: ['', '', '', ''], answerIndex: 0, evidence: '' };
    case 'true_false':
      return { ...base, kind, answer: undefined as unknown as boolean, evidence: '' };
    case 'fill_blank':
      return { ...base, kind, answer: '', evidence: '' };
    case 'short_answer':
    case 'discussion':
      return { ...base, kind, answer: '', evidence: '' };
    case 'matching':
      return {
        ...base,
        kind,
        pairs: [
          { left: '', right: '', evidence: '' },
          { left: '', right: '', evidence: '' },
        ],
        order: [1, 0],
      };
  }
}

/**
 * Adds a question at the end of the part holding that kind of question (a new part when there
 * is none), or at the end of the exit ticket. Returns where it went.
 */
export function addQuestion(
  document: MaterialDocument,
  question: Question,
  to: 'sections' | 'exit',
): QuestionPlace {
  if (to === 'exit' && document.lesson) {
    document.lesson.exitTicket.push(question);
    return { list: 'exit', index: document.lesson.exitTicket.length - 1 };
  }
  let section = -1;
  document.sections.forEach((s, i) => {
    if (s.questions.length > 0 && s.questions.every((q) => q.kind === question.kind)) section = i;
  });
  if (section === -1) {
    document.sections.push({
      title: QUESTION_KIND_LABELS[question.kind],
      instructions: '',
      questions: [],
    });
    section = document.sections.length - 1;
  }
  const questions = document.sections[section]!.questions;
  questions.push(question);
  return { list: 'section', section, index: questions.length - 1 };
}

/** Moves a question one place up (-1) or down (+1) within its part; false at either end. */
export function moveQuestion(
  document: MaterialDocument,
  place: QuestionPlace,
  delta: -1 | 1,
): boolean {
  const list = listOf(document, place);
  const to = place.index + delta;
  if (to < 0 || to >= list.length) return false;
  [list[place.index], list[to]] = [list[to]!, list[place.index]!];
  return true;
}

export function removeQuestion(document: MaterialDocument, place: QuestionPlace): Question | null {
  const list = listOf(document, place);
  return list.splice(place.index, 1)[0] ?? null;
}

/** Puts a removed question back where it was (undo). */
export function restoreQuestion(
  document: MaterialDocument,
  place: QuestionPlace,
  question: Question,
): void {
  const list = listOf(document, place);
  list.splice(Math.min(place.index, list.length), 0, question);
}

/** Removes item `index` of a list of choices, keeping the correct choice pointing at the same text. */
export function removeChoice(question: Question, index: number): void {
  if (question.kind !== 'multiple_choice') return;
  question.choices.splice(index, 1);
  if (question.answerIndex === index) question.answerIndex = -1;
  else if (question.answerIndex > index) question.answerIndex -= 1;
}

/**
 * What is sent on Save: steps typed one per line lose their empty lines, and empty optional
 * explanations are left out.
 */
export function prepareForSave(draft: EditorDraft): EditorDraft {
  const document = structuredClone(draft.document);
  const tidy = (question: Question) => {
    if (question.explanation !== undefined && !question.explanation.trim())
      delete question.explanation;
    if (question.kind === 'true_false' && question.correction !== undefined) {
      if (question.answer || !question.correction.trim()) delete question.correction;
    }
  };
  document.sections.forEach((s) => s.questions.forEach(tidy));
  if (document.lesson) {
    document.lesson.exitTicket.forEach(tidy);
    for (const activity of document.lesson.activities) {
      activity.steps = activity.steps.map((step) => step.trim()).filter(Boolean);
      if (activity.grouping !== undefined && !activity.grouping.trim()) delete activity.grouping;
    }
  }
  for (const item of document.vocabulary) {
    if (item.partOfSpeech !== undefined && !item.partOfSpeech.trim()) delete item.partOfSpeech;
  }
  return { name: draft.name, document };
}

/** A fresh question id no question of the document has yet. */
export function newQuestionId(document: MaterialDocument, counter: { current: number }): string {
  const taken = new Set(numberQuestions(document).map((q) => q.question.id));
  let id: string;
  do id = `new-${counter.current++}`;
  while (taken.has(id));
  return id;
}
