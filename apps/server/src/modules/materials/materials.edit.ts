import {
  checkMaterialEdit,
  evidenceOf,
  lessonMinutes,
  MaterialDocumentSchema,
  type MatchingQuestion,
  type MaterialDocument,
  type Question,
  type VocabularyItem,
} from '@chapterwise/shared';
import { badRequest } from '../../lib/errors.js';
import { ReferenceIndex } from '../../providers/llm/index.js';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Turns a teacher's edited document into the one to store, or throws the 400 naming the
 * question. What the client may not change is taken from the stored document (decision 012):
 * `version`, `type`, `grade`, `subject` and `generator` (how it was made), whether there is a
 * lesson plan, the lesson's key passages (quotes the gate checked) and its length (the sum of
 * its activities' minutes). Then the shared editing rules run, empty parts are dropped,
 * questions are numbered q1, q2, … again, a matching question whose pairs changed gets a new
 * shown order, and every evidence quote is looked up in the reference text with the quality
 * gate's own matching: a quote that is not there is kept, marked `evidenceFound: false`.
 */
export function applyTeacherEdit(
  storedDocument: MaterialDocument,
  edited: Record<string, unknown>,
  referenceText: string,
): MaterialDocument {
  const stored = MaterialDocumentSchema.parse(storedDocument);
  const candidate: Record<string, unknown> = {
    ...edited,
    version: stored.version,
    type: stored.type,
    grade: stored.grade,
    subject: stored.subject,
    generator: stored.generator,
  };
  const editedLesson = edited.lesson ?? undefined;
  if (stored.lesson) {
    if (editedLesson === undefined)
      throw badRequest('The lesson plan cannot be removed; edit or delete its parts instead.');
    if (isRecord(editedLesson)) {
      candidate.lesson = {
        ...editedLesson,
        keyPassages: stored.lesson.keyPassages,
        durationMinutes: stored.lesson.durationMinutes,
      };
    }
  } else {
    if (editedLesson !== undefined)
      throw badRequest('This material has no lesson plan, and one cannot be added by editing.');
    delete candidate.lesson;
  }

  const check = checkMaterialEdit(candidate);
  if (!check.ok) throw badRequest(check.issue.message);
  const document = check.document;

  const reference = new ReferenceIndex(referenceText);
  const found = (quotes: string[]) => quotes.every((quote) => reference.hasEvidence(quote));
  let n = 0;
  const finish = (question: Question): Question => {
    const numbered = { ...question, id: `q${++n}` };
    const shuffled = numbered.kind === 'matching' ? withShownOrder(numbered) : numbered;
    return markEvidence(shuffled, reference.empty || found(evidenceOf(shuffled)));
  };
  const sections = document.sections
    .filter((section) => section.questions.length > 0)
    .map((section) => ({ ...section, questions: section.questions.map(finish) }));
  const lesson = document.lesson
    ? {
        ...document.lesson,
        durationMinutes: lessonMinutes(document.lesson),
        exitTicket: document.lesson.exitTicket.map(finish),
      }
    : undefined;
  const vocabulary = document.vocabulary.map((item: VocabularyItem) =>
    markEvidence(item, reference.empty || found([item.context])),
  );
  const { lesson: _dropped, ...rest } = document;
  return { ...rest, sections, vocabulary, ...(lesson ? { lesson } : {}) };
}

/** Keeps `evidenceFound: false` only where the quote was not found; the client's value is ignored. */
function markEvidence<T extends { evidenceFound?: boolean | undefined }>(
  item: T,
  found: boolean,
): T {
  const { evidenceFound: _ignored, ...rest } = item;
  return (found ? rest : { ...rest, evidenceFound: false }) as T;
}

/**
 * A matching question keeps the shown order of its right-hand column while it is still a
 * permutation of its pairs; once pairs were added or removed it gets a new one: a cycle (no
 * item stays beside its own term), shuffled from the pairs' words so the same pairs always
 * show in the same order.
 */
function withShownOrder(question: MatchingQuestion): MatchingQuestion {
  const size = question.pairs.length;
  const order = question.order;
  const valid =
    order.length === size && new Set(order).size === size && order.every((i) => i >= 0 && i < size);
  if (valid) return question;
  let seed = 2166136261;
  for (const pair of question.pairs) {
    for (const char of `${pair.left}\u0000${pair.right}`) {
      seed = Math.imul(seed ^ char.charCodeAt(0), 16777619) >>> 0;
    }
  }
  const random = () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
  // Sattolo's algorithm: a uniformly random single cycle, so order[i] !== i for every i.
  const next = question.pairs.map((_, i) => i);
  for (let i = size - 1; i > 0; i--) {
    const j = Math.floor(random() * i);
    [next[i], next[j]] = [next[j]!, next[i]!];
  }
  return { ...question, order: next };
}
