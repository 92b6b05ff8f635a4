import nlpCompromise from 'compromise';
import type {
  DiscussionQuestion,
  FillBlankQuestion,
  MatchingQuestion,
  MultipleChoiceQuestion,
  ShortAnswerQuestion,
  TrueFalseQuestion,
  VocabularyItem,
} from '@chapterwise/shared';
import { normaliseForMatch } from '../quality.js';
import type { Sentence, Token } from './analyse.js';
import {
  BLANK,
  capitalise,
  pickSentences,
  replaceSpan,
  decapitalise,
  shuffle,
  standAloneStatement,
  type WriterContext,
} from './common.js';
import { chooseDistractors, targetsOf, type Target } from './targets.js';
import { blankGivenAway } from './blanks.js';
import { wordGrade } from './familiar.js';
import { stem } from './senses.js';
import { matchingEntries } from './vocabulary.js';
import { invertedQuestion, spanText } from './clauses.js';
import { clozeBlankFault, clozeOptionFault, commonVerb, keyBlank, topicWords } from './gates.js';
import { antonymsOf, lexFileOf, lookup } from './wordnet.js';
import { numberValue } from '../../../lib/number-words.js';
import { describeWord } from './analyse.js';
import { isAbout, peopleOf, storyCast } from './characters.js';
import { detectGenre, tellsAStory } from './genre.js';
import {
  candidateSentences,
  causeCandidates,
  clauseOf,
  mannerCandidates,
  placeWithin,
  resolvePronoun,
  sequenceCandidates,
  speakerCandidates,
  vocabularyInContext,
  whCandidates,
  whenCandidates,
  important,
  readsAlone,
  type FormCandidate,
} from './forms.js';
import { isVerse, needsContext, withoutOpener } from './context.js';
import { aboutTheArgument, implicitComparison, notAClaim, unresolvedPronoun } from './claims.js';
import { castSwaps, storyCandidates } from './story.js';
import { soundWh } from './wh-checks.js';
import { readClause, type Clause } from './clauses.js';
import { informationalDiscussion, standsAlone } from './discussion-info.js';
import {
  fixArticles,
  insideCompound,
  needsItsNegation,
  numberSwapFalse,
  oppositeFits,
  optionFitsBlank,
  personOptions,
  personSwapFits,
  placeSwapFits,
  statementNeedsReferent,
  subjectNeedsReferent,
  swapContradicted,
  verbFitsBlank,
} from './swaps.js';

let counter = 0;
const nextId = () => `d${++counter}`;

/**
 * The text in quotation marks. A text that is itself one quotation keeps its words only; a
 * quotation inside it ("“Keep close,” he said.") takes single marks inside ours, so the marks
 * stay paired: “‘Keep close,’ he said.”
 */
