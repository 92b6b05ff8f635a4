import { gradeLevel, QUESTION_KINDS, type QuestionKind } from '@chapterwise/shared';
import type { GenerationRequest } from './types.js';
import { CARDINALS } from '../../lib/number-words.js';

export type MaterialKind = 'quiz' | 'test' | 'lesson' | 'worksheet';

/** What to make, worked out from the type, the grade and the teacher's description. */
export interface GenerationPlan {
  kind: MaterialKind;
  /** 0 (Kindergarten) … 12, 13 for Collegiate. */
  level: number;
  /** How many questions of each kind, in the order the sections appear. */
  counts: Partial<Record<QuestionKind, number>>;
  /** Pairs in each matching question. */
  matchingPairs: number;
  vocabulary: number;
  /** Choices per multiple-choice question. */
  choices: number;
  /** Lesson length in minutes (lessons only). */
  durationMinutes: number;
  /** Show a word bank with fill-in-the-blank questions. */
  wordBank: boolean;
  /** Content words of the description ("focus on the storm") that steer sentence choice. */
  focusTerms: string[];
  /** What the description asked for that shaped the plan, for the teacher's notes. */
  understood: string[];
  /** Questions the type holds by default at this grade (what a description may enlarge). */
  typicalQuestions: number;
  /**
   * The description named no kind of question ("10 questions" at most): the mix is the type's
   * default, so a writer may move places between kinds when the text supports one kind better.
   */
  defaultMix: boolean;
}

export const MAX_QUESTIONS = 50;
const MAX_PER_KIND = 30;
const MAX_VOCABULARY = 20;

/** Numbers in a request: the shared cardinals up to fifty, and "a", "a dozen", "twenty-five". */
const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  ...Object.fromEntries(Object.entries(CARDINALS).filter(([, n]) => n <= 50)),
  'twenty-five': 25,
  dozen: 12,
  'a dozen': 12,
};
const NUMBER = `(\\d{1,3}|a dozen|twenty-five|${Object.keys(NUMBER_WORDS)
  .filter((w) => w !== 'a' && w !== 'an' && w !== 'a dozen' && w !== 'twenty-five')
  .join('|')})`;

function toNumber(word: string): number {
  const n = Number(word);
  return Number.isFinite(n) ? n : (NUMBER_WORDS[word.toLowerCase()] ?? 0);
}

/** Ways teachers name each kind of question. */
const KIND_PATTERNS: Record<QuestionKind | 'vocabulary', string> = {
  multiple_choice: 'multiple[\\s-]*choice|mcqs?|multi[\\s-]*choice|a\\s*/\\s*b\\s*/\\s*c\\s*/\\s*d',
  true_false:
    'true\\s*(?:/|or|-|and|&)\\s*false|t\\s*/\\s*f|true[\\s-]false|true\\s+false|yes\\s*/\\s*no',
  fill_blank:
    'fill[\\s-]*in[\\s-]*(?:the[\\s-]*)?blanks?|fill[\\s-]*in|cloze|gap[\\s-]*fill|fill[\\s-]*the[\\s-]*gaps?|blanks',
  short_answer:
    'short[\\s-]*answers?|short[\\s-]*response|open[\\s-]*ended|open[\\s-]*response|constructed[\\s-]*response|comprehension',
  matching: 'matching|match(?:ing)?[\\s-]*(?:up|the\\s+terms|the\\s+words)',
  discussion:
    'discussion|discuss|essay|debate|writing[\\s-]*prompts?|reflection|critical[\\s-]*thinking',
  vocabulary: 'vocab(?:ulary)?(?:\\s+(?:words?|terms?))?|key\\s+(?:words|terms)|word\\s+list',
};

