import type { GenerationPlan } from '../plan.js';
import type { ReferenceIndex } from '../quality.js';
import type { Analysis, Sentence, Token } from './analyse.js';
import { gradeFit, sentenceWindow } from './readability.js';

/** Everything a question writer needs, shared across writers so they do not repeat each other. */
export interface WriterContext {
  analysis: Analysis;
  plan: GenerationPlan;
  reference: ReferenceIndex;
  random: () => number;
  /** Sentences already used by a question (each sentence backs one question at most). */
  usedSentences: Set<number>;
  /** Answers already used (normalised), so two questions do not share a key. */
  usedAnswers: Set<string>;
  /**
   * Spare questions each writer may add beyond its count (for the gate to fall back on); none
   * on a short passage, where every sentence is needed for a question of its own.
   */
  spares?: number;
  /** What the validity gates turned down (reported in the document's generator info). */
  stats?: { distractorRejections: number };
  /** The material's name, shown as its heading: a blank it names is given away. */
  title?: string;
  /**
   * Sentences shown only as the wrong options of a sequence item. A true
   * statement may still use them (it gives nothing away); nothing else may.
   */
  sequenceOptions?: Set<number>;
}

/** A small seeded generator (mulberry32): the same request gives the same material. */
export function seededRandom(seed: string): () => number {
  let h = 1779033703 ^ seed.length;
  for (let i = 0; i < seed.length; i++) {
    h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffle<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const PRONOUN_START =
  /^(?:he|she|it|they|this|that|these|those|his|her|its|their|him|them|there|here|such)\b/i;
const CONJUNCTION_START = /^(?:and|but|or|so|yet|for|nor|then|also)\b/i;
const BAD = /[[\]{}<>|*#@=\\^~]|\b(?:chapter|illustration|gutenberg|ebook|copyright)\b/i;

export interface SentenceOptions {
  /** Drop sentences with quotation marks (dialogue reads badly as a statement of fact). */
  noQuotes?: boolean;
  /** Extra weight for sentences a writer prefers. */
  prefer?: (s: Sentence) => number;
  minWords?: number;
  maxWords?: number;
}

/** How good a sentence is to build a question on, 0 when unusable. */
export function sentenceScore(
  s: Sentence,
  ctx: WriterContext,
  options: SentenceOptions = {},
): number {
  const window = sentenceWindow(ctx.plan.level);
  const min = options.minWords ?? window.min;
  const max = options.maxWords ?? window.max;
  if (s.words < min || s.words > max) return 0;
  if (BAD.test(s.text)) return 0;
  if (!/^[\p{Lu}“"‘'(\d]/u.test(s.text)) return 0;
  if (!/[.!?]["”’']?$/.test(s.text)) return 0;
  if (!s.tokens.some((t) => t.pos === 'VERB' || t.pos === 'AUX')) return 0;
  const letters = s.text.replace(/[^A-Za-z]/g, '');
  if (letters.length < 12 || letters === letters.toUpperCase()) return 0;
  // Unbalanced quotation marks mean the sentence is part of a longer quotation.
  const open = (s.text.match(/“/g) ?? []).length;
  const close = (s.text.match(/”/g) ?? []).length;
  if (open !== close || (s.text.match(/"/g) ?? []).length % 2 === 1) return 0;
  if (options.noQuotes && s.hasQuotes) return 0;
  let score = 0.25 + s.importance;
  score *= gradeFit(s.grade, ctx.plan.level);
  if (PRONOUN_START.test(s.text)) score *= 0.55;
  if (CONJUNCTION_START.test(s.text)) score *= 0.7;
  if (s.hasQuotes) score *= 0.6;
  if (ctx.plan.focusTerms.length) {
    const lemmas = new Set(s.tokens.map((t) => t.lemma.toLowerCase()));
    const normals = new Set(s.tokens.map((t) => t.normal));
    if (ctx.plan.focusTerms.some((f) => lemmas.has(f) || normals.has(f) || normals.has(`${f}s`)))
      score *= 2;
  }
  if (options.prefer) score *= options.prefer(s);
  return score;
}

/**
 * Sentences for `count` questions, best first but spread over the whole text so a quiz covers
 * the beginning, middle and end of a chapter. Returns more than `count` when available (spares).
 */
export function pickSentences(
  ctx: WriterContext,
  count: number,
  options: SentenceOptions = {},
  filter?: (s: Sentence) => boolean,
): Sentence[] {
  if (count <= 0) return [];
  const candidates = ctx.analysis.sentences.filter(
    (s) => !ctx.usedSentences.has(s.index) && (!filter || filter(s)),
  );
  const window = sentenceWindow(ctx.plan.level);
  const baseMin = options.minWords ?? window.min;
  const baseMax = options.maxWords ?? window.max;
  let scored: Array<{ s: Sentence; score: number }> = [];
  // Texts of long sentences (Melville, Hawthorne) leave few at a young grade's length: widen the
  // window step by step, preferring the sentences that fit best.
  for (const [stretch, weight] of [
    [1, 1],
    [1.6, 0.5],
    [2.6, 0.25],
  ] as const) {
    const seen = new Set(scored.map((x) => x.s.index));
    const minWords = Math.max(4, Math.floor(baseMin / stretch));
    const maxWords = Math.ceil(baseMax * stretch);
    for (const s of candidates) {
      if (seen.has(s.index)) continue;
      const score = sentenceScore(s, ctx, { ...options, minWords, maxWords }) * weight;
      if (score > 0) scored.push({ s, score });
    }
    if (scored.length >= count * 2) break;
  }
  scored = scored.sort((a, b) => b.score - a.score);
  if (scored.length === 0) return [];
  const wanted = Math.min(scored.length, count * 3);
  const picked: Sentence[] = [];
  // Buckets over the text: take the best of each in turn.
  const buckets = Math.max(1, Math.min(count, 12));
  const byBucket: Sentence[][] = Array.from({ length: buckets }, () => []);
  for (const { s } of scored)
    byBucket[Math.min(buckets - 1, Math.floor(s.position * buckets))]!.push(s);
  let round = 0;
  while (picked.length < wanted && round < scored.length) {
    let any = false;
    for (const bucket of byBucket) {
      const next = bucket[round];
      if (next) {
        picked.push(next);
        any = true;
        if (picked.length >= wanted) break;
      }
    }
    if (!any) break;
    round += 1;
  }
  return picked;
}

/** Replaces a token range of a sentence, keeping the rest verbatim. */
export function replaceSpan(
  sentence: Sentence,
  start: number,
  end: number,
  replacement: string,
): string {
  return sentence.text.slice(0, start) + replacement + sentence.text.slice(end);
}

export const BLANK = '_____';

/** Upper-cases the first letter. */
export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Lower-cases the first letter unless the word is a name or "I". */
export function decapitalise(text: string, keep: boolean): string {
  if (keep || /^I\b/.test(text)) return text;
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** Strips the closing punctuation of a sentence. */
export function withoutFinalPunctuation(text: string): string {
  return text.replace(/[\s.!?;:,]+["”’']?$/, '').replace(/["”’']$/, '');
}

/** True when the token sits inside the sentence's quotation marks. */
export function insideQuotes(sentence: Sentence, token: Token): boolean {
  const before = sentence.text.slice(0, token.start);
  return (before.match(/“/g) ?? []).length > (before.match(/”/g) ?? []).length;
}

/**
 * A statement that can stand alone: third person as it is; first-person narration turned into
 * "the narrator" where the verbs allow it (past tense, or am/have/do that can agree); null
 * when it cannot be done cleanly.
 */
export function standAloneStatement(sentence: Sentence, story = false): string | null {
  const t = sentence.tokens;
  // In a story, "our" alone (no "we"/"us" in the sentence) reads as "the narrator's": "Our
  // master was a kind man" → "The narrator's master was a kind man". With "we" or "us" the group
  // is the subject or object too; outside a story "our" is everyone ("our planet").
  if (
    t.some(
      (x) =>
        /^(?:we|us|ours|ourselves|you|your|yours|yourself|mine|myself|thee|thou|thy|ye)$/i.test(
          x.value,
        ) ||
        (!story && /^our$/i.test(x.value)),
    )
  ) {
    return null;
  }
  if (sentence.hasQuotes) return null;
  const replacements: Array<{ start: number; end: number; text: string }> = [];
  for (let i = 0; i < t.length; i++) {
    const token = t[i]!;
    const v = token.value;
    if (/^I$/.test(v)) {
      const next = t[i + 1];
      replacements.push({ start: token.start, end: token.end, text: 'the narrator' });
      if (!next) continue;
      const nv = next.value.toLowerCase();
      // "I'd" read as "I" and "'d": had or would, not to be guessed ("the narrator'd").
      if (/^['’]/.test(nv)) return null;
      if (nv === 'am') replacements.push({ start: next.start, end: next.end, text: 'is' });
      else if (nv === 'have') replacements.push({ start: next.start, end: next.end, text: 'has' });
      else if (nv === 'do') replacements.push({ start: next.start, end: next.end, text: 'does' });
      else if (next.pos === 'VERB' && next.value.toLowerCase() === next.lemma.toLowerCase())
        return null;
    } else if (/^I['’](?:m|ve|ll|d)$/i.test(v)) {
      const tail = v.slice(2).toLowerCase();
      const verb = tail === 'm' ? 'is' : tail === 've' ? 'has' : tail === 'll' ? 'will' : 'had';
      replacements.push({ start: token.start, end: token.end, text: `the narrator ${verb}` });
    } else if (/^(?:my|our)$/i.test(v)) {
      replacements.push({ start: token.start, end: token.end, text: "the narrator's" });
    } else if (/^me$/i.test(v)) {
      replacements.push({ start: token.start, end: token.end, text: 'the narrator' });
    }
  }
  if (replacements.filter((r) => r.text.startsWith('the narrator')).length > 2) return null;
  let text = sentence.text;
  for (const r of replacements.sort((a, b) => b.start - a.start)) {
    text = text.slice(0, r.start) + r.text + text.slice(r.end);
  }
  return capitalise(text);
}
