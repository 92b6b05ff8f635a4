import { containsPhrase, normaliseForMatch } from '../quality.js';
import { describeWord, type NameKind, type Sentence, type WordInfo } from './analyse.js';
import { insideQuotes, shuffle, type WriterContext } from './common.js';
import { articleFits, badBlank, usedInSameRole, wordNetNear } from './gates.js';
import { wordNetPos } from './analyse.js';

/**
 * A word or name of a sentence that a question can ask for, with distractors of the same kind
 * drawn from the same text: other people for a person, other places for a place, other
 * numbers for a number, nouns of the same WordNet category ("noun.animal", "noun.artifact")
 * and inflection for a noun, verbs of the same category and tense for a verb.
 */
export interface Target {
  answer: string;
  start: number;
  end: number;
  kind: 'person' | 'place' | 'name' | 'number' | 'noun' | 'verb' | 'adjective';
  distractors: string[];
}

const NUMBER_WORDS = [
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'twenty',
  'thirty',
  'forty',
  'fifty',
  'hundred',
  'thousand',
];

function shareToken(a: string, b: string): boolean {
  const x = new Set(a.toLowerCase().split(/[\s-]+/));
  return b
    .toLowerCase()
    .split(/[\s-]+/)
    .some((w) => x.has(w) && w.length > 2);
}

/**
 * Distractors that keep exactly one choice correct: not in the sentence, not sharing a word
 * with the answer, and the sentence made with them is not in the text. Checks stop once
 * `limit` distractors pass (the pool is ordered best first).
 */
function keepValid(
  sentence: Sentence,
  target: { start: number; end: number; answer: string },
  pool: string[],
  ctx: WriterContext,
  limit = 8,
  gate?: (candidate: string) => string | null,
): string[] {
  const out: string[] = [];
  const seen = new Set([normaliseForMatch(target.answer)]);
  // The words around the blank: if "left + candidate + right" is not in the text, neither is the whole variant.
  const left = sentence.text.slice(0, target.start).split(/\s+/).slice(-4).join(' ');
  const right = sentence.text.slice(target.end).split(/\s+/).slice(0, 4).join(' ');
  const lowerSentence = sentence.text.toLowerCase();
  // Content words right next to the blank ("the Pacific _____", "_____ by hand").
  const leftWord = contentWord(sentence.text.slice(0, target.start).split(/\s+/).at(-1));
  const rightWord = contentWord(sentence.text.slice(target.end).split(/\s+/)[0]);
  for (const candidate of pool) {
    if (out.length >= limit) break;
    const key = candidate.toLowerCase();
    if (seen.has(key)) continue;
    if (lowerSentence.includes(key) && containsPhrase(sentence.text, candidate)) continue;
    if (shareToken(candidate, target.answer)) continue;
    if (ctx.reference.contains(`${left}${candidate}${right}`)) continue;
    // The substituted word next to the blank's neighbour is a pair the passage itself uses.
    if (
      (leftWord && ctx.reference.contains(`${leftWord} ${candidate}`)) ||
      (rightWord && ctx.reference.contains(`${candidate} ${rightWord}`))
    ) {
      reject(ctx);
      continue;
    }
    if (!articleFits(sentence, target.start, candidate) || (gate && gate(candidate))) {
      reject(ctx);
      continue;
    }
    seen.add(key);
    out.push(candidate);
  }
  return out;
}

function contentWord(word: string | undefined): string | null {
  const w = (word ?? '').replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
  return w.length >= 3 && !FUNCTION_WORDS.has(w.toLowerCase()) ? w : null;
}
const FUNCTION_WORDS = new Set(
  'the and but for with from into onto that this these those their there then than what which who whom whose was were are has have had been being its his her our your they them she him not nor all any some such very more most'.split(
    ' ',
  ),
);

function reject(ctx: WriterContext): void {
  if (ctx.stats) ctx.stats.distractorRejections += 1;
}