/** Default content of each material type, by grade band. */
function defaults(kind: MaterialKind, level: number): Partial<Record<QuestionKind, number>> {
  const young = level <= 2;
  switch (kind) {
    case 'quiz':
      // Two short answers (why/who/what) from grade 3 up, so a quiz is not all recall of
      // sentences (issue 13: at least four forms, at most 40% cloze).
      return young
        ? { multiple_choice: 5, true_false: 5 }
        : { multiple_choice: 5, true_false: 3, short_answer: 2 };
    case 'test':
      return young
        ? { multiple_choice: 8, true_false: 6, short_answer: 2, matching: 1, discussion: 1 }
        : { multiple_choice: 10, true_false: 5, short_answer: 3, matching: 1, discussion: 2 };
    case 'worksheet':
      return young
        ? { matching: 1, fill_blank: 5, short_answer: 3, discussion: 1 }
        : { matching: 1, fill_blank: 6, short_answer: 4, discussion: 2 };
    case 'lesson':
      return young ? { discussion: 3 } : { short_answer: 2, discussion: 3 };
  }
}

/** Maps a type name (the server's list may grow) onto the four kinds of document. */
export function materialKindOf(type: string): MaterialKind {
  const t = type.toLowerCase();
  if (/lesson|plan|unit/.test(t)) return 'lesson';
  if (/worksheet|handout|activity|homework|practice/.test(t)) return 'worksheet';
  if (/test|exam|assessment/.test(t)) return 'test';
  return 'quiz';
}

const STOP = new Set(
  (
    'a an the and or but of to in on at for with about from by into onto over under this that these those ' +
    'it its is are was were be been being i me my we our you your they them their he she his her him ' +
    'please make create give write generate include including use using want need would like should could ' +
    'can will just only all also some any each every more less most least very much many few no not without ' +
    'questions question items item problems problem quiz test lesson worksheet plan class students student ' +
    'kids children grade grades level easy easier hard harder difficult simple short long minutes minute hour hours ' +
    'answer answers answered key keys choice choices option options true false fill blank blanks multiple ' +
    'matching match discussion essay vocabulary vocab words word terms term chapter text passage book story ' +
    'reading read focus focused focusing mainly mostly especially based ask asking end beginning them so as ' +
    'than then there here what which who whom how why when where do does did done have has had per each'
  ).split(' '),
);

/**
 * Works out what to make: the default content of the type and grade, changed by what the
 * description says ("10 questions", "true/false only", "no matching", "5 vocabulary words",
 * "a 60-minute lesson", "3 choices", "focus on the storm").
 */
