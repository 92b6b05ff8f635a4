import {
  QUESTION_KINDS,
  type LessonPlan,
  type MaterialDocument,
  type MaterialSection,
  type Question,
  type QuestionKind,
  type VocabularyItem,
} from '@chapterwise/shared';

/**
 * The quality gate every generator's output passes before a teacher sees it:
 * - each evidence quote is found in the reference text, word for word once whitespace,
 *   quotation marks, dashes, letter case and the _italic_ marks of e-texts are evened out;
 * - the key is supported: the answer of a multiple-choice or fill-in question appears in its
 *   evidence, and no distractor is in the evidence unless the answer is too;
 * - choices are distinct, there is exactly one correct choice, no question repeats another;
 * - counts are what the plan asked for (spares fill the gaps, extras are cut).
 */

/** Evens out what copying a text changes without changing its words. */
export function normaliseForMatch(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/\u00AD|\u200B|\u200C|\u200D|\uFEFF/g, '')
    .replace(/_([^_]*)_/g, '$1')
    .replace(/_/g, '')
    .replace(/[\u2018\u2019\u201A\u201B\u2032\u00B4`]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB]/g, '"')
    .replace(/\u2026/g, '...')
    .replace(/\.(?:\s*\.){2,}/g, '...')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\s*-+\s*/g, '-')
    .replace(/\s+/g, ' ')
    .replace(/\s+([,.;:!?])/g, '$1')
    .trim()
    .toLowerCase();
}

let lastIndex: { text: string; normalised: string } | undefined;

/** A reference text prepared once for many evidence look-ups. */
export class ReferenceIndex {
  readonly normalised: string;
  readonly empty: boolean;
  constructor(referenceText: string) {
    // The generator and the gate read the same text one after the other: normalise it once.
    if (lastIndex?.text !== referenceText) {
      lastIndex = { text: referenceText, normalised: normaliseForMatch(referenceText) };
    }
    this.normalised = lastIndex.normalised;
    this.empty = this.normalised.length === 0;
  }

  /** True when the text contains this string (normalised), e.g. a statement made false on purpose. */
  contains(text: string): boolean {
    const needle = stripEdges(normaliseForMatch(text));
    return needle.length > 0 && this.normalised.includes(needle);
  }

  /**
   * True when the quote is in the text. A quote shortened with an ellipsis counts when each
   * part (of at least three words) is found, in order, close together.
   */
  hasEvidence(quote: string): boolean {
    const needle = stripEdges(normaliseForMatch(quote));
    if (wordCount(needle) < 3) return false;
    if (this.normalised.includes(needle)) return true;
    if (!needle.includes('...')) return false;
    const parts = needle
      .split('...')
      .map((p) => stripEdges(p))
      .filter(Boolean);
    if (parts.length < 2 || parts.some((p) => wordCount(p) < 3)) return false;
    let from = this.normalised.indexOf(parts[0]!);
    while (from !== -1) {
      let at = from + parts[0]!.length;
      let ok = true;
      for (const part of parts.slice(1)) {
        const next = this.normalised.indexOf(part, at);
        if (next === -1 || next - at > 1500) {
          ok = false;
          break;
        }
        at = next + part.length;
      }
      if (ok) return true;
      from = this.normalised.indexOf(parts[0]!, from + 1);
    }
    return false;
  }
}

/** Drops quotation marks and sentence punctuation around a quote so a trimmed quote still matches. */
function stripEdges(text: string): string {
  return text.replace(/^[\s"'([{-]+|[\s"')\]}.,;:!?-]+$/g, '');
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

const STOPWORDS = new Set(
  'a an the and or but of to in on at for with from by as is are was were be been being it its this that these those he she they them his her their him i me my we us our you your not no so do does did has have had will would can could shall should may might must than then there here what which who whom how why when where all any some'.split(
    ' ',
  ),
);

/** Content words of a phrase, crudely stemmed, for comparing answers with evidence. */
export function contentWords(text: string): string[] {
  return normaliseForMatch(text)
    .replace(/[^a-z0-9' -]/g, ' ')
    .split(/[\s-]+/)
    .map((w) => w.replace(/'s$|'/g, ''))
    .filter((w) => w && !STOPWORDS.has(w))
    .map(stem);
}

function stem(word: string): string {
  if (word.length <= 3) return word;
  return word.replace(/(?:ies|ied)$/, 'y').replace(/(?:es|s|ed|ing|ly)$/, '');
}

/** Share of the phrase's content words that occur in the text (1 for a phrase with none). */
export function support(phrase: string, text: string): number {
  const words = contentWords(phrase);
  if (words.length === 0) return 1;
  const have = new Set(contentWords(text));
  // First-person narration: "the narrator" (how statements and answers name the teller) is "I".
  if (/\b(?:I|me|my|myself)\b/.test(text)) for (const w of contentWords('narrator')) have.add(w);
  return words.filter((w) => have.has(w)).length / words.length;
}

/** Whole-word, case-insensitive containment after normalisation. */
export function containsPhrase(text: string, phrase: string): boolean {
  const t = ` ${normaliseForMatch(text).replace(/[^a-z0-9'-]+/g, ' ')} `;
  const p = normaliseForMatch(phrase)
    .replace(/[^a-z0-9'-]+/g, ' ')
    .trim();
  return p.length > 0 && t.includes(` ${p} `);
}

/** True when the context uses the term, in any inflection ("narrate" in "narrated", "shilling" in "shillings"). */
export function termInContext(term: string, context: string): boolean {
  if (containsPhrase(context, term)) return true;
  const t = normaliseForMatch(term);
  if (t.includes(' ')) return support(term, context) === 1;
  const need = Math.max(4, t.length - 3);
  return normaliseForMatch(context)
    .split(/[^a-z0-9'-]+/)
    .some((w) => {
      let common = 0;
      while (common < w.length && common < t.length && w[common] === t[common]) common++;
      return common >= need && common >= Math.min(w.length, t.length) - 3;
    });
}

function similarity(a: string, b: string): number {
  const x = new Set(contentWords(a));
  const y = new Set(contentWords(b));
  if (x.size === 0 || y.size === 0) return normaliseForMatch(a) === normaliseForMatch(b) ? 1 : 0;
  let shared = 0;
  for (const w of x) if (y.has(w)) shared += 1;
  return shared / (x.size + y.size - shared);
}

export interface GateProblem {
  prompt: string;
  reason: string;
}

/** Why a question fails the gate, or null when it passes. */
export function checkQuestion(question: Question, reference: ReferenceIndex): string | null {
  const verify = !reference.empty;
  switch (question.kind) {
    case 'multiple_choice': {
      const { choices, answerIndex } = question;
      if (answerIndex < 0 || answerIndex >= choices.length)
        return 'the answer is not one of the choices';
      const keys = choices.map((c) =>
        normaliseForMatch(c)
          .replace(/[^a-z0-9]+/g, ' ')
          .trim(),
      );
      if (keys.some((k) => !k)) return 'a choice is empty';
      if (new Set(keys).size !== keys.length) return 'two choices are the same';
      if (!verify) return null;
      if (!reference.hasEvidence(question.evidence)) return 'the evidence is not in the text';
      const answer = choices[answerIndex]!;
      // A word's meaning in its sentence: the word must stand in the evidence; the meaning
      // comes from the passage's definition or the dictionary, not from the sentence's words.
      if (question.form === 'vocab_context') {
        const term = /“([^”]+)” mean\?$/.exec(question.prompt)?.[1];
        return term && termInContext(term, question.evidence)
          ? null
          : 'the word is not in the evidence';
      }
      const answerSupport = support(answer, `${question.evidence} ${question.prompt}`);
      if (answerSupport < 0.5) return 'the evidence does not support the answer';
      // Exactly one correct choice: no distractor may be backed by the evidence better than the answer.
      const inEvidence = containsPhrase(question.evidence, answer);
      for (const [i, choice] of choices.entries()) {
        if (i === answerIndex) continue;
        if (
          containsPhrase(question.evidence, choice) &&
          !inEvidence &&
          !containsPhrase(question.prompt, choice)
        ) {
          return 'a wrong choice is also in the evidence';
        }
        if (containsPhrase(choice, answer) || containsPhrase(answer, choice)) {
          return 'a wrong choice contains the answer';
        }
      }
      return null;
    }
    case 'true_false': {
      if (!verify) return null;
      if (!reference.hasEvidence(question.evidence)) return 'the evidence is not in the text';
      if (question.answer) {
        if (support(question.prompt, question.evidence) < 0.6)
          return 'the evidence does not support the statement';
      } else if (reference.contains(question.prompt)) {
        return 'the "false" statement is in the text';
      }
      return null;
    }
    case 'fill_blank': {
      if (!/_{3,}/.test(question.prompt)) return 'the prompt has no blank';
      if (!verify) return null;
      if (!reference.hasEvidence(question.evidence)) return 'the evidence is not in the text';
      if (!containsPhrase(question.evidence, question.answer))
        return 'the answer is not in the evidence';
      return null;
    }
    case 'short_answer':
    case 'discussion': {
      if (!verify) return null;
      if (!reference.hasEvidence(question.evidence)) return 'the evidence is not in the text';
      if (question.kind === 'short_answer' && support(question.answer, question.evidence) < 0.34) {
        return 'the evidence does not support the model answer';
      }
      return null;
    }
    case 'matching': {
      const lefts = question.pairs.map((p) => normaliseForMatch(p.left));
      const rights = question.pairs.map((p) => normaliseForMatch(p.right));
      if (new Set(lefts).size !== lefts.length || new Set(rights).size !== rights.length) {
        return 'two items to match are the same';
      }
      if (!verify) return null;
      for (const pair of question.pairs) {
        if (!reference.hasEvidence(pair.evidence))
          return 'the evidence of a pair is not in the text';
        if (!termInContext(pair.left, pair.evidence)) {
          return 'a matched term is not in its evidence';
        }
      }
      return null;
    }
  }
}

/** The words that identify a question, for spotting repeats. */
function questionKey(question: Question): string {
  if (question.kind === 'matching') return question.pairs.map((p) => p.left).join(' ');
  return question.prompt;
}

export interface GateResult {
  document: MaterialDocument;
  dropped: GateProblem[];
  /** Questions still missing per kind after the spares were used. */
  shortfall: Partial<Record<QuestionKind, number>>;
}

export interface GateOptions {
  reference: ReferenceIndex;
  counts: Partial<Record<QuestionKind, number>>;
  reserve?: Partial<Record<QuestionKind, Question[]>>;
  /** Section titles and instructions per kind. */
  sectionFor: (kind: QuestionKind) => { title: string; instructions: string };
  /** How many exit-ticket questions a lesson keeps, and spares for them. */
  exitTicketSize?: number;
  exitTicketReserve?: Question[];
  /** How many vocabulary items to keep (the draft may offer spares). */
  vocabularyCount?: number;
}

/**
 * Runs the gate over a draft: regroups its questions into one section per kind, in the plan's
 * order, keeping those that pass and are not repeats, fills gaps from the spares, cuts extras,
 * checks vocabulary and lesson passages, and numbers the questions q1, q2, …
 */
export function applyQualityGate(draft: MaterialDocument, options: GateOptions): GateResult {
  const { reference } = options;
  const dropped: GateProblem[] = [];
  const accepted: Question[] = [];

  const accept = (question: Question): boolean => {
    const problem = checkQuestion(question, reference);
    if (problem) {
      dropped.push({ prompt: questionKey(question), reason: problem });
      return false;
    }
    const key = questionKey(question);
    // A repeat asks the same thing: the same words, or the same answer from the same passage,
    // or nearly the same words with the same answer (templated prompts about different people are not repeats).
    const repeat = accepted.find(
      (q) =>
        normaliseForMatch(questionKey(q)) === normaliseForMatch(key) ||
        (q.kind === question.kind &&
          q.kind !== 'matching' &&
          question.kind !== 'matching' &&
          answerKey(q) === answerKey(question) &&
          (normaliseForMatch(q.evidence) === normaliseForMatch(question.evidence) ||
            similarity(q.prompt, question.prompt) >= 0.85)),
    );
    if (repeat) {
      dropped.push({ prompt: key, reason: 'it repeats another question' });
      return false;
    }
    accepted.push(question);
    return true;
  };

  const byKind = new Map<QuestionKind, Question[]>();
  for (const question of draft.sections.flatMap((s) => s.questions)) {
    const list = byKind.get(question.kind) ?? [];
    list.push(question);
    byKind.set(question.kind, list);
  }

  const sections: MaterialSection[] = [];
  const shortfall: Partial<Record<QuestionKind, number>> = {};
  const kinds = QUESTION_KINDS.filter((k) => (options.counts[k] ?? 0) > 0);
  for (const kind of kinds) {
    const wanted = options.counts[kind] ?? 0;
    const kept: Question[] = [];
    for (const question of [...(byKind.get(kind) ?? []), ...(options.reserve?.[kind] ?? [])]) {
      if (kept.length >= wanted) break;
      if (accept(question)) kept.push(question);
    }
    if (kept.length < wanted) shortfall[kind] = wanted - kept.length;
    if (kept.length) sections.push({ ...options.sectionFor(kind), questions: kept });
  }

  let lesson: LessonPlan | undefined;
  if (draft.lesson) {
    const size = options.exitTicketSize ?? 3;
    const exit: Question[] = [];
    for (const question of [...draft.lesson.exitTicket, ...(options.exitTicketReserve ?? [])]) {
      if (exit.length >= size) break;
      if (accept(question)) exit.push(question);
    }
    const keyPassages = draft.lesson.keyPassages.filter(
      (p) => reference.empty || reference.hasEvidence(p),
    );
    lesson = { ...draft.lesson, keyPassages, exitTicket: exit };
  }

  const vocabulary: VocabularyItem[] = [];
  for (const item of draft.vocabulary) {
    if (options.vocabularyCount !== undefined && vocabulary.length >= options.vocabularyCount)
      break;
    const seen = vocabulary.some((v) => normaliseForMatch(v.term) === normaliseForMatch(item.term));
    const inContext = termInContext(item.term, item.context);
    const found = reference.empty || reference.hasEvidence(item.context);
    if (!seen && inContext && found) vocabulary.push(item);
    else
      dropped.push({
        prompt: item.term,
        reason: seen ? 'a repeated word' : 'its example is not in the text',
      });
  }

  let n = 0;
  const renumber = (q: Question): Question => ({ ...q, id: `q${++n}` });
  const numberedSections = sections.map((s) => ({ ...s, questions: s.questions.map(renumber) }));
  if (lesson) lesson = { ...lesson, exitTicket: lesson.exitTicket.map(renumber) };

  const document: MaterialDocument = {
    ...draft,
    sections: numberedSections,
    vocabulary,
    ...(lesson ? { lesson } : {}),
    generator: {
      ...draft.generator,
      droppedQuestions: (draft.generator.droppedQuestions ?? 0) + dropped.length,
      unverified: reference.empty,
    },
  };
  return { document, dropped, shortfall };
}

function answerKey(question: Question): string {
  switch (question.kind) {
    case 'multiple_choice':
      return normaliseForMatch(question.choices[question.answerIndex] ?? '');
    case 'true_false':
      return String(question.answer);
    case 'matching':
      return '';
    default:
      return normaliseForMatch(question.answer);
  }
}