export function quote(text: string): string {
  const t = text.trim();
  if (/^["“][^"“”]*["”]$/.test(t)) return `“${t.slice(1, -1)}”`;
  const inner = t.replace(/["“”]/g, (mark, at: number) => {
    if (mark === '“') return '‘';
    if (mark === '”') return '’';
    return at === 0 || /[\s([{—–-]/.test(t.charAt(at - 1)) ? '‘' : '’';
  });
  return `“${inner}”`;
}

/** Quotation marks that open and close in the same sentence (a cloze stem must not show half a quotation). */
export function pairedQuotes(text: string): boolean {
  const straight = (text.match(/"/g) ?? []).length;
  const open = (text.match(/“/g) ?? []).length;
  const close = (text.match(/”/g) ?? []).length;
  return straight % 2 === 0 && open === close;
}

function markUsed(ctx: WriterContext, sentence: Sentence, answer?: string) {
  ctx.usedSentences.add(sentence.index);
  if (answer) ctx.usedAnswers.add(normaliseForMatch(answer));
}

/* ---------------------------------------------------------------------------------------- */
/* Multiple choice                                                                           */
/* ---------------------------------------------------------------------------------------- */

/**
 * Multiple-choice questions: "Who …?" when a sentence opens with a person doing something,
 * "Who says …?" in plays, otherwise a sentence of the text with one key word or name blanked,
 * whose distractors are words of the same kind from the same text.
 */
export function writeMultipleChoice(
  ctx: WriterContext,
  count: number,
  contextWords: VocabularyItem[] = [],
): MultipleChoiceQuestion[] {
  const out: MultipleChoiceQuestion[] = [];
  const need = ctx.plan.choices - 1;
  const young = ctx.plan.level <= 2;

  if (ctx.analysis.prepared.isPlay) {
    const speakers = ctx.analysis.prepared.speakers;
    const lines = pickSentences(
      ctx,
      Math.ceil(count / 2),
      { minWords: 5 },
      (s) => !!s.speechQuote && s.opensSpeech,
    );
    for (const s of lines) {
      if (out.length >= Math.ceil(count / 2)) break;
      const others = shuffle(
        speakers.filter((p) => p !== s.speaker),
        ctx.random,
      ).slice(0, need);
      if (others.length < need || !s.speaker || !s.speechQuote) continue;
      const choices = shuffle([s.speaker, ...others], ctx.random);
      out.push({
        id: nextId(),
        kind: 'multiple_choice',
        prompt: `Which character says this line? ${quote(s.text)}`,
        form: 'speaker',
        choices,
        answerIndex: choices.indexOf(s.speaker),
        evidence: s.speechQuote,
      });
      markUsed(ctx, s);
    }
  }

  // A mix by default: why, who/when/where/how many, supported statements, words in context
  // and sequence first, then at most about 40% of the material as sentences with a blank.
  out.push(...pickForms(ctx, count - out.length, contextWords));
  const clozeCap = Math.max(0, Math.floor(clozeBudget(ctx) - (ctx.plan.counts.fill_blank ?? 0)));
  const spareCloze = new Set<number>();
  let cloze = 0;
  // Many sentences offer no blank worth asking: look through more of them, and through more
  // again on a long text when the options of too many fail their gates.
  const firstPool = pickSentences(ctx, count * 3, {});
  // Blanks that matter first (a word the text repeats or holds among its key phrases), then
  // any worth asking.
  const passes: Array<{ tier: number; sentences: Sentence[]; key?: boolean }> = [
    { tier: 0, sentences: firstPool, key: true },
    ...(ctx.plan.level <= 3 ? [0, 1, 2] : [0, 1]).map((tier) => ({
      tier,
      sentences: firstPool,
    })),
  ];
  if (ctx.analysis.sentences.length > count * 6)
    passes.push({ tier: 0, sentences: [] }, { tier: 1, sentences: [] });
  // Key words first; words a little less rare ("steady", "delivery") only when the material
  // would otherwise fall short.
  for (const [p, pass] of passes.entries()) {
    const tier = pass.tier;
    if (p > 0 && out.length - spareCloze.size >= count) break;
    const sentences =
      pass.sentences.length || p === 0 ? pass.sentences : pickSentences(ctx, count * 6, {});
    for (const s of sentences) {
      // Spares: two beyond the count, so later writers still find sentences of their own.
      if (out.length >= count + (ctx.spares ?? 2)) break;
      if (ctx.usedSentences.has(s.index)) continue;
      // Abstain rather than pad: fewer choices when fewer distractors pass, never fewer than two.
      // A sentence whose subject is "it" or "they" does not say what it is about.
      if (subjectNeedsReferent(s)) continue;
      // Only blanks worth asking (issue 22, trivial): a key idea of the text, not an everyday
      // word, a unit, one item of a list, half of a set phrase or of a hyphenated word.
      const found = targetsOf(
        s,
        ctx,
        Math.min(2, need),
        undefined,
        (t) =>
          (!pass.key || keyBlank(ctx.analysis, t)) &&
          worthABlank(ctx, s, t, tier) &&
          !pairedWithNoun(s, t) &&
          (t.kind !== 'adjective' || keyAdjective(ctx, t.answer)),
      )[0];
      if (!found) continue;
      // Every option must fit the blank's grammar as the key does, and be checkably wrong.
      const fitting = found.distractors.filter(
        (d) =>
          optionFitsBlank(ctx.analysis, found.kind, found.answer, d) &&
          (found.kind !== 'verb' || verbFitsBlank(ctx.analysis, s, found.start, d)) &&
          // "presented them in _____" (London) with England or Britain: a place that holds the
          // key, or lies in it, is right as well.
          (found.kind !== 'place' ||
            (!placeWithin(found.answer, d) && !placeWithin(d, found.answer))) &&
          !clozeOptionFault(ctx.analysis, found, d, s),
      );
      const target = {
        ...found,
        distractors:
          found.kind === 'person'
            ? personOptions(ctx.analysis, s.text, found.answer, fitting)
            : fitting,
      };
      if (target.distractors.length < Math.min(2, need)) continue;
      const distractors = chooseDistractors(target, need, ctx.random);
      if (distractors.length < Math.min(2, need)) continue;
      const choices = shuffle([target.answer, ...distractors], ctx.random);
      let prompt: string;
      if (s.speaker) {
        prompt = `Which answer completes ${s.speaker}'s line? ${quote(replaceSpan(s, target.start, target.end, BLANK))}`;
      } else {
        const lead = young
          ? 'Which word fills the blank?'
          : 'Which answer completes this sentence from the text?';
        prompt = `${lead} ${quote(replaceSpan(s, target.start, target.end, BLANK))}`;
      }
      // Past the cloze budget, sentences with a blank are spares: used only when nothing else
      // valid is left (the count asked for still rules).
      cloze += 1;
      if (cloze > clozeCap) spareCloze.add(out.length);
      out.push({
        id: nextId(),
        kind: 'multiple_choice',
        prompt,
        form: 'cloze',
        choices,
        answerIndex: choices.indexOf(target.answer),
        evidence: s.text,
      });
      markUsed(ctx, s, target.answer);
    }
  }
  // Too few blanks worth asking (a simple story of everyday words): fill from the forms with
  // the best yield (who/what/where questions, a supported statement) before accepting fewer.
  const short = count - (out.length - spareCloze.size);
  if (short > 0) out.push(...pickForms(ctx, short, [], true));
  // In the order of the text, so students read along; spare blanks last.
  const kept = out.filter((_, i) => !spareCloze.has(i));
  const order = (q: MultipleChoiceQuestion) =>
    firstSentence.get(q.id) ?? sentenceOf(ctx, q.evidence);
  const main = kept.slice(0, count).sort((a, b) => order(a) - order(b));
  return [...main, ...kept.slice(count), ...out.filter((_, i) => spareCloze.has(i))];
}

const firstSentence = new Map<string, number>();

/**
 * "used by _____ and meat packers", "science and _____": a noun joined to another noun by "and"
 * or "or". The other noun names the kind of thing wanted, and options of that kind fit as well.
 */
export function pairedWithNoun(s: Sentence, t: Target): boolean {
  if (t.kind !== 'noun') return false;
  const at = s.tokens.findIndex((x) => x.start === t.start);
  if (at < 0) return false;
  const tok = s.tokens;
  const joins = (x: { value: string } | undefined) => !!x && /^(?:and|or|nor)$/i.test(x.value);
  const noun = (x: { pos: string } | undefined) => !!x && (x.pos === 'NOUN' || x.pos === 'PROPN');
  const before = joins(tok[at - 1]) && noun(tok[at - 2]);
  const after =
    joins(tok[at + 1]) && (noun(tok[at + 2]) || (tok[at + 2]?.pos === 'ADJ' && noun(tok[at + 3])));
  return before || after;
}

/**
 * Describing words make weak multiple choice (other describing words mostly fit as well: "a
 * _____ sky", restless / wide / grey): only one the passage uses more than once ("sunlit").
 */
function keyAdjective(ctx: WriterContext, answer: string): boolean {
  const a = answer.toLowerCase();
  for (const w of ctx.analysis.words.values())
    if (w.pos === 'ADJ' && (w.lemma === a || w.forms.has(a))) return w.count >= 2;
  return false;
}

/**
 * A blank worth a cloze item: not half of a hyphenated word ("_____-walled"), not one item of
 * a list, not half of a set phrase ("the Pacific _____"), and none of the faults of
 * `clozeBlankFault` (everyday words, units, opposites, names in passing).
 */
function worthABlank(ctx: WriterContext, s: Sentence, t: Target, tier = 0): boolean {
  return (
    // "The North Wind was _____." says too little to choose by; a stanza of sixty words too much.
    s.words >= 7 &&
    s.words <= 45 &&
    pairedQuotes(s.text) &&
    !insideCompound(s.text, t.answer) &&
    !listItem(s, t.start, t.end) &&
    !setPhrase(s, t.start, t.end) &&
    !clozeBlankFault(ctx.analysis, s, t, ctx.plan.level, tier) &&
    !blankGivenAway(s, t, ctx.title, ctx.analysis)
  );
}

function interleave<T>(a: T[], b: T[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i]) out.push(a[i]!);
    if (b[i]) out.push(b[i]!);
  }
  return out;
}

function sentenceOf(ctx: WriterContext, evidence: string): number {
  const found = ctx.analysis.sentences.find((s) => evidence.startsWith(s.text));
  return found?.index ?? 0;
}

/**
 * The non-cloze forms for a multiple-choice section, taken in turn (cause, wh, supported,
 * word in context, sequence) so no one form fills it, each on sentences no other question uses.
 */
function pickForms(
  ctx: WriterContext,
  count: number,
  contextWords: VocabularyItem[],
  fill = false,
): MultipleChoiceQuestion[] {
  if (count <= 0 || ctx.analysis.prepared.isPlay) return [];
  const need = Math.max(2, ctx.plan.choices - 1);
  const pool = candidateSentences(ctx, count * 8);
  const byForm: Array<() => FormCandidate[]> = [
    () => {
      const scope = ctx.analysis.sentences.filter((s) => !ctx.usedSentences.has(s.index));
      const why = causeCandidates(ctx, scope, 0);
      const when = whenCandidates(ctx, scope, 0).filter((c) => c.form === 'cause');
      const called = whenCandidates(ctx, scope).filter((c) => c.form !== 'cause');
      const all = [...why, ...when];
      return interleave(
        why.map((c) => crossOptions(ctx, c, all, need)),
        [...when.map((c) => crossOptions(ctx, c, all, need)), ...called],
      );
    },
    () => pool.flatMap((s) => whCandidates(ctx, s)),
    // Stories: who did it, what they acted on, where (options: the story's other characters,
    // things and places); one sentence each, so before the forms that use several.
    () => pool.flatMap((s) => storyCandidates(ctx, s)),
    () => [],
    () => vocabularyInContext(ctx, contextWords),
    () => sequenceCandidates(ctx, 2),
  ];
  // Every who/what/where question passes the same checks, whichever builder made it.
  const lists = byForm.map((make) =>
    make().flatMap((c) => {
      const sound = soundWh(ctx, c);
      return sound ? [sound] : [];
    }),
  );
  // When filling in for blanks not worth asking: only who/what/where and supported statements.
  const cap = fill ? count : Math.max(2, Math.ceil(count / 3));
  if (fill) {
    lists[0] = [];
    lists[4] = [];
    lists[5] = [];
  }
  const taken = lists.map(() => 0);
  const out: MultipleChoiceQuestion[] = [];
  // A supported-statement item uses four sentences of the text: one on a short passage.
  // None on a passage of fewer than ten sentences: each is needed for a question of its own.
  let supportedLeft =
    ctx.analysis.sentences.length < 10
      ? 0
      : ctx.analysis.sentences.length < 20
        ? 1
        : Math.max(2, Math.round(count / 5));
  for (let round = 0; round < count * 2 && out.length < count + (ctx.spares ?? 2); round++) {
    let any = false;
    for (let f = 0; f < lists.length && out.length < count + (ctx.spares ?? 2); f++) {
      if (f === 3) {
        if (supportedLeft > 0) {
          const made = writeSupported(ctx, 1);
          supportedLeft -= 1;
          if (made.length) {
            out.push(...made);
            made.forEach((q) => firstSentence.set(q.id, sentenceOf(ctx, q.evidence)));
            any = true;
          } else supportedLeft = 0;
        }
        continue;
      }
      if (taken[f]! >= (f === 4 ? Math.min(2, cap) : cap)) continue;
      const list = lists[f]!;
      while (list.length) {
        const c = list.shift()!;
        if (c.sentences.some((i) => ctx.usedSentences.has(i))) continue;
        if (ctx.usedAnswers.has(normaliseForMatch(c.answer))) continue;
        if (!readsAlone(ctx, c)) continue;
        const distractors = c.distractors.slice(0, need);
        if (distractors.length < 2) continue;
        const choices = shuffle([c.answer, ...distractors], ctx.random);
        const q: MultipleChoiceQuestion = {
          id: nextId(),
          kind: 'multiple_choice',
          prompt: c.prompt,
          form: c.form,
          choices,
          answerIndex: choices.indexOf(c.answer),
          evidence: c.evidence,
        };
        firstSentence.set(q.id, Math.min(...c.sentences));
        out.push(q);
        for (const i of c.sentences) ctx.usedSentences.add(i);
        // Short passages need their sentences: the events offered as wrong orders may still be
        // true statements (not false ones, whose correction the option would show).
        if (c.form === 'sequence')
          for (const i of c.sentences)
            if (!c.evidence.startsWith(ctx.analysis.sentences[i]!.text))
              (ctx.sequenceOptions ??= new Set()).add(i);
        ctx.usedAnswers.add(normaliseForMatch(c.answer));
        taken[f]! += 1;
        any = true;
        break;
      }
    }
    if (!any) break;
  }
  return out;
}

/**
 * Wrong options of the same kind from the text's other cause-and-effect links: for "Why …?" the
 * reason or condition the text gives for a different result ("Because the ice becomes thick
 * enough"), for "What happens when …?" the result of a different cause, each one the text ties
 * to something else. Links that share content words with this one are left out (a chain of
 * causes would make a second option right).
 */
function crossOptions(
  ctx: WriterContext,
  c: FormCandidate,
  all: FormCandidate[],
  need: number,
): FormCandidate {
  if (c.distractors.length >= need) return c;
  const because = c.answer.startsWith('Because ');
  const seen = new Set([c.answer, ...c.distractors].map((x) => normaliseForMatch(x)));
  const topics = new Set([...topicWords(ctx.analysis)].map((w) => w.slice(0, 5)));
  const words = (x: string) =>
    new Set(
      (x.toLowerCase().match(/[a-z]{4,}/g) ?? [])
        .map((w) => w.slice(0, 5))
        .filter(
          (w) =>
            !topics.has(w) &&
            !/^(?:becau|what|happe|when|their|there|these|those|with|from|into|about|every|could|would|which)$/.test(
              w,
            ),
        ),
    );
  const mine = words(`${c.prompt} ${c.answer}`);
  const extra: string[] = [];
  for (const o of all) {
    if (o === c || o.sentences.some((i) => c.sentences.includes(i))) continue;
    const text = because ? (o.cause ? `Because ${o.cause}.` : null) : (o.effect ?? null);
    if (!text || needsContext(text, ctx.analysis)) continue;
    if (/^(?:Because )?(?:he|she|it|they|his|her|its|their|this|these|those)\b/i.test(text))
      continue;
    if ([...words(`${o.prompt} ${o.answer}`)].some((w) => mine.has(w))) continue;
    const k = normaliseForMatch(text);
    if (seen.has(k)) continue;
    seen.add(k);
    extra.push(text);
  }
  return { ...c, distractors: [...c.distractors, ...extra].slice(0, need) };
}

/** How many cloze items a material may hold: about 40% of its questions (all when the teacher asked only for them). */
export function clozeBudget(ctx: WriterContext): number {
  const counts = ctx.plan.counts;
  const total = Object.values(counts).reduce((a, b) => a + (b ?? 0), 0);
  const closed = (counts.multiple_choice ?? 0) + (counts.fill_blank ?? 0);
  if (closed >= total) return total;
  return Math.max(1, Math.round(total * 0.4));
}

/**
 * "Which statement is supported by the text?": one sentence of the text as it stands, and
 * other sentences changed in one fact (a name, number or opposite), each checked not to be in
 * the text.
 */
export function writeSupported(ctx: WriterContext, count: number): MultipleChoiceQuestion[] {
  const out: MultipleChoiceQuestion[] = [];
  // Plays have no narrated facts; long chapters have enough other items (and it keeps speed).
  if (ctx.analysis.prepared.isPlay || ctx.analysis.sentences.length > 250) return out;
  const need = Math.max(2, Math.min(3, ctx.plan.choices - 1));
  const pool = pickSentences(
    ctx,
    count * 5,
    { noQuotes: true, maxWords: 22 },
    (s) => !PRONOUN_SUBJECT.test(s.text) && !statementNeedsReferent(s) && s.words <= 22,
  );
  const falses: Array<{ s: Sentence; statement: string }> = [];
  const trues: Array<{ s: Sentence; statement: string }> = [];
  for (const s of pool) {
    if (falses.length >= count * need && trues.length >= count) break;
    const alone = statementOf(ctx, s);
    if (!alone || narratorCount(alone) > 1) continue;
    if (!isClaim(ctx, s, alone)) continue;
    const statement = paraphrase(ctx, s, alone);
    const swap = alterations(s, statement, ctx).find(
      (a) => a.how !== 'negation' && !ctx.reference.contains(a.statement),
    );
    if (swap && falses.length < count * need) falses.push({ s, statement: swap.statement });
    else if (!swap || trues.length < count) trues.push({ s, statement });
  }
  for (const t of trues) {
    if (out.length >= count) break;
    const wrong = falses.filter((f) => f.s !== t.s).slice(0, need);
    if (wrong.length < 2) break;
    for (const w of wrong) falses.splice(falses.indexOf(w), 1);
    const choices = shuffle([t.statement, ...wrong.map((w) => w.statement)], ctx.random);
    out.push({
      id: nextId(),
      kind: 'multiple_choice',
      prompt: 'Which statement is supported by the text?',
      form: 'supported',
      choices,
      answerIndex: choices.indexOf(t.statement),
      evidence: t.s.text,
    });
    markUsed(ctx, t.s);
    for (const w of wrong) markUsed(ctx, w.s);
  }
  return out;
}

/**
 * A statement students can judge alone (decision 016, "True/false statements are claims"): not
 * a question, a cry, a fragment of verse or two sentences run together, no pronoun with nothing
 * before it to stand for, no comparison whose standard was in the sentence before.
 */
function isClaim(ctx: WriterContext, s: Sentence, statement: string): boolean {
  return (
    !notAClaim(s) &&
    !unresolvedPronoun(statement, (w) => nameWord(ctx, w), s.tokens) &&
    !implicitComparison(s) &&
    !aboutTheArgument(
      s,
      (lemma) => ctx.analysis.words.get(`NOUN:${lemma}`)?.count ?? 0,
      (w) => nameWord(ctx, w),
    )
  );
}

function narratorCount(text: string): number {
  return (text.match(/\bthe narrator\b/gi) ?? []).length;
}

/* ---------------------------------------------------------------------------------------- */
/* True / false                                                                              */
/* ---------------------------------------------------------------------------------------- */

type Alteration = { statement: string; how: string };

/** A statement opening with a pronoun ("He left…") does not say who it is about. */
const PRONOUN_SUBJECT =
  /^(?:he|she|it|they|this|that|these|those|his|her|its|their|him|them|there|such|and|but|or|nor|yet|for|so|then|(?:some|most|all|much|many|none|one|each) of (?:it|them|these|those))\b/i;

function replaceInStatement(statement: string, from: string, to: string): string | null {
  const re = new RegExp(
    `(?<![\\p{L}\\p{N}])${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`,
    'u',
  );
  if (!re.test(statement)) return null;
  return statement.replace(re, to);
}

function matchCase(model: string, word: string): string {
  return /^\p{Lu}/u.test(model) ? capitalise(word) : word;
}

/** A word of one of the passage's names ("Frederick", "Gull"), not a verse line's capital. */
function nameWord(ctx: WriterContext, word: string): boolean {
  for (const n of ctx.analysis.names.keys()) if (n.split(/\s+/).includes(word)) return true;
  return false;
}

/**
 * The sentence as a statement a student can judge without the passage before it: first-person
 * narration as "the narrator", a linking opener or "also" taken away, "him"/"her" given the
 * one person they can be; null when it still leans on another sentence ("The question sounds
 * reasonable", "at the time", "the company" of two) or is verse that is not one clause.
 */
export function statementOf(ctx: WriterContext, s: Sentence): string | null {
  // A capital after a comma is a verse line's start unless the passage uses the word as a name
  // more than once ("Frederick"), not just there ("…winding down, Horse and foot").
  const name = (w: string) => nameWord(ctx, w) && (ctx.analysis.names.get(w)?.count ?? 2) >= 2;
  if (s.words < 4 || isVerse(s, name)) return null;
  // "Over the mountains winding down, horse and foot, into the town.": a line of verse with no
  // finite verb is no statement.
  if (!s.tokens.some((x) => x.pos === 'AUX' || (x.pos === 'VERB' && !/ing$/i.test(x.value))))
    return null;
  // "Cried Mira.", "Grandpa asked.": the tag of a line of dialogue, not a statement.
  if (s.tokens[0]?.pos === 'VERB' || /^(?:said|asked|cried|replied)\b/i.test(s.text)) return null;
  let statement = standAloneStatement(s, tellsAStory(detectGenre(ctx.analysis)));
  if (!statement) return null;
  // "The school day should be arranged …": a claim or an opinion, not a fact to judge.
  if (/\b(?:should|ought to|must)\b/i.test(statement)) return null;
  statement = withoutOpener(statement);
  if (pronounBoundToSubject(ctx, s)) return null;
  // "that role", "Some spend too much …": a determiner or quantifier standing for something said before.
  const t = s.tokens;
  for (let i = 0; i < t.length; i++) {
    if (!/^that$/i.test(t[i]!.value) || t[i]!.pos !== 'DET') continue;
    let k = i + 1;
    while (t[k]?.pos === 'ADJ') k++;
    if (t[k]?.pos !== 'NOUN') continue;
    while (t[k]?.pos === 'NOUN') k++;
    // "knew that railway cases were …": a clause follows a verb, so "that" joins it; "how slow
    // that message had been" points back.
    if (
      !['VERB', 'AUX'].includes(t[k]?.pos ?? '') ||
      !['VERB', 'NOUN'].includes(t[i - 1]?.pos ?? '')
    )
      return null;
  }
  if (
    /^(?:some|many|most|others|both|all|each|few|several|one|any|none|neither|either)$/i.test(
      t[0]?.value ?? '',
    ) &&
    ['VERB', 'AUX'].includes(t[1]?.pos ?? '')
  )
    return null;
  // "She was poor, …" → "Mira was poor, …" when one person of that gender is named just before.
  const lead = /^(He|She) /.exec(statement);
  if (lead) {
    // "He handed her the box": someone else again, with no name.
    const other = t.some(
      (x, i) =>
        /^(?:him|them|it)$/i.test(x.value) ||
        (/^her$/i.test(x.value) && !['NOUN', 'ADJ', 'NUM'].includes(t[i + 1]?.pos ?? '')),
    );
    if (other || (lead[1] === 'He' && /\b(?:she|her)\b/i.test(statement))) return null;
    if (lead[1] === 'She' && /\b(?:he|him|his)\b/i.test(statement)) return null;
    const c = { sentence: s, pronoun: lead[1]!.toLowerCase() } as Clause;
    const thing = personifiedThing(ctx);
    if (thing && !/\b(?:he|she|his|her|him)\b/i.test(statement.slice(3)))
      c.subjectText = capitalise(thing);
    else if (!resolvePronoun(ctx, c, null) || !c.subjectText) return null;
    statement = `${capitalise(withArticle(ctx, c.subjectText))}${statement.slice(lead[1]!.length)}`;
    if (needsContext(statement, ctx.analysis)) return null;
    return statement;
  }
  // "Without it, plants die": the opening phrase points back.
  if (/^[^,]*\b(?:it|its|them|they|their)\b[^,]*,/i.test(statement)) return null;
  if (statementNeedsReferent(s)) {
    const named = objectPronounsNamed(ctx, s, statement);
    if (!named) return null;
    statement = named;
  }
  if (needsContext(statement, ctx.analysis)) return null;
  return statement;
}

const personified = new WeakMap<object, string | null>();

/**
 * A poem that names no person and speaks of one thing as "he" or "she" ("My shadow … he
 * grows"): the thing, "the shadow", when it is the only noun the poem repeats three times or
 * more. Null otherwise (any person named, or no such noun).
 */
export function personifiedThing(ctx: WriterContext): string | null {
  const a = ctx.analysis;
  if (personified.has(a)) return personified.get(a)!;
  let out: string | null = null;
  if (
    detectGenre(a) === 'poem' &&
    ![...a.names.values()].some((n) => n.kind === 'person') &&
    !a.sentences.some((s) => s.tokens.some((t) => PERSON_NOUN.test(t.value)))
  ) {
    const repeated = [...a.words.values()].filter(
      (w) => w.pos === 'NOUN' && w.count >= 3 && !PERSON_NOUN.test(w.lemma),
    );
    if (repeated.length === 1) out = `the ${repeated[0]!.lemma}`;
  }
  personified.set(a, out);
  return out;
}

const PERSON_NOUN =
  /^(?:man|woman|boy|girl|king|queen|father|mother|grandfather|grandmother|grandpa|grandma|brother|sister|son|daughter|captain|keeper|doctor|teacher|farmer|scientist|narrator)$/i;

/**
 * "The doctor wrapped it tightly and told him to stay in bed": "him" cannot be the doctor (an
 * object pronoun is never its own clause's subject), and "it" has no thing before it to be.
 * True when an object pronoun's only possible antecedent in the sentence is ruled out.
 */
function pronounBoundToSubject(ctx: WriterContext, s: Sentence): boolean {
  const t = s.tokens;
  const people: number[] = [];
  let thing = false;
  for (let i = 0; i < t.length; i++) {
    const x = t[i]!;
    const low = x.value.toLowerCase();
    if (x.pos === 'PROPN' || PERSON_NOUN.test(x.value) || low === 'i') people.push(i);
    else if (x.pos === 'NOUN') thing = true;
    const possessive = t[i + 1] && ['NOUN', 'ADJ', 'NUM'].includes(t[i + 1]!.pos);
    if (/^(?:him|them)$/.test(low) || (low === 'her' && !possessive)) {
      if (people.length === 1 && people[0]! <= 2) return true;
    }
    if ((low === 'it' || low === 'its') && i > 0 && !thing) {
      // "made it possible to …", "It is …" at the start are handled elsewhere.
      if (!/^(?:is|was)$/i.test(t[i + 1]?.value ?? '')) return true;
    }
  }
  return false;
}
/**
 * A name as the text uses it: "the Mouse" for a fable's character the text always gives an
 * article ("a Mouse", "the Mouse"), never a bare "Mouse" inside a sentence.
 */
export function withArticle(ctx: WriterContext, name: string): string {
  if (/^(?:the|a|an) /i.test(name)) return name;
  const esc = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const text = ctx.analysis.sentences.map((x) => x.text).join(' ');
  const withOne = (text.match(new RegExp(`\\b(?:the|a|an) ${esc}\\b`, 'g')) ?? []).length;
  const bare = (
    text.match(new RegExp(`(?<!\\b(?:the|a|an|The|A|An) )(?<=[\\p{L},;] )${esc}\\b`, 'gu')) ?? []
  ).length;
  return withOne > 0 && bare === 0 ? `the ${name}` : name;
}

/**
 * "No one had ever bargained with him before." → "… with the North Wind before." when the
 * sentence names no one, its only pointing words are he/him/his (or she/her), and one person
 * of that gender is named in it or the two sentences before.
 */
function objectPronounsNamed(ctx: WriterContext, s: Sentence, statement: string): string | null {
  if (subjectNeedsReferent(s)) return null;
  const words = s.tokens.map((x) => x.value.toLowerCase());
  if (words.some((w) => /^(?:them|themselves|this|these|those|it|its|they|their)$/.test(w)))
    return null;
  const male = words.some((w) => /^(?:he|him|his|himself)$/.test(w));
  const female = words.some((w) => /^(?:she|her|hers|herself)$/.test(w));
  if (male === female) return null;
  const c = { sentence: s, pronoun: male ? 'he' : 'she' } as Clause;
  if (!resolvePronoun(ctx, c, null) || !c.subjectText) return null;
  const name = withArticle(ctx, c.subjectText);
  if (statement.includes(name)) return null;
  const replaced = statement.replace(
    /\b(his|her|him|hers)\b(\s+)?(\S+)?/gi,
    (all, p: string, space: string | undefined, next: string | undefined) => {
      const low = p.toLowerCase();
      if (low === 'his' || low === 'hers' || (low === 'her' && next && /^[a-z]/.test(next)))
        return `${name}'s${space ?? ''}${next ?? ''}`;
      return `${name}${space ?? ''}${next ?? ''}`;
    },
  );
  if (/\b(?:he|she|himself|herself)\b/i.test(replaced)) return null;
  return replaced;
}

/**
 * The same fact in other words, so a true statement checks understanding rather than
 * recognition of a copied line: an opening time or place phrase moved to the end ("In 1455,
 * Gutenberg printed the Bible." → "Gutenberg printed the Bible in 1455."), a reason put after
 * its result ("Because books were slow to make, they were rare" keeps its order when the result
 * opens with a pronoun). Unchanged when no safe change applies.
 */
export function paraphrase(ctx: WriterContext, s: Sentence, statement: string): string {
  if (statement !== standAloneStatement(s, tellsAStory(detectGenre(ctx.analysis))))
    return statement;
  const t = s.tokens;
  const because = /^Because ([^,;]{8,120}), ([^,;]{8,160})\.$/.exec(statement);
  if (because) {
    const result = because[2]!;
    if (/^(?:he|she|it|they|this|that|these|those|there)\b/i.test(result)) return statement;
    const first = t.findIndex((x) => x.value === ',');
    const keepCapital = nameWord(ctx, t[first + 1]?.value ?? '') || /^I\b/.test(result);
    const head = keepCapital ? result : result.charAt(0).toLowerCase() + result.slice(1);
    return `${capitalise(head)} because ${decapitalise(because[1]!, nameWord(ctx, t[1]?.value ?? ''))}.`;
  }
  // "One spring, the potter sold her bowls." → "The potter sold her bowls one spring."
  // Moved to the end of a clause with a clause inside it, the phrase would attach to that one
  // ("… the finest blanket she had ever made one autumn"): only after a clause of one verb.
  const comma = t.findIndex((x) => x.value === ',');
  if (comma > 0 && clauseInside(t.slice(comma + 1))) return statement;
  const time = TIME_LEAD.exec(statement);
  if (time && !/[,;:—]/.test(time[2]!) && /[.!]$/.test(time[2]!))
    return `${capitalise(time[2]!.replace(/[.!]$/, ''))} ${time[1]!.charAt(0).toLowerCase()}${time[1]!.slice(1)}.`;
  const c = readClause(s, 0, t.length, { opensWithName: nameWord(ctx, t[0]?.value ?? '') });
  if (!c?.lead || c.lead[0] !== 0 || t[0]!.pos !== 'ADP' || t[c.lead[1] - 1]?.value !== ',')
    return statement;
  const at = statement.indexOf(',');
  const rest = statement.slice(at + 1).trim();
  if (/[,;:—]/.test(rest) || !/[.!]$/.test(rest)) return statement;
  const lead = statement.slice(0, at);
  return `${capitalise(rest.replace(/[.!]$/, ''))} ${lead.charAt(0).toLowerCase()}${lead.slice(1)}.`;
}

/**
 * A clause inside a run of tokens: a relative or joining word ("that", "who", "because") or a
 * subject pronoun after the first word with its verb ("the blanket she had made").
 */
export function clauseInside(tokens: Sentence['tokens']): boolean {
  return tokens.some(
    (x, i) =>
      /^(?:that|which|who|whom|whose|when|where|while|because|if|until|unless|although|though|since)$/i.test(
        x.value,
      ) ||
      (i > 0 &&
        /^(?:he|she|they|we|i|you|it)$/i.test(x.value) &&
        ['VERB', 'AUX'].includes(tokens[i + 1]?.pos ?? '')),
  );
}

// An opening time phrase of a noun ("One spring,", "That night,", "Last Sunday,").
const TIME_LEAD =
  /^((?:one|that|this|last|next|every|each|early one|late one|the next|the following) (?:morning|afternoon|evening|night|day|week|month|year|spring|summer|autumn|fall|winter|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)), (.+)$/i;

/** Ways to make a statement false while keeping it plausible: an opposite, another person or place, another number, a negation. */
function alterations(s: Sentence, statement: string, ctx: WriterContext): Alteration[] {
  const out: Alteration[] = [];
  s.tokens.forEach((token, i) => {
    // Opposites of describing words only: "most", "few", "first" are quantities and order
    // ("Least of the crew were sailors"), and adverbs rarely swap cleanly.
    if (token.pos !== 'ADJ' || token.value.length < 3) return;
    if (token.value.toLowerCase() !== (token.lemma || token.value).toLowerCase()) return;
    if (QUANTIFIERS.has(token.value.toLowerCase())) return;
    if (s.tokens[i + 1]?.normal === 'of') return;
    const opposite = antonymsOf(token.value.toLowerCase(), 'adj')[0];
    if (!opposite || opposite.includes(' ') || opposite.includes('-')) return;
    // An opposite in the passage's own words or a plain pair ("hot"/"cold"), not a
    // dictionary sense the text does not mean ("single book" → "double book").
    if (!ctx.analysis.words.has(`ADJ:${opposite}`) && !PLAIN_OPPOSITES.has(opposite)) return;
    // Only where the opposite reads naturally: not "five meters short", "its own heavy",
    // "a short but dangerous crossing" → "long but dangerous", "the empty moon".
    if (!oppositeFits(s, i, opposite)) return;
    // "The system worked, but it was expensive" → "but it was cheap" breaks the contrast.
    if (
      s.tokens.slice(0, i).some((x) => /^(?:but|yet|although|though|while|whereas)$/i.test(x.value))
    )
      return;
    // "Gull Rock, a small island": a describing word in an aside about a name is an incidental
    // detail ("spot the changed word"), not a fact the passage is about.
    if (/\p{Lu}[\p{L}]*,\s+(?:a|an|the)\s+(?:[\p{L}-]+\s+)?$/u.test(s.text.slice(0, token.start)))
      return;
    // "known as the cold chain" → "the hot chain": a name is not a fact that can be false, and
    // the words around it give the change away.
    if (
      /\b(?:called|named|known as|nicknamed)\s+(?:an?\s+|the\s+)?$/i.test(
        s.text.slice(0, token.start),
      )
    )
      return;
    // "was not new" → "was not old" is not a contradiction; "new ideas" → "old ideas" is rarely one.
    if (
      s.negative ||
      /^(?:old|new|young)$/.test(opposite) ||
      /^(?:old|new|young)$/i.test(token.value)
    )
      return;
    // The passage must not use the opposite of the same thing ("the lit part grows" and
    // "shrinks" of the same part at different times).
    const noun = s.tokens[i + 1]?.pos === 'NOUN' ? s.tokens[i + 1]!.normal : null;
    if (noun && ctx.reference.contains(`${opposite} ${noun}`)) return;
    const changed = replaceInStatement(statement, token.value, matchCase(token.value, opposite));
    if (changed) out.push({ statement: fixArticles(changed), how: 'opposite' });
  });
  const targets = targetsOf(s, ctx, 1, ['person', 'place', 'number']);
  for (const target of targets) {
    const swap = target.distractors[0];
    if (!swap) continue;
    // "one" and "1" change the agreement of the noun after them.
    if (
      target.kind === 'number' &&
      (/^(?:one|1)$/i.test(swap) || /^(?:one|1)$/i.test(target.answer))
    )
      continue;
    // "Paris" → "France" keeps the statement true: no swap between a place and one inside it.
    if (
      target.kind !== 'number' &&
      (placeWithin(target.answer, swap) || placeWithin(swap, target.answer))
    )
      continue;
    // "twenty-nine" → "nine-nine".
    if (target.kind === 'number' && insideCompound(statement, target.answer)) continue;
    // "Joseph taught herself", "Grandpa Tom lived with her grandfather".
    if (
      target.kind === 'person' &&
      !personSwapFits(ctx.analysis, statement, target.answer, swap, peopleOf(ctx.analysis).people)
    )
      continue;
    if (target.kind === 'number' && !numberSwapFalse(statement, target.answer, swap)) continue;
    // "50 degrees" → "250 degrees": a figure several times the true one is absurd, not false.
    if (target.kind === 'number') {
      const a = numberValue(target.answer);
      const b = numberValue(swap);
      const year = (x: number) => x >= 1000 && x <= 2100 && /^\d{4}$/.test(String(x));
      if (Number.isFinite(a) && Number.isFinite(b) && a > 0 && b > 0) {
        if (year(a) !== year(b)) continue;
        // "1843" → "1844": a year one off reads as a trick, not a fact the passage is about.
        if (year(a) && Math.abs(a - b) < 3) continue;
        if (!year(a) && Math.max(a, b) / Math.min(a, b) > 3) continue;
      }
    }
    // "England" → "Netley": false only when both are places WordNet knows (a town the passage
    // names may lie inside the country), and neither inside the other.
    if (
      target.kind === 'place' &&
      // (and both are places: "the most common letter in English" → "in Washington").
      (lexFileOf(target.answer.replace(/\s+/g, '_'), 'noun') !== 15 ||
        lexFileOf(swap.replace(/\s+/g, '_'), 'noun') !== 15)
    )
      continue;
    // "near New York, Nebraska", "the president of the Sierra Nevada".
    if (target.kind === 'place' && !placeSwapFits(ctx.analysis, statement, target.answer, swap))
      continue;
    // False only when the passage contradicts it, not when it merely does not say it.
    if (target.kind !== 'number' && !swapContradicted(ctx.analysis, s, target.answer, swap))
      continue;
    const changed = replaceInStatement(statement, target.answer, swap);
    if (changed) out.push({ statement: fixArticles(changed), how: target.kind });
  }
  // Stories: another character of the cast in place of the one who acts.
  if (!out.some((a) => a.how === 'person')) out.push(...castSwaps(ctx, s, statement));
  // A plain negation only when no fact could be changed (compromise is the slowest step), and
  // only of a short sentence of one clause ("did not commence by inuring…" reads badly).
  // "Many species have never been named" → "Many species have been named" is true as well: a
  // statement about some of a group is not contradicted by its negation.
  const someOf =
    /\b(?:many|some|few|several|most|certain|numerous|a lot of|lots of|often|sometimes|usually)\b/i;
  if (
    out.length === 0 &&
    singleClause(s) &&
    !someOf.test(statement) &&
    !needsItsNegation(statement)
  ) {
    try {
      const doc = nlpCompromise(statement);
      const flipped = (s.negative ? doc.sentences().toPositive() : doc.sentences().toNegative())
        .text()
        .trim();
      // "does not make cold" → "does make cold": an emphatic "do" left behind reads badly.
      if (
        flipped &&
        normaliseForMatch(flipped) !== normaliseForMatch(statement) &&
        !/\b(?:do|does|did) (?!not\b|n't)\w+/i.test(flipped) &&
        // "Grandma put the towel …" → "Grandma does not put …": a past told in the present.
        !(/\b(?:do|does) not\b/i.test(flipped) && pastNarration(ctx))
      )
        out.push({ statement: flipped, how: 'negation' });
    } catch {
      // compromise could not parse the sentence; there is no alteration then.
    }
  }
  return out;
}

/** The text tells of the past: more "was", "had", "did" than "is", "has", "does". */
function pastNarration(ctx: WriterContext): boolean {
  let past = 0;
  let present = 0;
  for (const x of ctx.analysis.sentences.flatMap((s) => s.tokens)) {
    if (/^(?:was|were|had|did)$/i.test(x.value)) past++;
    else if (/^(?:is|are|am|has|have|does|do)$/i.test(x.value)) present++;
  }
  return past > present;
}

const PLAIN_OPPOSITES = new Set(
  'hot cold warm cool large small big little high low fast slow early late wet dry old young new heavy light long short deep shallow rich poor strong weak easy hard cheap expensive rare common thick thin wide narrow full empty safe dangerous quiet loud dark bright happy sad'.split(
    ' ',
  ),
);

const QUANTIFIERS = new Set(
  'most least more less many few much little all some first last only other same own such several enough next former latter'.split(
    ' ',
  ),
);

/** A short sentence of one clause: no comma, no joining word, one verb group. */
function singleClause(s: Sentence): boolean {
  if (s.words > 14 || /[,;:]/.test(s.text)) return false;
  if (
    s.tokens.some((t) =>
      /^(?:and|but|or|because|although|though|while|when|which|who|that|if|since|after|before|until)$/i.test(
        t.value,
      ),
    )
  )
    return false;
  return s.tokens.filter((t) => t.pos === 'VERB').length <= 1;
}

const BE = /^(?:is|are|was|were|looked|seemed|felt|smelled|sounded)$/i;

/**
 * A sentence too incidental for a true statement copied from the text (raters: "trivial"): a
 * story's opening line or a line that sets the scene ("Long ago there lived a weaver"), or a
 * plain description of a thing, its verb "be" with only adjectives after it ("The road was
 * long and dusty."). A turn (a change, a decision, a feeling), a cause or a key claim is never
 * incidental.
 */
export function incidental(s: Sentence, story: boolean): boolean {
  if (carriesWeight(s) || CLAIM.test(s.text)) return false;
  if (SETTING.test(s.text)) return true;
  if (story && s.index === 0) return true;
  const t = s.tokens;
  const verbs = t.filter((x) => x.pos === 'VERB' || x.pos === 'AUX');
  if (verbs.length !== 1 || !BE.test(verbs[0]!.value)) return false;
  const at = t.indexOf(verbs[0]!);
  // The subject a thing, not a person ("Mira was tall" describes a character).
  if (
    t.slice(0, at).some((x) => x.pos === 'PROPN' || x.pos === 'PRON' || PERSON_NOUN.test(x.value))
  )
    return false;
  const after = t.slice(at + 1).filter((x) => /[\p{L}]/u.test(x.value));
  return after.length > 0 && after.every((x) => ['ADJ', 'ADV', 'CCONJ', 'DET'].includes(x.pos));
}

/**
 * True/false statements: true ones are sentences of the text (first-person narration told as
 * "the narrator"); false ones are real sentences changed in one fact (an opposite, another
 * person, place or number from the text, or a negation), with the original as the correction.
 */
export function writeTrueFalse(ctx: WriterContext, count: number): TrueFalseQuestion[] {
  const shared = ctx.sequenceOptions ?? new Set<number>();
  for (const i of shared) ctx.usedSentences.delete(i);
  try {
    return trueFalseOf(ctx, count, shared);
  } finally {
    for (const i of shared) ctx.usedSentences.add(i);
  }
}

const SUBORDINATOR =
  /^(?:as|when|while|if|because|though|although|since|before|after|until|unless|whereas|once)$/i;

/**
 * The part of a sentence before its first semicolon, as a sentence of its own: a semicolon joins
 * independent clauses, so the first one is a whole statement ("The sun rose as I went down the
 * road; and by the time …" → "The sun rose as I went down the road."). Null when there is no
 * semicolon, the part is short, has no finite verb, or is not the narration (quotes, a colon).
 */
export function beforeSemicolon(s: Sentence): Sentence | null {
  const at = s.text.indexOf(';');
  if (at < 0 || s.hasQuotes || /[:“”"‘]/.test(s.text.slice(0, at))) return null;
  const tokens = s.tokens.filter((x) => x.end <= at);
  const words = tokens.filter((x) => /\p{L}/u.test(x.value)).length;
  // Short heads lean on what follows ("I didn't mean to; …", "I smiled at the notion; …").
  if (words < 7 || words > 25) return null;
  const lead = tokens.find((x) => x.pos !== 'CCONJ' && /\p{L}/u.test(x.value));
  // "(But) as the skull embraces so large a part of the skeleton; …": a subordinate clause with
  // no main clause after a comma is no statement.
  if (
    (lead?.pos === 'SCONJ' || SUBORDINATOR.test(lead?.value ?? '')) &&
    !tokens.some(
      (x, i) =>
        i > 0 &&
        x.value === ',' &&
        tokens.slice(i + 1).some((y) => y.pos === 'VERB' || y.pos === 'AUX'),
    )
  )
    return null;
  if (!tokens.some((x) => x.pos === 'AUX' || (x.pos === 'VERB' && !/ing$/i.test(x.value))))
    return null;
  const text = `${s.text.slice(0, at).replace(/[\s,]+$/, '')}.`;
  const stop: Token = {
    value: '.',
    normal: '.',
    lemma: '.',
    pos: 'PUNCT',
    start: text.length - 1,
    end: text.length,
    stop: false,
  };
  return { ...s, text, tokens: [...tokens, stop], words };
}

function trueFalseOf(ctx: WriterContext, count: number, shared: Set<number>): TrueFalseQuestion[] {
  const out: TrueFalseQuestion[] = [];
  const isPlay = ctx.analysis.prepared.isPlay;
  const sentences = isPlay
    ? pickSentences(ctx, count * 2, { minWords: 5 }, (s) => !!s.speechQuote && s.opensSpeech)
    : [
        // Statements that name everything they speak of first; then, for chapters of a novel
        // where few do, sentences whose subject at least is named.
        ...pickSentences(
          ctx,
          // First-person texts leave few sentences that stand alone: look further.
          count * 12,
          { noQuotes: true },
          (s) => !PRONOUN_SUBJECT.test(s.text) && !statementNeedsReferent(s),
        ),
        ...pickSentences(
          ctx,
          count * 12,
          { noQuotes: true },
          (s) =>
            !PRONOUN_SUBJECT.test(s.text) && !subjectNeedsReferent(s) && statementNeedsReferent(s),
        ),
        // Stories: "She was poor" told with the person's name when it is clear who is meant.
        ...pickSentences(ctx, count * 4, { noQuotes: true }, (s) => /^(?:he|she) /i.test(s.text)),
      ];
  let wantFalse = ctx.random() < 0.5;
  // Sentences of little weight (the opening line that sets the scene, a plain description) are
  // kept back from true statements and used only when the text has too few others.
  const deferred: Sentence[] = [];
  const story = tellsAStory(detectGenre(ctx.analysis));
  const queue = [...sentences];
  let fallback = false;
  for (let q = 0; ; q++) {
    if (q === queue.length) {
      if (fallback || !deferred.length || out.length > count) break;
      queue.push(...deferred);
      fallback = true;
    }
    const whole = queue[q]!;
    if (out.length >= (ctx.spares === 0 ? count : count * 2)) break;
    if (isPlay && whole.speaker && whole.speechQuote) {
      const line = `${whole.speaker} says, ${quote(whole.text)}`;
      if (wantFalse) {
        const other = shuffle(
          ctx.analysis.prepared.speakers.filter((p) => p !== whole.speaker),
          ctx.random,
        )[0];
        if (!other) continue;
        out.push({
          id: nextId(),
          kind: 'true_false',
          prompt: `${other} says, ${quote(whole.text)}`,
          form: 'tf_swap',
          answer: false,
          evidence: whole.speechQuote,
          correction: line,
        });
      } else {
        out.push({
          id: nextId(),
          kind: 'true_false',
          prompt: line,
          form: 'tf_true',
          answer: true,
          evidence: whole.speechQuote,
        });
      }
      markUsed(ctx, whole);
      wantFalse = !wantFalse;
      continue;
    }
    let s = whole;
    let alone = statementOf(ctx, s);
    if (!alone || narratorCount(alone) > 1) {
      // A long sentence that does not stand alone whole: its first independent clause may.
      const head = beforeSemicolon(s);
      alone = head && statementOf(ctx, head);
      if (!head || !alone || narratorCount(alone) > 1) continue;
      s = head;
    }
    if (!isClaim(ctx, s, alone)) continue;
    const statement = paraphrase(ctx, s, alone);
    // A bare "not" in a sentence of little weight ("Nora did not look out of the window") asks
    // nothing worth asking: negations only of the passage's more important sentences.
    const options =
      wantFalse && !shared.has(s.index)
        ? alterations(s, statement, ctx).filter(
            (a) =>
              !ctx.reference.contains(a.statement) &&
              // Nor of the opening line: "A bird did not come down the walk" denies the premise.
              (a.how !== 'negation' || (important(ctx, s, 0.75) && s.index > 0)),
          )
        : [];
    // Prefer a changed fact to a plain negation: it makes students read closely.
    const pick = options.find((a) => a.how !== 'negation') ?? options[0];
    if (wantFalse && pick) {
      out.push({
        id: nextId(),
        kind: 'true_false',
        prompt: pick.statement,
        form: pick.how === 'negation' ? 'tf_negation' : 'tf_swap',
        answer: false,
        evidence: whole.text,
        correction: statement,
      });
    } else {
      if (!fallback && incidental(s, story)) {
        deferred.push(whole);
        continue;
      }
      out.push({
        id: nextId(),
        kind: 'true_false',
        prompt: statement,
        form: 'tf_true',
        answer: true,
        evidence: whole.text,
      });
    }
    markUsed(ctx, s);
    // Keep true and false statements about even.
    const falses = out.filter((q) => !q.answer).length;
    wantFalse =
      falses < out.length - falses || (falses === out.length - falses && ctx.random() < 0.5);
  }
  return out;
}

/* ---------------------------------------------------------------------------------------- */
/* Fill in the blank                                                                         */
/* ---------------------------------------------------------------------------------------- */

/** Sentences of the text with one key word taken out; the word is the answer. */
export function writeFillBlank(ctx: WriterContext, count: number): FillBlankQuestion[] {
  const out: FillBlankQuestion[] = [];
  const wanted = ctx.spares === 0 ? count : count * 2;
  // Many sentences offer no blank worth asking: look through more of them.
  const sentences = pickSentences(ctx, count * 4, {});
  // The text's main name ("the Sahara", "Mary Anning", "Earth") is no blank: every student knows
  // it; nor a capitalised first word that is a common noun ("Families", "Scientists").
  const names = [...ctx.analysis.names.values()];
  const most = Math.max(0, ...names.map((n) => n.count));
  const obviousName = (answer: string) => {
    // "Mary Anning" when "Mary" is named throughout.
    for (const part of [answer, ...answer.split(/\s+/)]) {
      const info = ctx.analysis.names.get(part);
      if (info && (info.count >= 4 || info.count === most)) return true;
    }
    const common = answer
      .toLowerCase()
      .replace(/ies$/, 'y')
      .replace(/(?<=[^s])s$/, '');
    return /^[A-Z][a-z]+$/.test(answer) && !!lookup(common, 'noun');
  };
  // Blanks that matter first (issue 22, trivial): not an everyday word ("water", "door"), not one
  // item of a list, not half of a set phrase; everyday words only when nothing better is left.
  // Blanks that matter first (a word the text repeats or holds among its key phrases).
  const tiers = ctx.plan.level <= 3 ? [0, 1, 2] : [0, 1];
  for (const [p, tier] of [0, ...tiers].entries()) {
    const strict = tier === 0;
    const key = p === 0;
    for (const s of sentences) {
      if (out.length >= wanted) break;
      if (ctx.usedSentences.has(s.index)) continue;
      if (subjectNeedsReferent(s)) continue;
      const target = targetsOf(s, ctx, 0).find(
        (t) =>
          (t.kind !== 'number' || ctx.plan.level > 2) &&
          // A person's name with no options to choose from is recall of a label and its
          // spelling ("Blanck and _____ were tried"), not of what the text says; multiple
          // choice still asks for people, with the text's other people as options.
          t.kind !== 'person' &&
          (!key || keyBlank(ctx.analysis, t)) &&
          !(/^\p{Lu}/u.test(t.answer) && obviousName(t.answer)) &&
          worthABlank(ctx, s, t, tier) &&
          (!strict ||
            // A year or a measured figure, not "three fishing boats" or "six other countries".
            (t.kind === 'number' ? /\d/.test(t.answer) : worthMatching(t.answer, ctx.plan.level))),
      );
      if (!target) continue;
      out.push({
        id: nextId(),
        kind: 'fill_blank',
        prompt: replaceSpan(s, target.start, target.end, BLANK),
        form: 'cloze',
        answer: target.answer,
        evidence: s.text,
      });
      markUsed(ctx, s, target.answer);
    }
  }
  return out;
}

/** "flour, salt, and oil": one item of a list (any other item fits the blank as well). */
function listItem(s: Sentence, start: number, end: number): boolean {
  const before = s.text.slice(Math.max(0, start - 40), start);
  const after = s.text.slice(end, end + 40);
  const series = (s.text.match(/,/g) ?? []).length >= 1 && /\b(?:and|or)\b/.test(s.text);
  if (!series) return false;
  return (
    (/,\s*(?:and\s+|or\s+)?(?:\w+\s+)?$/.test(before) && /^(?:\s*,|\s+(?:and|or)\b)/.test(after)) ||
    (/,\s*(?:and|or)\s+(?:\w+\s+)?$/.test(before) && /^\s*[.,;]/.test(after)) ||
    (/(?:^|\s)(?:\w+\s+)?$/.test(before) && /^,\s*\w+(?:\s+\w+)?,\s*(?:and|or)\b/.test(after))
  );
}

/** "the Pacific _____", "internet _____", "low _____": half of a phrase WordNet lists as one. */
function setPhrase(s: Sentence, start: number, end: number): boolean {
  const word = s.text.slice(start, end).toLowerCase();
  const prev = /([A-Za-z]+)\s+$/.exec(s.text.slice(0, start))?.[1]?.toLowerCase();
  const next = /^\s+([A-Za-z]+)/.exec(s.text.slice(end))?.[1]?.toLowerCase();
  const singular = (w: string) => w.replace(/(?<=[^s])s$/, '');
  return (
    (!!prev && !!lookup(`${prev} ${singular(word)}`, 'noun')) ||
    (!!next && !!lookup(`${word} ${singular(next)}`, 'noun'))
  );
}

/* ---------------------------------------------------------------------------------------- */
/* Short answer                                                                              */
/* ---------------------------------------------------------------------------------------- */

/** "What did Victor study at Ingolstadt?" from "Victor studied chemistry at Ingolstadt." */
function whatQuestion(ctx: WriterContext, s: Sentence): { prompt: string; answer: string } | null {
  // "Critics raise real objections.": a four-word sentence asks nothing; verse lines read badly.
  if (s.hasQuotes || s.speaker || s.words > 26 || s.words < 7) return null;
  if (isVerse(s, (w) => nameWord(ctx, w) && (ctx.analysis.names.get(w)?.count ?? 2) >= 2))
    return null;
  const c = clauseOf(ctx, s, 0, s.tokens.length, true);
  if (!c || !c.verb || commonVerb(c.verb.lemma)) return null;
  if (c.pronoun && !resolvePronoun(ctx, c, null)) return null;
  const t = s.tokens;
  // A story is about what its people and animals do: "What had the fog buried?", "What did
  // a corridor join?" ask about the scenery.
  if (tellsAStory(detectGenre(ctx.analysis)) && !c.pronoun) {
    const head = t[c.subjectEnd - 1]!;
    const animate =
      /^I$/.test(head.value) ||
      storyCast(ctx.analysis).some((m) =>
        m.pattern.test(spanText(s, c.subjectStart, c.subjectEnd)),
      ) ||
      [5, 18].includes(lexFileOf(head.lemma.toLowerCase(), 'noun'));
    if (!animate) return null;
  }
  let o = c.restStart;
  const objectStart = o;
  // "the little boat many times": once the head noun is reached, only more nouns belong to it.
  let head = false;
  while (t[o] && ['DET', 'ADJ', 'NOUN', 'PROPN', 'NUM'].includes(t[o]!.pos)) {
    if (head && t[o]!.pos !== 'NOUN' && t[o]!.pos !== 'PROPN') break;
    if (t[o]!.pos === 'NOUN' || t[o]!.pos === 'PROPN') head = true;
    o++;
  }
  if (o === objectStart || o - objectStart > 5) return null;
  const last = t[o - 1]!;
  if (last.pos !== 'NOUN' && last.pos !== 'PROPN') return null;
  // "crossed forty miles" (a measure, "how far"), "fell hissing" (a manner, not a thing).
  if (t.slice(objectStart, o).some((x) => x.pos === 'NUM')) return null;
  if (/ing$/i.test(last.value) && o - objectStart === 1) return null;
  // "shrinks night by night", "rowed many times": a time phrase, not what the verb acts on.
  if (
    /^(?:night|nights|day|days|time|times|year|years|week|weeks|month|months|hour|hours|morning|evening|moment)$/i.test(
      last.value,
    )
  )
    return null;
  if (t[objectStart]!.pos === 'DET' && /^(?:this|that|these|those)$/i.test(t[objectStart]!.value))
    return null;
  // "called a compositor arranged the letters": a verb after the object means it was not one.
  // … and "spend a year or more producing": only a preposition or the end may follow it.
  const after = t[o];
  if (after && after.pos !== 'ADP' && /\w/.test(after.value)) return null;
  if (after && after.normal === 'of') return null;
  const prompt = invertedQuestion(c, 'What', [objectStart, o]);
  if (!prompt) return null;
  const object = spanText(s, objectStart, o);
  // "What do scientists describe in layers? The forest.": the passage's topic or main name as
  // the answer checks nothing.
  const topics = topicWords(ctx.analysis);
  const names = [...ctx.analysis.names.values()];
  const most = Math.max(0, ...names.map((n) => n.count));
  if (
    t
      .slice(objectStart, o)
      .some(
        (x) =>
          topics.has(x.lemma.toLowerCase()) ||
          (x.pos === 'PROPN' && (ctx.analysis.names.get(x.value)?.count ?? 0) >= Math.max(3, most)),
      )
  )
    return null;
  return { prompt, answer: `${capitalise(object)}.` };
}

/**
 * Short-answer questions built from the grammar of the text: why (its causes), who/when/where/
 * how many, what is … called, what did … do. No generic "what does the text say about X"
 * prompts: without a real question the writer abstains.
 */
export function writeShortAnswer(ctx: WriterContext, count: number): ShortAnswerQuestion[] {
  const out: ShortAnswerQuestion[] = [];
  const want = count + Math.min(1, ctx.spares ?? 1);
  const pool = candidateSentences(ctx, count * 8);
  const all = ctx.analysis.sentences.filter((s) => !ctx.usedSentences.has(s.index));
  const candidates: FormCandidate[][] = [
    interleave(causeCandidates(ctx, all, 0), whenCandidates(ctx, all, 0)),
    interleave(
      pool.flatMap((s) => whCandidates(ctx, s)),
      mannerCandidates(ctx, all),
    ),
    tellsAStory(detectGenre(ctx.analysis)) || ctx.analysis.sentences.length > 150
      ? shuffle(speakerCandidates(ctx, all), ctx.random)
      : [],
    // Stories: who did it, what they acted on, where.
    pool.flatMap((s) => storyCandidates(ctx, s, true)),
    all.flatMap((s) => {
      const q = whatQuestion(ctx, s);
      return q
        ? [
            {
              form: 'wh' as const,
              prompt: q.prompt,
              answer: q.answer,
              distractors: [],
              modelAnswer: q.answer,
              evidence: s.text,
              sentences: [s.index],
            },
          ]
        : [];
    }),
  ];
  for (let round = 0; round < want * 3 && out.length < want; round++) {
    let any = false;
    for (const list of candidates) {
      if (out.length >= want) break;
      while (list.length) {
        const c = list.shift()!;
        if (c.sentences.some((i) => ctx.usedSentences.has(i))) continue;
        if (!readsAlone(ctx, c) || !soundWh(ctx, c)) continue;
        // A character may be the answer of several questions about different lines.
        if (!c.prompt.startsWith('Who') && ctx.usedAnswers.has(normaliseForMatch(c.answer)))
          continue;
        out.push({
          id: nextId(),
          kind: 'short_answer',
          form: c.form,
          prompt: c.prompt,
          answer: c.modelAnswer,
          evidence: c.evidence,
        });
        for (const i of c.sentences) ctx.usedSentences.add(i);
        ctx.usedAnswers.add(normaliseForMatch(c.answer));
        any = true;
        break;
      }
    }
    if (!any) break;
  }
  return out;
}

/* ---------------------------------------------------------------------------------------- */
/* Discussion                                                                                */

// WordNet's abstract noun categories: act, attribute, cognition, communication, feeling, state…
const ABSTRACT_LEXFILES = new Set([4, 7, 9, 10, 12, 16, 22, 26]);

/** "the storm", but "happiness" and "friends" without an article. */
export function themePhrase(theme: string, ctx: WriterContext): string {
  const t = theme.toLowerCase();
  if (t.includes(' ') || /s$/.test(t)) return t.includes(' ') ? `the ${t}` : t;
  const info = ctx.analysis.words.get(`NOUN:${t}`);
  const lexFile = info ? describeWord(info).lexFile : lexFileOf(t, 'noun');
  return ABSTRACT_LEXFILES.has(lexFile) ? t : `the ${t}`;
}

/* ---------------------------------------------------------------------------------------- */

// What a character does that shows what they are like: a choice, an effort, a refusal, help.
const TRAIT_VERBS =
  /^(?:decide|refuse|try|keep|insist|promise|dare|choose|offer|help|give|share|practise|practice|ignore|beg|agree|obey|disobey|lie|hide|steal|forgive|thank|apologize|apologise|comfort|protect|rescue|save|risk|volunteer|admit|confess|defend|hesitate|worry|trust|boast|brag|tease|scold|warn|persuade|bargain|sacrifice|struggle|manage|fail|succeed)$/;
const NOT_MANNER =
  /^(?:only|early|nearly|finally|really|suddenly|exactly|simply|hardly|mostly|usually|probably|certainly|likely|immediately|eventually|recently|already|daily|merely|fully|truly|rarely|barely|clearly|slowly|lately|largely)$/;

/** Prediction prompts ("What do you think will happen next?"): off until open endings can be told. */
const PREDICTIONS = false;

/**
 * A sentence that shows what a character is like: a trait named ("she was the most patient
 * weaver"), a manner ("patiently", "angrily"), a choice or an effort ("refused", "kept
 * rowing"), or an act in spite of something ("even though", "instead").
 */
export function showsTrait(s: Sentence): boolean {
  const t = s.tokens;
  if (
    /\b(?:even though|although|though|instead|despite|in spite of|anyway|without (?:a|any) )\b/i.test(
      s.text,
    )
  )
    return true;
  return t.some((x, i) => {
    if (x.pos === 'ADV' && /ly$/.test(x.normal) && !NOT_MANNER.test(x.normal)) return true;
    if (x.pos === 'VERB' && TRAIT_VERBS.test(x.lemma.toLowerCase())) return true;
    // "the most patient weaver", "so kind"
    const prev = t[i - 1]?.normal ?? '';
    return (
      (x.pos === 'ADJ' || x.pos === 'NOUN') &&
      // (A degree makes it a portrait; "was quiet for a long moment" is a moment's state.)
      /^(?:most|very|so|too)$/.test(prev) &&
      lexFileOf(x.normal, 'adj') === 0
    );
  });
}

// Words of the senses: colour, light, sound, touch, temperature, smell, weather, violent motion.
const SENSORY = new Set(
  (
    'red crimson scarlet black white grey gray golden gold silver green blue yellow purple pale dark darkness bright ' +
    'glow glowed glowing gleam gleamed gleaming shine shone shining flash flashed flicker flickered flickering shadow ' +
    'shadows glitter sparkle sparkled blaze blazing dim dimly shimmer shimmering glare glinted moonlight sunlight ' +
    'starlight lamplight roar roared roaring howl howled howling whisper whispered crash crashed thunder creak creaked ' +
    'hiss hissed rumble rumbled silent silence quiet hush loud echo echoed scream screamed moan moaned wail wailed ' +
    'shriek shrieked splash splashed drip dripping cold icy freezing frozen chill chilly warm hot burning wet soaked ' +
    'drenched damp rough smooth sharp soft hard stiff sweet bitter sour salt salty smoke smoky stench fragrant ' +
    'storm stormy wind winds gust gusts rain fog mist misty spray foam waves wave snow hail lightning ' +
    'tossed lashed swirled swirling shivered trembled trembling flapped flapping shook shaking pounded pounding'
  ).split(' '),
);

/** A sentence with images to talk about: a comparison, or two words of the senses. */
export function hasImagery(s: Sentence): boolean {
  if (/\b(?:like (?:a|an|the|some)|as \w+ as)\b/i.test(s.text)) return true;
  const words = new Set(s.tokens.map((t) => t.normal));
  return [...words].filter((w) => SENSORY.has(w)).length >= 2;
}

// A turn in a story: a contrast, a change, a decision, a problem, a strong feeling.
const TURN =
  /[,;]\s*(?:but|yet)\b|^(?:but|yet|then|suddenly|at last|finally)\b|\b(?:although|though|instead|however|suddenly|at last|for the first time|no longer|never again|decided|decides|made up (?:his|her|my|their) mind|chose|refused|promised|realised|realized|understood|discovered|learned|began to|became|turned into|could not|couldn't|can't|cannot|too late|lost|missing|afraid|frightened|scared|worried|angry|furious|ashamed|proud|delighted|wept|cried|shouted|screamed|trouble|danger|help)\b/i;
// An opening that sets the scene ("Long ago … there lived a weaver"): not a moment.
const SETTING =
  /\b(?:there (?:lived|was|were|once)|once upon a time|long ago|lived with|lived in|lived at)\b/i;

/**
 * A sentence worth asking "why is this moment important?" about: a turning point (a problem, a
 * change, a decision, a feeling, a contrast), not a routine step ("She looked in her coat
 * pocket.") or the sentence that sets the scene.
 */
export function carriesWeight(s: Sentence): boolean {
  if (SETTING.test(s.text)) return false;
  if (s.words < 6) return false;
  return TURN.test(s.text);
}

// A claim an explanation turns on: a cause, a consequence, a contrast, a judgement.
const CLAIM =
  /\b(?:because|so that|therefore|as a result|which (?:means|helps|makes|lets)|this (?:means|is why)|that is why|causes?d?|leads? to|led to|without|instead|but|however|although|important|necessary|allowed|made it possible|changed|helps?|protects?|depends? on|needs?|must|should)\b/i;
// A plain definition or naming ("A coconut is a seed …", "A worker called a compositor …").
const NAMING =
  /^(?:an?|the) \w+(?: \w+)? (?:called|named|known as)\b|^(?:an?) \w+ (?:is|are) (?:an?|the) \w+/i;

/**
 * A sentence of an explanation worth connecting to its main idea: a key claim (a cause, a
 * consequence, a contrast, a judgement), not a side fact, a naming, or the topic sentence
 * itself (the opening sentence usually states the main idea: "how does it connect to the
 * main idea?" asks nothing there).
 */
export function keyClaim(s: Sentence): boolean {
  // Short general statements ("Worms are a big help to farms.") are the main idea itself.
  if (s.index === 0 || s.words < 8) return false;
  if (NAMING.test(s.text)) return false;
  return CLAIM.test(s.text);
}

/**
 * Open questions for discussion or essays, pitched to the grade: characters, themes (the
 * passage's key phrases), the author's choices, predictions. Each cites the passage it is
 * about, and the key says what a strong answer includes.
 */
export function writeDiscussion(ctx: WriterContext, count: number): DiscussionQuestion[] {
  const out: DiscussionQuestion[] = [];
  const level = ctx.plan.level;
  // Characters only in a story (gen-v): no "How does the author reveal Bible's character?".
  const genre = detectGenre(ctx.analysis);
  const story = tellsAStory(genre);
  // Texts that explain or argue get questions filled with what they say (discussion-info.ts).
  const explains = genre === 'informational' || genre === 'argument';
  const people = peopleOf(ctx.analysis).characters;

  const makers: Array<() => DiscussionQuestion | null> = [];
  people.slice(0, 3).forEach((person) => {
    makers.push(() => {
      // A detail that shows what the character is like (a choice, an effort, a manner, a
      // trait named), not "By the time Nora rowed back, the rain had begun."
      const s = pickSentences(
        ctx,
        1,
        { maxWords: 60 },
        (x) => isAbout(x, person) && showsTrait(x),
      )[0];
      if (!s) return null;
      markUsed(ctx, s);
      const prompt =
        level <= 2
          ? `How do you think ${person} feels in this part of the story? Why?`
          : level <= 5
            ? `What kind of person is ${person}? Use a detail from the text to explain your answer.`
            : `How does the author reveal ${person}'s character in this passage? Support your answer with evidence from the text.`;
      return {
        id: nextId(),
        kind: 'discussion',
        form: 'discussion',
        prompt,
        answer: `A strong answer names a trait of ${person} that the text supports and backs it with a detail such as ${quote(s.text)}, explaining what that detail shows about ${person}.`,
        evidence: s.text,
      };
    });
  });
  // "What does the passage suggest about the snow?", "Why is the straw important in the
  // story?": a frequent noun is not what a passage is about, and raters struck such prompts one
  // time in two. No theme prompts on a word; the character, imagery, prediction and
  // "explain in your own words" prompts below carry the discussion.
  makers.push(() => {
    // Mood and imagery are for stories and poems, not an ordinary sentence of an explanation.
    if (explains) return null;
    // Not a sentence with speech in it: quoted inside a quotation it reads broken.
    const s = pickSentences(
      ctx,
      1,
      {
        maxWords: 45,
        prefer: (x) => 0.5 + Math.abs(x.sentiment) * 2,
      },
      // A sentence with images to talk about (two describing words, or a comparison), not "A
      // year later, Joseph found a strange skull in the cliffs."
      // Not a plain short statement ("The snow was deep and white.") and not a fragment of a
      // verse sentence that starts on its verb ("Flapped in the morning wind: …").
      (x) =>
        !/["“”]/.test(x.text) &&
        hasImagery(x) &&
        x.words >= 8 &&
        x.tokens[0]?.pos !== 'VERB' &&
        !/[,;:]\s*\p{Lu}\p{Ll}*!$/u.test(x.text),
    )[0];
    if (!s) return null;
    markUsed(ctx, s);
    const prompt =
      level <= 5
        ? `Read this sentence again: ${quote(s.text)} What picture does it put in your mind? Which words help you see it?`
        : `Read this sentence again: ${quote(s.text)} Which words create a picture or a mood here, and what do they show about this moment in the text?`;
    return {
      id: nextId(),
      kind: 'discussion',
      form: 'inference',
      prompt,
      answer:
        'A strong answer names specific words or images in the sentence, says what mood or idea they create, and connects it to what is happening in the passage.',
      evidence: s.text,
    };
  });
  makers.push(() => {
    // Predictions are for stories; an informational text or a poem is not waiting for its next event.
    // Nor is a whole tale, or an excerpt that closes a scene: independent raters struck the
    // prediction prompt on most stories (the generator cannot tell an open ending from a closed
    // one), so it is not asked.
    if (!story || genre === 'poem' || !PREDICTIONS) return null;
    // A clue from the end: the last paragraph, not a sentence two paragraphs before it.
    const all = ctx.analysis.sentences;
    const lastParagraph = all.at(-1)?.paragraph;
    const s = pickSentences(
      ctx,
      1,
      { maxWords: 45 },
      (x) => x.paragraph === lastParagraph && x.index >= all.length - 3,
    )[0];
    if (!s) return null;
    markUsed(ctx, s);
    const last = s.index === all.length - 1;
    const prompt =
      level <= 8
        ? `What do you think will happen next? Use a clue from the end of the passage, such as ${quote(s.text)}, to explain your prediction.`
        : last
          ? `The passage ends: ${quote(s.text)} How does this ending prepare the reader for what follows? Explain your reasoning.`
          : `Near the end of the passage we read: ${quote(s.text)} How does this prepare the reader for what follows? Explain your reasoning.`;
    return {
      id: nextId(),
      kind: 'discussion',
      form: 'inference',
      prompt,
      answer:
        'Any reasoned prediction is acceptable if it uses a clue from the end of the passage and explains how the clue points to it.',
      evidence: s.text,
    };
  });

  // Further questions on the passage's most important sentences, for long or name-poor texts.
  for (let i = 0; i < 4; i++) {
    makers.push(() => {
      const s = pickSentences(
        ctx,
        1,
        { maxWords: 50, noQuotes: !ctx.analysis.prepared.isPlay },
        // Not an incidental figure ("Around 180 copies were printed …") for "the main idea".
        // Only a sentence that carries weight: a key claim of an explanation, a turning point
        // of a story (raters struck "Why is this moment important?" on "She looked in her
        // coat pocket." and on the opening "there lived a weaver"). Better no prompt than that.
        explains
          ? (x: Sentence) => standsAlone(x) && !/\d/.test(x.text) && keyClaim(x)
          : (x: Sentence) => x.index > 0 && carriesWeight(x),
      )[0];
      if (!s) return null;
      markUsed(ctx, s);
      const prompt =
        level <= 2
          ? `The text says: ${quote(s.text)} What does this tell us? Why is it important?`
          : explains
            ? `Explain in your own words what the text means here: ${quote(s.text)} How does this detail connect to the main idea of the text?`
            : level <= 8
              ? `Explain in your own words what the text means here: ${quote(s.text)} Why is this moment important?`
              : `Consider the sentence ${quote(s.text)} What does it reveal, and how does it connect to the passage as a whole?`;
      return {
        id: nextId(),
        kind: 'discussion',
        form: 'discussion',
        prompt,
        answer:
          'A strong answer restates the sentence accurately in the student’s own words, explains why it matters in the passage, and supports the explanation with another detail from the text.',
        evidence: s.text,
      };
    });
  }

  // Alternate the kinds of question (character, theme, craft, prediction) rather than asking about three characters in a row.
  const personMakers = makers.slice(0, Math.min(3, people.length));
  // "What does the passage suggest about the snow?", "Why is the straw important in the
  // story?": a frequent noun is not what a passage is about, and independent raters struck
  // such prompts one time in two; the character, imagery, prediction and "in your own words"
  // prompts carry the discussion.
  const themeMakers: typeof makers = [];
  const otherMakers = makers.slice(personMakers.length);
  const ordered: typeof makers = explains ? informationalDiscussion(ctx, genre) : [];
  for (let i = 0; i < 6; i++) {
    for (const group of [personMakers, themeMakers, otherMakers]) {
      const make = group[i];
      if (make) ordered.push(make);
    }
  }
  for (const make of ordered) {
    if (out.length >= count + (ctx.spares ?? 2)) break;
    const q = make();
    if (q) out.push(q);
  }
  return out;
}

/* ---------------------------------------------------------------------------------------- */
/* Matching                                                                                  */
/* ---------------------------------------------------------------------------------------- */

/** A sentence with a vocabulary term blanked (as the sentence writes it), or null. */
function blankTerm(sentence: string, term: string): { text: string; word: string } | null {
  const words = term.split(/\s+/).map((w) => w.replace(/[^a-z'-]/gi, ''));
  if (words.some((w) => !w)) return null;
  // The term or an inflected form of its last word ("glaciers", "shivered").
  const last = words.pop()!;
  const stem = last.length > 4 ? last.replace(/(?:e|y)$/, '') : last;
  const re = new RegExp(`\\b${[...words, `${stem}[a-z]{0,4}`].join('\\s+')}\\b`, 'i');
  const m = re.exec(sentence);
  if (!m) return null;
  return {
    text: sentence.slice(0, m.index) + BLANK + sentence.slice(m.index + m[0].length),
    word: m[0],
  };
}

/**
 * Matching pairs a set needs: with three, the last pair is settled by the other two, and one
 * weak pair of three spoils a third of the item.
 */
const MIN_MATCHING_PAIRS = 4;

/** Whether a blanked sentence still holds the word in another form ("_____ drivers … teen drivers"). */
function repeatsWord(blanked: string, word: string): boolean {
  const own = stem(word.split(/\s+/).at(-1)!.toLowerCase());
  const head = own.slice(0, Math.max(4, own.length - 1));
  return blanked
    .toLowerCase()
    .split(/[^a-z]+/)
    .some(
      (w) =>
        w.length >= 4 &&
        (stem(w) === own ||
          w.startsWith(head) ||
          // "teen" in a sentence blanked for "teenage" (a shortened form, most of the word;
          // not "under" for "understory").
          (own.startsWith(w) && w.length >= 0.6 * own.length)),
    );
}

/** A word a class of this level would learn something from matching (not an everyday word). */
function worthMatching(word: string, level: number, kind?: string): boolean {
  if (/\s/.test(word) || !/^[a-z]/.test(word)) return false;
  // "older" is as easy as "old" (an adjective's degrees; "keeper" is not "keep").
  const base = word.replace(/(?:er|est)$/, '');
  const grade = Math.min(wordGrade(word), lookup(base, 'adj') ? wordGrade(base) : 99);
  if (level >= 4 && grade <= 3) return false;
  // "subclavian", "lunar": an adjective that only means "of the collarbone" is a term of a
  // field, not a word to practise.
  if (kind === 'adjective' && lexFileOf(word, 'adj') === 1) return false;
  // "studied", "collected": a word a class knows well is no exercise.
  return grade >= level - 1.5;
}

/**
 * Matching: vocabulary words to their meanings in context; without enough vocabulary, words
 * to the sentences of the text they complete (or, in plays, characters to their lines).
 */
export function writeMatching(
  ctx: WriterContext,
  count: number,
  vocabulary: VocabularyItem[],
  listed: VocabularyItem[] = [],
): MatchingQuestion[] {
  const out: MatchingQuestion[] = [];
  const pairsWanted = ctx.plan.matchingPairs;
  const used = new Set<string>();
  const usedListed = new Set<string>();
  for (let q = 0; q < count * 2; q++) {
    // Meanings only of entries sure enough that no pair spoils the set, none two of a kind.
    const strong = matchingEntries(
      vocabulary.filter((v) => !used.has(v.term)),
      pairsWanted,
    );
    // The vocabulary list's words, each to the sentence of the text it completes: the words
    // practised in context, not their glosses copied from the list above.
    if (strong.length < MIN_MATCHING_PAIRS && listed.length >= MIN_MATCHING_PAIRS) {
      // One part of speech for the whole set (with a verb, two nouns and an adjective, the
      // grammar of each blank gives its word away), the one most of the list has.
      const byPos = new Map<string, VocabularyItem[]>();
      for (const v of listed)
        if (!usedListed.has(v.term))
          byPos.set(v.partOfSpeech ?? '', [...(byPos.get(v.partOfSpeech ?? '') ?? []), v]);
      const group = [...byPos.values()].sort((a, b) => b.length - a.length)[0] ?? [];
      const pairs: MatchingQuestion['pairs'] = [];
      const sentences = new Set<string>();
      const stems = new Set<string>();
      for (const v of group) {
        if (pairs.length >= pairsWanted) break;
        // "travel" and "traveled" are one word: the set would check only its tense.
        const own = stem(v.term);
        if (stems.has(own)) continue;
        // A sentence of the text with this word (one sentence per pair), long
        // enough to tell the word ("This change is called _____." is not), the list's own first.
        const options = [v.context, ...ctx.analysis.sentences.map((x) => x.text)].filter(
          (text, i, all) =>
            all.indexOf(text) === i && !sentences.has(text) && !!blankTerm(text, v.term),
        );
        const fits = (text: string) => {
          const n = text.split(/\s+/).length;
          const blanked = blankTerm(text, v.term);
          // "One study of _____ drivers … involving teen drivers": not with the word still in it.
          return n >= 8 && n <= 32 && !!blanked && !repeatsWord(blanked.text, v.term);
        };
        const context = options.find(fits) ?? null;
        const blanked = context ? blankTerm(context, v.term) : null;
        if (!context || !blanked) continue;
        usedListed.add(v.term);
        sentences.add(context);
        stems.add(own);
        pairs.push({ left: blanked.word, right: quote(blanked.text), evidence: context });
      }
      if (pairs.length >= MIN_MATCHING_PAIRS) {
        out.push({
          id: nextId(),
          kind: 'matching',
          prompt: 'Match each word to the sentence from the text that it completes.',
          form: 'match_sentence',
          pairs,
          order: shuffle(
            pairs.map((_, i) => i),
            ctx.random,
          ),
        });
        continue;
      }
    }
    if (strong.length >= MIN_MATCHING_PAIRS) {
      strong.forEach((v) => used.add(v.term));
      const pairs = strong.map((v) => ({
        left: v.term,
        right: capitalise(v.definition),
        evidence: v.context,
      }));
      out.push({
        id: nextId(),
        kind: 'matching',
        prompt: 'Match each word from the text to its meaning.',
        form: 'match_meaning',
        pairs,
        order: shuffle(
          pairs.map((_, i) => i),
          ctx.random,
        ),
      });
      continue;
    }
    if (ctx.analysis.prepared.isPlay) {
      const lines = pickSentences(
        ctx,
        pairsWanted * 2,
        { minWords: 5, maxWords: 30 },
        (s) => !!s.speechQuote && s.opensSpeech,
      );
      const bySpeaker = new Map<string, Sentence>();
      for (const s of lines)
        if (s.speaker && !bySpeaker.has(s.speaker)) bySpeaker.set(s.speaker, s);
      const chosen = [...bySpeaker.values()].slice(0, pairsWanted);
      if (chosen.length >= 3) {
        chosen.forEach((s) => markUsed(ctx, s));
        const pairs = chosen.map((s) => ({
          left: s.speaker!,
          right: quote(s.text),
          evidence: s.speechQuote!,
        }));
        out.push({
          id: nextId(),
          kind: 'matching',
          prompt: 'Match each character to the line they speak.',
          form: 'match_speaker',
          pairs,
          order: shuffle(
            pairs.map((_, i) => i),
            ctx.random,
          ),
        });
        continue;
      }
    }
    const pairs: MatchingQuestion['pairs'] = [];
    // One part of speech for the whole set: with a verb, two nouns and an adjective, the
    // grammar of each blank gives its word away.
    const found = new Map<
      string,
      Array<{ s: Sentence; target: ReturnType<typeof targetsOf>[number] }>
    >();
    for (const s of pickSentences(ctx, pairsWanted * 4, { minWords: 8, maxWords: 28 })) {
      // "The North Wind was _____." says too little to tell one word from another; a sentence
      // with a quotation in it reads broken inside the pair's own quotation marks.
      if (s.words < 8 || /["“”]/.test(s.text)) continue;
      // Words worth matching at this grade: not "father", "rain" or "boat" (issue 22, trivial).
      const target = targetsOf(s, ctx, 0).find(
        (t) =>
          (t.kind === 'noun' || t.kind === 'verb' || t.kind === 'adjective') &&
          worthMatching(t.answer, ctx.plan.level, t.kind) &&
          // Words no list has taught must be new to the class, above its grade: "scientists",
          // "discoveries" in grade 6 are words it knows, and two of them fit each other's
          // blanks ("Visiting _____", "Wealthy _____"); incidental words ("breweries") are
          // rarely rarer than that.
          wordGrade(t.answer) >= ctx.plan.level + 1 &&
          worthABlank(ctx, s, t),
      );
      if (!target) continue;
      const group = found.get(target.kind) ?? [];
      // One word once ("travel", "traveled"), and never still in its own sentence.
      if (
        group.some(
          (p) =>
            normaliseForMatch(p.target.answer) === normaliseForMatch(target.answer) ||
            stem(p.target.answer.toLowerCase()) === stem(target.answer.toLowerCase()),
        ) ||
        repeatsWord(replaceSpan(s, target.start, target.end, BLANK), target.answer)
      )
        continue;
      group.push({ s, target });
      found.set(target.kind, group);
    }
    const best = [...found.values()].sort((a, b) => b.length - a.length)[0] ?? [];
    if (Math.min(best.length, pairsWanted) < MIN_MATCHING_PAIRS) break;
    for (const { s, target } of best.slice(0, pairsWanted)) {
      pairs.push({
        left: target.answer,
        right: quote(replaceSpan(s, target.start, target.end, BLANK)),
        evidence: s.text,
      });
      markUsed(ctx, s, target.answer);
    }
    if (pairs.length < MIN_MATCHING_PAIRS) break;
    out.push({
      id: nextId(),
      kind: 'matching',
      prompt: 'Match each word to the sentence from the text that it completes.',
      form: 'match_sentence',
      pairs,
      order: shuffle(
        pairs.map((_, i) => i),
        ctx.random,
      ),
    });
  }
  return out;
}