export function buildPlan(
  request: Pick<GenerationRequest, 'type' | 'grade' | 'descriptionText'>,
): GenerationPlan {
  const kind = materialKindOf(request.type);
  const level = gradeLevel(request.grade);
  const base = defaults(kind, level);
  const text = ` ${request.descriptionText.toLowerCase().replace(/\s+/g, ' ')} `;
  const understood: string[] = [];

  const explicit: Partial<Record<QuestionKind, number>> = {};
  let vocabulary: number | undefined;
  const only = new Set<QuestionKind>();
  const excluded = new Set<QuestionKind>();

  for (const [name, pattern] of Object.entries(KIND_PATTERNS) as Array<
    [QuestionKind | 'vocabulary', string]
  >) {
    const countRe = new RegExp(
      `\\b${NUMBER}\\s+(?:[a-z-]+\\s+){0,2}?(?:${pattern})(?![a-z])|(?:${pattern})(?:\\s+questions?)?\\s*[:(=-]\\s*${NUMBER}\\b`,
      'g',
    );
    for (const match of text.matchAll(countRe)) {
      const n = toNumber(match[1] ?? match[2] ?? '');
      if (n <= 0) continue;
      if (name === 'vocabulary') vocabulary = n;
      else explicit[name] = (explicit[name] ?? 0) + n;
    }
    if (name === 'vocabulary') {
      if (new RegExp(`\\b(?:no|without|skip|exclude|not)\\s+(?:any\\s+)?(?:${pattern})`).test(text))
        vocabulary = 0;
      continue;
    }
    const onlyRe = new RegExp(
      `\\b(?:only|just|all|exclusively|purely)\\s+(?:[a-z-]+\\s+){0,1}?(?:${pattern})|(?:${pattern})(?:\\s+(?:questions?|items?|format))?\\s+only\\b`,
    );
    if (onlyRe.test(text)) only.add(name);
    const noRe = new RegExp(
      `\\b(?:no|without|skip|exclude|excluding|not|don't include|avoid)\\s+(?:any\\s+)?(?:${pattern})`,
    );
    if (noRe.test(text)) excluded.add(name);
  }

  let total: number | undefined;
  const totalRe = new RegExp(
    `\\b${NUMBER}\\s+(?:[a-z-]+\\s+){0,2}?(?:questions|items|problems|question)\\b`,
    'g',
  );
  for (const match of text.matchAll(totalRe)) {
    // "10 multiple choice questions" is a count of one kind, not the total.
    const phrase = match[0];
    const namesKind = Object.values(KIND_PATTERNS).some((p) => new RegExp(p).test(phrase));
    if (!namesKind) total = toNumber(match[1] ?? '');
  }

  let counts: Partial<Record<QuestionKind, number>>;
  const questionKinds = QUESTION_KINDS.filter((k) => !excluded.has(k));
  if (only.size > 0) {
    const kinds = [...only];
    const fixed = kinds.reduce((sum, k) => sum + (explicit[k] ?? 0), 0);
    const target = Math.max(total ?? sumOf(base), fixed);
    const open = kinds.filter((k) => explicit[k] === undefined);
    counts = {};
    for (const k of kinds) if (explicit[k] !== undefined) counts[k] = explicit[k];
    spread(counts, open, target - fixed);
    understood.push(`only ${kinds.map(label).join(' and ')}`);
  } else if (Object.keys(explicit).length > 0) {
    counts = { ...explicit };
    const fixed = sumOf(explicit);
    if (total !== undefined && total > fixed) {
      const rest = questionKinds.filter((k) => explicit[k] === undefined && (base[k] ?? 0) > 0);
      spread(counts, rest.length ? rest : ['multiple_choice'], total - fixed, base);
    } else if (total === undefined) {
      // Named kinds replace the default mix only when they already make a full material.
      for (const k of questionKinds) {
        if (counts[k] === undefined && (base[k] ?? 0) > 0 && fixed < sumOf(base) / 2)
          counts[k] = base[k];
      }
    }
  } else {
    counts = {};
    for (const k of questionKinds) if ((base[k] ?? 0) > 0) counts[k] = base[k];
    const removed = QUESTION_KINDS.filter((k) => excluded.has(k) && (base[k] ?? 0) > 0);
    const target = total ?? sumOf(base);
    const kinds = Object.keys(counts) as QuestionKind[];
    if (total !== undefined || removed.length) {
      const fresh: Partial<Record<QuestionKind, number>> = {};
      spread(fresh, kinds.length ? kinds : ['multiple_choice'], target, base);
      counts = fresh;
    }
  }
  for (const k of excluded) delete counts[k];
  for (const k of Object.keys(counts) as QuestionKind[]) {
    counts[k] = Math.min(MAX_PER_KIND, Math.max(0, Math.round(counts[k] ?? 0)));
    if (!counts[k]) delete counts[k];
  }
  trimTo(counts, MAX_QUESTIONS);
  if (total !== undefined) understood.push(`${total} questions`);
  for (const [k, n] of Object.entries(explicit))
    understood.push(`${n} ${label(k as QuestionKind)}`);
  for (const k of excluded) understood.push(`no ${label(k)}`);

  const defaultVocabulary = kind === 'worksheet' ? 6 : kind === 'lesson' ? 5 : 0;
  if (vocabulary !== undefined) understood.push(`${vocabulary} vocabulary words`);
  const vocab = Math.min(MAX_VOCABULARY, vocabulary ?? defaultVocabulary);

  const pairsMatch = new RegExp(
    `\\b${NUMBER}\\s+(?:[a-z-]+\\s+)?(?:pairs|terms to match|matches)`,
  ).exec(text);
  const matchingPairs = Math.min(
    10,
    Math.max(
      3,
      pairsMatch
        ? toNumber(pairsMatch[1] ?? '')
        : level <= 2
          ? 4
          : Math.max(5, Math.min(8, vocab || 6)),
    ),
  );

  let durationMinutes = 45;
  const minutes = /\b(\d{1,3})[\s-]*(?:minutes?|mins?)\b/.exec(text);
  const hours = /\b(\d|an?|one|two|three)[\s-]*(?:hours?|hrs?)\b/.exec(text);
  const hourAndHalf = /\b(?:an?|one)\s+(?:and\s+a\s+half\s+hours?|hour\s+and\s+a\s+half)\b/.test(
    text,
  );
  if (minutes) durationMinutes = Number(minutes[1]);
  else if (hourAndHalf) durationMinutes = 90;
  else if (hours) durationMinutes = toNumber(hours[1] ?? '1') * 60;
  durationMinutes = Math.min(180, Math.max(20, durationMinutes));
  if (kind === 'lesson' && (minutes || hours)) understood.push(`${durationMinutes}-minute lesson`);

  let choices = level <= 2 ? 3 : 4;
  const choiceMatch = new RegExp(
    `\\b${NUMBER}\\s+(?:answer\\s+)?(?:choices|options|answers|alternatives)\\b`,
  ).exec(text);
  if (choiceMatch) {
    choices = Math.min(6, Math.max(2, toNumber(choiceMatch[1] ?? '4')));
    understood.push(`${choices} choices`);
  }

  const noWordBank = /\bno\s+word\s+bank|without\s+(?:a\s+)?word\s+bank/.test(text);
  const wordBank = !noWordBank && (/\bword\s+bank/.test(text) || level <= 5);

  return {
    kind,
    level,
    counts,
    matchingPairs,
    vocabulary: vocab,
    choices,
    durationMinutes,
    wordBank,
    focusTerms: focusTermsOf(text),
    understood,
    typicalQuestions: sumOf(base),
    defaultMix: only.size === 0 && excluded.size === 0 && Object.keys(explicit).length === 0,
  };
}