/** How often each name of the text follows "the". */
function theUses(ctx: WriterContext): Map<string, { the: number; total: number }> {
  const cached = theCache.get(ctx.analysis);
  if (cached) return cached;
  const out = new Map<string, { the: number; total: number }>();
  for (const [index, spans] of ctx.analysis.nameSpans) {
    const text = ctx.analysis.sentences[index]!.text;
    for (const span of spans) {
      const u = out.get(span.name) ?? { the: 0, total: 0 };
      u.total += 1;
      if (/\bthe$/i.test(text.slice(0, span.start).trimEnd())) u.the += 1;
      out.set(span.name, u);
    }
  }
  theCache.set(ctx.analysis, out);
  return out;
}
const theCache = new WeakMap<object, Map<string, { the: number; total: number }>>();

function nameTargets(sentence: Sentence, ctx: WriterContext): Target[] {
  const out: Target[] = [];
  const spans = ctx.analysis.nameSpans.get(sentence.index) ?? [];
  for (const span of spans) {
    // A name said twice in the sentence would leave the blank ambiguous.
    if (spans.filter((x) => x.name === span.name).length !== 1) continue;
    // A part of a longer name ("the Pacific _____"): the rest of the name gives it away.
    const before = sentence.text.slice(0, span.start).trimEnd().split(/\s+/).at(-1) ?? '';
    const after = sentence.text.slice(span.end).trimStart().split(/\s+/)[0] ?? '';
    if ((span.start > 0 && /^\p{Lu}/u.test(before)) || /^\p{Lu}\p{Ll}/u.test(after)) continue;
    const info = ctx.analysis.names.get(span.name);
    if (!info) continue;
    const sameKind = ctx.analysis.namesByKind.get(info.kind) ?? [];
    const aliases = ctx.analysis.aliases.get(info.name);
    const pool = sameKind.filter((n) => n !== info.name && !aliases?.has(n));
    const kind: Target['kind'] =
      info.kind === 'person' ? 'person' : info.kind === 'place' ? 'place' : 'name';
    const target = {
      answer: info.name,
      start: span.start,
      end: span.end,
      kind,
      distractors: [] as string[],
    };
    // "the Berkshires" takes "the", "Maiwand" does not: options must fit the words before the blank.
    const withThe = /\bthe$/i.test(sentence.text.slice(0, span.start).trimEnd());
    const uses = theUses(ctx);
    target.distractors = keepValid(sentence, target, pool, ctx, 8, (candidate) => {
      const u = uses.get(candidate);
      if (!u) return null;
      return u.the * 2 > u.total !== withThe ? 'article' : null;
    });
    out.push(target);
  }
  return out;
}

function numberTargets(sentence: Sentence, ctx: WriterContext): Target[] {
  const out: Target[] = [];
  for (const token of sentence.tokens) {
    if (token.pos !== 'NUM') continue;
    const value = token.value;
    const lower = value.toLowerCase();
    const digits = /^\d{1,4}$/.test(value);
    if (!digits && !NUMBER_WORDS.includes(lower)) continue;
    if (sentence.tokens.filter((t) => t.value === value).length !== 1) continue;
    // "two hundred", "1,300": part of a longer number.
    const at = sentence.tokens.indexOf(token);
    const beside = [sentence.tokens[at - 1], sentence.tokens[at + 1]];
    if (
      beside.some(
        (t) => t && (t.pos === 'NUM' || /^(?:hundred|thousand|million|billion)$/i.test(t.value)),
      )
    )
      continue;
    // A year is checked against other years, a count against other counts.
    const year = (n: string) => /^1[0-9]{3}$|^20[0-9]{2}$/.test(n);
    const fromText = [...ctx.analysis.numbers.keys()].filter(
      (n) => /^\d/.test(n) === digits && n !== lower && year(n) === year(value),
    );
    let near: string[];
    if (digits) {
      const n = Number(value);
      const deltas =
        n >= 1000
          ? [1, -1, 10, -10, 2]
          : n >= 100
            ? [10, -10, 50, 100, -50]
            : [1, 2, -1, 5, 10, -2];
      near = deltas
        .map((d) => n + d)
        .filter((x) => x > 0)
        .map(String);
    } else {
      const i = NUMBER_WORDS.indexOf(lower);
      near = [
        NUMBER_WORDS[i + 1],
        NUMBER_WORDS[i - 1],
        NUMBER_WORDS[i + 2],
        NUMBER_WORDS[i - 2],
      ].filter((x): x is string => !!x);
    }
    const cased = (s: string) =>
      /^\p{Lu}/u.test(value) ? s.charAt(0).toUpperCase() + s.slice(1) : s;
    const pool = [...fromText, ...near].map(cased);
    const target = {
      answer: value,
      start: token.start,
      end: token.end,
      kind: 'number' as const,
      distractors: [] as string[],
    };
    target.distractors = keepValid(sentence, target, pool, ctx);
    out.push(target);
  }
  return out;
}