function label(kind: QuestionKind): string {
  return kind
    .replace('_', ' ')
    .replace('fill blank', 'fill-in-the-blank')
    .replace('true false', 'true/false');
}

function sumOf(counts: Partial<Record<QuestionKind, number>>): number {
  return Object.values(counts).reduce((a, b) => a + (b ?? 0), 0);
}

/** Shares `amount` among kinds, in proportion to `weights` (evenly without), largest remainder first. */
function spread(
  into: Partial<Record<QuestionKind, number>>,
  kinds: QuestionKind[],
  amount: number,
  weights?: Partial<Record<QuestionKind, number>>,
): void {
  if (amount <= 0 || kinds.length === 0) return;
  const w = kinds.map((k) => Math.max(1, weights?.[k] ?? 1));
  const sum = w.reduce((a, b) => a + b, 0);
  const exact = w.map((x) => (x / sum) * amount);
  const floors = exact.map(Math.floor);
  let left = amount - floors.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r);
  for (const { i } of order) {
    if (left <= 0) break;
    floors[i] = (floors[i] ?? 0) + 1;
    left -= 1;
  }
  kinds.forEach((k, i) => {
    into[k] = (into[k] ?? 0) + (floors[i] ?? 0);
  });
}

function trimTo(counts: Partial<Record<QuestionKind, number>>, max: number): void {
  let over = sumOf(counts) - max;
  while (over > 0) {
    const biggest = (Object.keys(counts) as QuestionKind[]).sort(
      (a, b) => (counts[b] ?? 0) - (counts[a] ?? 0),
    )[0];
    if (!biggest) break;
    counts[biggest] = (counts[biggest] ?? 0) - 1;
    over -= 1;
  }
}

function focusTermsOf(text: string): string[] {
  const words = text
    .replace(/[^a-z' -]/g, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/^'+|'+$/g, '').replace(/'s$/, ''))
    .filter((w) => w.length >= 4 && !STOP.has(w) && !(w in NUMBER_WORDS));
  return [...new Set(words)].slice(0, 8);
}

/** Total number of questions in a plan (matching counts as one each). */
export function plannedQuestionCount(plan: GenerationPlan): number {
  return sumOf(plan.counts);
}