type Inflection = 'base' | 'plural' | 'past' | 'ing' | 'third';

function inflectionOf(value: string, lemma: string, pos: string): Inflection {
  const v = value.toLowerCase();
  const l = lemma.toLowerCase();
  // "atria", "children": a form other than the lemma is a plural, with or without an -s.
  if (pos === 'NOUN') return v !== l && !/['’]/.test(v) ? 'plural' : 'base';
  if (v === l) return 'base';
  if (/ing$/.test(v)) return 'ing';
  if (/s$/.test(v) && (v === `${l}s` || v === `${l}es` || v.replace(/ies$/, 'y') === l))
    return 'third';
  return 'past';
}

/** How much a word is worth asking about: used more than once, and not an everyday word. */
export function keyness(info: WordInfo): number {
  const described = describeWord(info);
  if (described.familiarity < 0) return 0;
  const specific = 1 / Math.log2(3 + described.familiarity / 8);
  return Math.log2(1 + info.count) * specific;
}

interface Bucketed {
  form: string;
  info: WordInfo;
  key: number;
}

/** Words of the text grouped by part of speech, WordNet category and inflection (built once per text). */
function bucketsOf(ctx: WriterContext): Map<string, Bucketed[]> {
  const cached = bucketCache.get(ctx.analysis);
  if (cached) return cached;
  const buckets = new Map<string, Bucketed[]>();
  for (const info of ctx.analysis.words.values()) {
    if (info.pos === 'ADV') continue;
    const d = describeWord(info);
    if (d.familiarity < 0) continue;
    const lex = info.pos === 'ADJ' ? 0 : d.lexFile;
    const key = keyness(info);
    const byInflection = new Map<Inflection, { form: string; count: number }>();
    for (const [form, count] of info.forms) {
      const inflection = inflectionOf(form, info.lemma, info.pos);
      const best = byInflection.get(inflection);
      if (!best || count > best.count) byInflection.set(inflection, { form, count });
    }
    for (const [inflection, { form }] of byInflection) {
      const bucketKey = `${info.pos}|${lex}|${inflection}`;
      const list = buckets.get(bucketKey) ?? [];
      list.push({ form, info, key });
      buckets.set(bucketKey, list);
    }
  }
  bucketCache.set(ctx.analysis, buckets);
  return buckets;
}
const bucketCache = new WeakMap<object, Map<string, Bucketed[]>>();

type LazyTarget = Target & { score: number; fill?: () => void };

function wordTargets(sentence: Sentence, ctx: WriterContext): LazyTarget[] {
  const out: LazyTarget[] = [];
  const words = ctx.analysis.words;
  const buckets = bucketsOf(ctx);
  sentence.tokens.forEach((token, i) => {
    if (i === 0) return;
    const pos = token.pos;
    if (pos !== 'NOUN' && pos !== 'VERB' && pos !== 'ADJ') return;
    if (!/^[a-z][a-z-]+$/.test(token.value) || token.value.length < 4 || token.stop) return;
    if (insideQuotes(sentence, token) && !sentence.speaker) return;
    const info = words.get(`${pos}:${token.lemma.toLowerCase()}`);
    if (!info) return;
    const score = keyness(info);
    if (score <= 0.15) return;
    if (sentence.tokens.filter((t) => t.value === token.value).length !== 1) return;
    if (badBlank(ctx.analysis, sentence, i)) return;
    const inflection = inflectionOf(token.value, token.lemma, pos);
    const lex = pos === 'ADJ' ? 0 : describeWord(info).lexFile;
    const bucket = buckets.get(`${pos}|${lex}|${inflection}`) ?? [];
    // Similar frequency in the text makes a distractor as plausible as the answer.
    const pool = bucket
      .filter((b) => b.info !== info)
      .map((b) => ({
        form: b.form,
        lemma: b.info.lemma,
        score: (1 / (1 + Math.abs(Math.log2((b.info.count + 1) / (info.count + 1))))) * (1 + b.key),
      }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 30);
    const lemmaOf = new Map(pool.map((p) => [p.form, p.lemma]));
    const wnPos = wordNetPos(pos);
    const kind: Target['kind'] = pos === 'NOUN' ? 'noun' : pos === 'VERB' ? 'verb' : 'adjective';
    const target: LazyTarget = {
      answer: token.value,
      start: token.start,
      end: token.end,
      kind,
      distractors: [] as string[],
      score,
    };
    // Distractors are checked only for the targets a writer reaches (the gates cost time).
    target.fill = () =>
      (target.distractors = keepValid(
        sentence,
        target,
        pool.map((p) => p.form),
        ctx,
        8,
        (candidate) => {
          const lemma = lemmaOf.get(candidate) ?? candidate;
          // "so _____ to make": a participle or an ordinal does not fit where an adjective stands.
          const shape = (w: string) => /(?:ed|th)$/.test(w) || /^(?:first|second|third)$/.test(w);
          if (pos === 'ADJ' && shape(candidate) !== shape(token.value.toLowerCase())) return 'form';
          // A capitalised word among common adjectives ("Korean" for "metal") stands out.
          if (/^\p{Lu}/u.test(candidate) !== /^\p{Lu}/u.test(token.value)) return 'form';
          return (
            wordNetNear(token.lemma, lemma, wnPos) ??
            (usedInSameRole(ctx.analysis, sentence, i, lemma, pos) ? 'same role' : null)
          );
        },
      ));
    out.push(target);
  });
  return out;
}

/**
 * The targets of a sentence with enough distractors, best first: names and numbers are the
 * clearest facts to ask about, then the sentence's most important noun, verb or adjective.
 */
export function targetsOf(
  sentence: Sentence,
  ctx: WriterContext,
  needDistractors: number,
  only?: Array<Target['kind']>,
  accept?: (target: Target) => boolean,
): Target[] {
  const all: Array<{ t: LazyTarget | Target; rank: number }> = [
    ...nameTargets(sentence, ctx).map((t) => ({ t, rank: t.kind === 'person' ? 3 : 2.5 })),
    ...numberTargets(sentence, ctx).map((t) => ({ t: t as Target, rank: 2 })),
    ...(only && !only.some((k) => k === 'noun' || k === 'verb' || k === 'adjective')
      ? []
      : wordTargets(sentence, ctx)
    ).map((t) => ({
      t,
      rank: (t.kind === 'noun' ? 1.6 : t.kind === 'verb' ? 1.2 : 0.9) + Math.min(1, t.score),
    })),
  ];
  const ranked = all
    .filter(
      ({ t }) =>
        (!only || only.includes(t.kind)) &&
        !ctx.usedAnswers.has(normaliseForMatch(t.answer)) &&
        (!accept || accept(t)),
    )
    .sort((a, b) => b.rank - a.rank + (ctx.random() - 0.5) * 0.6)
    .map(({ t }) => t);
  if (needDistractors <= 0) return ranked.map(strip);
  const out: Target[] = [];
  for (const t of ranked) {
    if (out.length >= 3) break;
    if ('fill' in t && t.fill) t.fill();
    if (t.distractors.length >= needDistractors) out.push(strip(t));
  }
  return out;
}

function strip(t: LazyTarget | Target): Target {
  const { answer, start, end, kind, distractors } = t;
  return { answer, start, end, kind, distractors };
}

/** Picks `n` distractors, mostly the closest ones, with a little variety. */
export function chooseDistractors(target: Target, n: number, random: () => number): string[] {
  // Checkably different values first: the pool is ordered best first.
  const head = target.distractors.slice(0, Math.max(n + 1, 3));
  return shuffle(head, random).slice(0, n);
}

export type { NameKind };
