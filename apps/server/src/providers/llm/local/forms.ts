import type { QuestionForm, VocabularyItem } from '@chapterwise/shared';
import { normaliseForMatch } from '../quality.js';
import type { Sentence } from './analyse.js';
import {
  clauseEnd,
  invertedQuestion,
  readClause,
  spanText,
  standsAlone,
  subjectPhrase,
  subjectQuestion,
  type Clause,
} from './clauses.js';
import {
  capitalise,
  pickSentences,
  shuffle,
  standAloneStatement,
  withoutFinalPunctuation,
  type WriterContext,
} from './common.js';
import { commonVerb, topicWords, wordNetNear } from './gates.js';
import { detectGenre, tellsAStory } from './genre.js';
import { passageDefinitions } from './senses.js';
import { keyness, targetsOf } from './targets.js';
import { describeWord } from './analyse.js';
import { peopleOf, storyCast, wordNetKind } from './characters.js';
import { lexFileOf, sensesOf, synsetAt } from './wordnet.js';
import { genderEvidence, genderOf } from './swaps.js';
import { needsContext, RELATIONAL, withoutOpener } from './context.js';

/**
 * Text-dependent question forms beyond the cloze (issue 13): who/when/where/how many and "what
 * is … called" from names, years, numbers and the passage's own definitions; why (cause and
 * effect) from because/so/as a result; which happened first (sequence); a word's meaning in
 * its sentence. Each candidate has its key, at least two distractors checked against the text,
 * and the sentence it comes from as evidence. Builders abstain whenever the stem would not
 * read as a teacher would write it.
 */
export interface FormCandidate {
  form: QuestionForm;
  prompt: string;
  answer: string;
  /** Wrong options for multiple choice (empty when only the open form is possible). */
  distractors: string[];
  /** A full-sentence model answer for short answer. */
  modelAnswer: string;
  evidence: string;
  sentences: number[];
  /** Cause and effect items: the reason or condition ("the ice becomes thick enough"). */
  cause?: string;
  /** Cause and effect items: the result as a statement of its own ("Keepers rarely slept before dawn."). */
  effect?: string;
}

const YEAR = /^(?:1[0-9]{3}|20[0-9]{2})$/;
const TIME_PREPOSITIONS = new Set(['in', 'by', 'around', 'until', 'since']);
const PLACE_PREPOSITIONS = new Set(['in', 'at', 'to', 'into', 'near', 'across', 'through']);
const APPROX = /^(?:about|around|nearly|almost|roughly|some)$/i;

function overlaps(a: string, b: string): boolean {
  return normaliseForMatch(a).includes(normaliseForMatch(b)) && normaliseForMatch(b).length > 0;
}

/** The distractors of a name, number or place target of the sentence at char offset `start`. */
function distractorsAt(
  ctx: WriterContext,
  s: Sentence,
  start: number,
  kinds: Array<'person' | 'place' | 'number' | 'name'>,
): { answer: string; distractors: string[] } | null {
  const target = targetsOf(s, ctx, 2, kinds).find((t) => t.start === start);
  if (!target) return null;
  return { answer: target.answer, distractors: target.distractors };
}

/** Reads a clause, knowing whether the sentence opens with a name (its capital is kept). */
export function clauseOf(
  ctx: WriterContext,
  s: Sentence,
  from = 0,
  to = s.tokens.length,
  pronoun = false,
): Clause | null {
  const first = s.tokens[from];
  const opensWithName = !!first && opensWithAName(ctx, s, first.start);
  return readClause(s, from, to, { pronoun, opensWithName });
}

/** A name at this offset that the text also writes with its capital mid-sentence ("Water" is not one). */
function opensWithAName(ctx: WriterContext, s: Sentence, start: number): boolean {
  const token = s.tokens.find((x) => x.start === start);
  if (!token || !/^\p{Lu}/u.test(token.value)) return false;
  return capitalisedMidSentence(ctx).has(token.value);
}

const midCache = new WeakMap<object, Set<string>>();
function capitalisedMidSentence(ctx: WriterContext): Set<string> {
  const cached = midCache.get(ctx.analysis);
  if (cached) return cached;
  const out = new Set<string>();
  for (const s of ctx.analysis.sentences)
    s.tokens.forEach((t, i) => {
      if (
        i > 0 &&
        /^\p{Lu}/u.test(t.value) &&
        !/^[“"‘'(]/.test(s.text.slice(s.tokens[i - 1]!.start))
      )
        out.add(t.value);
    });
  midCache.set(ctx.analysis, out);
  return out;
}

/** Wrong numbers far enough from the key to be clearly wrong ("about 180": not 190). */
function farNumbers(answer: string, options: string[], approximate: boolean): string[] {
  const key = Number(answer);
  if (!Number.isFinite(key)) return options;
  return options.filter((o) => {
    const n = Number(o);
    if (!Number.isFinite(n)) return true;
    if (YEAR.test(answer)) return Math.abs(n - key) >= 5;
    return Math.abs(n - key) / key >= (approximate ? 0.25 : 0.15);
  });
}

/** True when WordNet places `inner` inside `outer` (part holonyms, up to four steps: Paris → France). */
export function placeWithin(inner: string, outer: string): boolean {
  const target = outer.toLowerCase().replace(/\s+/g, '_');
  let frontier = sensesOf(inner.replace(/\s+/g, '_'), 'noun').slice(0, 3);
  const seen = new Set<number>();
  for (let depth = 0; depth < 4 && frontier.length; depth++) {
    const next: typeof frontier = [];
    for (const s of frontier) {
      for (const p of s.pointers) {
        if ((p.symbol !== '#p' && p.symbol !== '@i') || seen.has(p.offset)) continue;
        seen.add(p.offset);
        const up = synsetAt(p.offset, 'noun');
        if (!up) continue;
        if (p.symbol === '#p' && up.words.some((w) => w.toLowerCase() === target)) return true;
        if (p.symbol === '#p') next.push(up);
      }
    }
    frontier = next;
  }
  return false;
}

/** Numbers clearly apart from a count: half, one and a half times, twice ("700": 350, 1050, 1400). */
function scaled(value: string): string[] {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 4) return [];
  const round = (x: number) => {
    const step = n >= 1000 ? 100 : n >= 100 ? 10 : 1;
    return String(Math.round(x / step) * step);
  };
  return [round(n * 0.5), round(n * 1.5), round(n * 2)].filter((x) => x !== value);
}

/* ---------------------------------------------------------------------------------------- */
/* who / when / where / how many / what is … called                                          */
/* ---------------------------------------------------------------------------------------- */

function tokenIndexAt(s: Sentence, charStart: number): number {
  return s.tokens.findIndex((t) => t.start === charStart);
}

function yearQuestion(ctx: WriterContext, s: Sentence, c: Clause): FormCandidate | null {
  const t = s.tokens;
  const i = t.findIndex((x) => YEAR.test(x.value));
  if (i < 1 || t.filter((x) => YEAR.test(x.value)).length !== 1) return null;
  let p = i - 1;
  if (APPROX.test(t[p]!.value) && t[p - 1] && TIME_PREPOSITIONS.has(t[p - 1]!.normal)) p -= 1;
  const prep = t[p]!;
  let range: [number, number] = [p, i + 1];
  let opener: string;
  if (TIME_PREPOSITIONS.has(prep.normal)) opener = `${capitalise(prep.normal)} what year`;
  else if (APPROX.test(prep.value) && p === 0) opener = 'About what year';
  else return null;
  if (c.lead && c.lead[0] === p && c.lead[1] === i + 2) range = c.lead;
  else if (range[0] < c.restStart || range[1] > clauseEnd(c)) return null;
  const prompt = invertedQuestion(c, opener, range);
  if (!prompt) return null;
  const found = distractorsAt(ctx, s, t[i]!.start, ['number']);
  if (!found || farNumbers(found.answer, found.distractors, true).length < 2) return null;
  return {
    form: 'wh',
    prompt,
    answer: found.answer,
    distractors: farNumbers(
      found.answer,
      found.distractors.filter((d) => YEAR.test(d)),
      true,
    ),
    modelAnswer: `${capitalise(withoutFinalPunctuation(spanText(s, range[0], range[1]).replace(/,$/, '')))}.`,
    evidence: s.text,
    sentences: [s.index],
  };
}

function placeQuestion(ctx: WriterContext, s: Sentence, c: Clause): FormCandidate | null {
  // "Where did she look? At the house.": where one looks (WordNet's verbs of perception),
  // with nothing seen, is no place of an action.
  const gaze = !!c.verb && lexFileOf(c.verb.lemma.toLowerCase(), 'verb') === 39;
  const spans = ctx.analysis.nameSpans.get(s.index) ?? [];
  for (const span of spans) {
    if (ctx.analysis.names.get(span.name)?.kind !== 'place') continue;
    const i = tokenIndexAt(s, span.start);
    if (i < 1) continue;
    let p = i - 1;
    if (s.tokens[p]!.normal === 'the') p -= 1;
    const prep = s.tokens[p];
    if (!prep || !PLACE_PREPOSITIONS.has(prep.normal)) continue;
    const endToken = s.tokens.findIndex((x) => x.end === span.end);
    if (endToken < 0) continue;
    const range: [number, number] = [p, endToken + 1];
    if (range[0] < c.restStart || range[1] > clauseEnd(c)) continue;
    if (gaze && range[0] === c.restStart) continue;
    const prompt = invertedQuestion(c, 'Where', range);
    if (!prompt) continue;
    const found = distractorsAt(ctx, s, span.start, ['place']);
    if (!found || found.distractors.length < 2) continue;
    if (found.distractors.some((d) => overlaps(prompt, d))) continue;
    // "Paris" and "France": a place inside another is not a wrong answer.
    found.distractors = found.distractors.filter(
      (d) => !placeWithin(found.answer, d) && !placeWithin(d, found.answer),
    );
    if (found.distractors.length < 2) continue;
    return {
      form: 'wh',
      prompt,
      answer: found.answer,
      distractors: found.distractors,
      modelAnswer: `${capitalise(spanText(s, range[0], range[1]))}.`,
      evidence: s.text,
      sentences: [s.index],
    };
  }
  return null;
}

function personQuestion(ctx: WriterContext, s: Sentence, c: Clause): FormCandidate | null {
  const spans = ctx.analysis.nameSpans.get(s.index) ?? [];
  const t = s.tokens;
  const span = spans.find(
    (x) => x.start === t[c.subjectStart]!.start && x.end === t[c.subjectEnd - 1]!.end,
  );
  if (!span || ctx.analysis.names.get(span.name)?.kind !== 'person') return null;
  // "Wendy said, all shining": who said something is asked with the words said, or not at all.
  if (c.verb && SPEECH.test(c.verb.value)) return null;
  // "Who wanted to know?", "Who felt that …?": a state of mind, not something a person did.
  if (c.verb && STATE_OF_MIND.test(c.verb.lemma)) return null;
  const prompt = subjectQuestion(c, 'Who');
  if (!prompt) return null;
  const found = distractorsAt(ctx, s, span.start, ['person']);
  // Only verified people ("Europe" is not one), never another name of the same person.
  const people = peopleOf(ctx.analysis).people.filter((p) => /^\p{Lu}[\p{L}. -]+$/u.test(p));
  if (found) found.distractors = found.distractors.filter((d) => people.includes(d));
  if (!found || found.distractors.length < 2) return null;
  // The question must not name the answer or an option ("Who sued Gutenberg?" with Gutenberg offered).
  if ([found.answer, ...found.distractors].some((o) => overlaps(prompt, o))) return null;
  return {
    form: 'wh',
    prompt,
    answer: found.answer,
    distractors: found.distractors,
    modelAnswer: `${found.answer}.`,
    evidence: s.text,
    sentences: [s.index],
  };
}

function countQuestion(ctx: WriterContext, s: Sentence, c: Clause): FormCandidate | null {
  const t = s.tokens;
  for (let i = 0; i < t.length; i++) {
    const n = t[i]!;
    if (n.pos !== 'NUM' || YEAR.test(n.value)) continue;
    if (
      !/^\d{1,4}$/.test(n.value) &&
      !/^(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred)$/i.test(
        n.value,
      )
    )
      continue;
    // "eight to ten hours": a range, not one number.
    if (
      (/^(?:to|or|and|-)$/i.test(t[i - 1]?.value ?? '') && t[i - 2]?.pos === 'NUM') ||
      (/^(?:to|or|and|-)$/i.test(t[i + 1]?.value ?? '') && t[i + 2]?.pos === 'NUM')
    )
      continue;
    // "two hundred", "1,300": part of a longer number.
    if (
      [t[i - 1], t[i + 1]].some(
        (x) => x && (x.pos === 'NUM' || /^(?:hundred|thousand|million|billion|,)$/i.test(x.value)),
      )
    )
      continue;
    let j = i + 1;
    while (t[j] && t[j]!.pos === 'ADJ') j++;
    const nounStart = j;
    while (t[j] && t[j]!.pos === 'NOUN') j++;
    if (j === nounStart || !/s$/.test(t[j - 1]!.value)) continue;
    // "About how many copies were printed?": copies, parts, members … of what? A noun that
    // names a share of something else needs its "of" phrase.
    if (RELATIONAL.test(t[j - 1]!.value) && t[j]?.normal !== 'of') continue;
    // "How many hours passed?", "How many months did he lie ill?": in a story, how long
    // something took is a detail of the telling (WordNet's nouns of time).
    if (
      tellsAStory(detectGenre(ctx.analysis)) &&
      lexFileOf(t[j - 1]!.lemma.toLowerCase(), 'noun') === 28
    )
      continue;
    // "eleven years old": a measure of the adjective after it ("How many years was Mary old?").
    if (
      t[j]?.pos === 'ADJ' ||
      /^(?:ago|old|long|tall|wide|deep|high|thick|away)$/i.test(t[j]?.value ?? '')
    )
      continue;
    // "50 degrees Celsius": a unit name after the noun would be left behind in the stem.
    if (t[j]?.pos === 'PROPN' || /^\p{Lu}/u.test(t[j]?.value ?? '')) continue;
    // "copies of the Bible"
    if (t[j]?.normal === 'of') {
      let k = j + 1;
      while (t[k] && ['DET', 'ADJ'].includes(t[k]!.pos)) k++;
      const nounsFrom = k;
      while (t[k] && (t[k]!.pos === 'NOUN' || t[k]!.pos === 'PROPN')) k++;
      if (k > nounsFrom) j = k;
    }
    let from = i;
    let wh = 'How many';
    if (t[i - 1] && APPROX.test(t[i - 1]!.value)) {
      from = i - 1;
      wh = 'About how many';
    } else if (t[i - 1] && /^(?:than|over|under)$/i.test(t[i - 1]!.value)) continue;
    const phrase = `${wh} ${spanText(s, i + 1, j)}`;
    let prompt: string | null = null;
    if (from === c.subjectStart && j === c.subjectEnd) {
      prompt = subjectQuestion(c, phrase);
    } else if (from >= c.restStart && j <= clauseEnd(c)) {
      prompt = invertedQuestion(c, phrase, [from, j]);
    }
    if (!prompt) continue;
    const found = distractorsAt(ctx, s, n.start, ['number']);
    if (!found) continue;
    const options = farNumbers(
      n.value,
      [...found.distractors, ...scaled(n.value)].filter(
        (d) => !YEAR.test(d) && !ctx.reference.contains(`${spanText(s, i, j).replace(n.value, d)}`),
      ),
      wh !== 'How many',
    )
      // "hundred" alone is not a count ("How many fellows …? Hundred").
      .filter((d) => !/^(?:hundred|thousand|million|billion|dozen|score)s?$/i.test(d))
      .filter((d, k, all) => all.indexOf(d) === k);
    if (options.length < 2) continue;
    return {
      form: 'wh',
      prompt,
      answer: found.answer,
      distractors: options,
      modelAnswer: `${capitalise(spanText(s, from, j))}.`,
      evidence: s.text,
      sentences: [s.index],
    };
  }
  return null;
}

/** Terms the passage defines or names ("is called precipitation"), for "what is … called" options. */
function definedTerms(ctx: WriterContext): string[] {
  const out = new Set(passageDefinitions(ctx.analysis).keys());
  for (const s of ctx.analysis.sentences) {
    for (const m of s.text.matchAll(
      /\b(?:called|known as) (?:an? |the )?([a-z][a-z-]*(?: [a-z][a-z-]*)?)(?=[.,;])/g,
    ))
      out.add(m[1]!);
  }
  return [...out];
}

/**
 * Wrong options for "what is … called": the passage's other named terms first, then its key
 * nouns of the same WordNet category; never a near synonym, the topic word or a word of the stem.
 */
function termPool(ctx: WriterContext, term: string, prompt: string): string[] {
  const head = term.split(' ').at(-1)!;
  const ok = (d: string) =>
    d !== term &&
    !overlaps(prompt, d) &&
    !d.split(' ').some((w) => term.split(' ').includes(w)) &&
    !wordNetNear(head, d.split(' ').at(-1)!, 'noun');
  const out = definedTerms(ctx).filter(ok);
  if (out.length >= 3) return out;
  const topics = topicWords(ctx.analysis);
  const lex = lexFileOf(head, 'noun');
  const nouns = [...ctx.analysis.words.values()]
    .filter((w) => w.pos === 'NOUN' && !topics.has(w.lemma) && w.lemma.length > 3)
    .map((w) => ({ w, key: keyness(w) * (describeWord(w).lexFile === lex ? 2 : 1) }))
    .filter((x) => x.key > 0.3)
    .sort((a, b) => b.key - a.key)
    .map((x) => x.w.lemma);
  for (const n of nouns) {
    if (out.length >= 3) break;
    if (ok(n) && !out.includes(n)) out.push(n);
  }
  return out;
}

function calledQuestion(ctx: WriterContext, s: Sentence): FormCandidate | null {
  const m =
    /^([A-Z][^,;:“”"]{3,70}?) (is|are|was|were) (?:also )?(?:called|known as) (?:an? |the )?([a-z][a-z-]*(?: [a-z][a-z-]*)?)\.$/.exec(
      s.text,
    );
  if (!m) return null;
  const subject = m[1]!;
  if (/^(?:this|that|these|those|it|they|such|he|she|one)\b/i.test(subject)) return null;
  const term = m[3]!;
  const topics = topicWords(ctx.analysis);
  if (term.split(' ').some((w) => topics.has(w))) return null;
  const opensWithName = opensWithAName(ctx, s, 0);
  const subjectText = opensWithName ? subject : subject.charAt(0).toLowerCase() + subject.slice(1);
  const prompt = `What ${m[2]} ${subjectText} called?`;
  const pool = termPool(ctx, term, prompt);
  if (pool.length < 2) return null;
  return {
    form: 'wh',
    prompt,
    answer: term,
    distractors: pool.slice(0, 3),
    modelAnswer: `${capitalise(term)}.`,
    evidence: s.text,
    sentences: [s.index],
  };
}

/** Verbs of a state of mind or of seeming: what a person is, not what they did. */
const STATE_OF_MIND =
  /^(?:seem|appear|feel|want|wish|hope|like|know|think|believe|suppose|mean|become)$/i;

const SPEECH =
  /^(?:said|says|asked|replied|cried|answered|exclaimed|whispered|shouted|muttered|called|added|continued|remarked|returned|thought|began|went on)$/i;

/** "Who went up to the door and knocked?" about a person of a story with several people (short answer). */
function whoOpen(ctx: WriterContext, s: Sentence, c: Clause): FormCandidate | null {
  const people = peopleOf(ctx.analysis).people;
  if (people.length < 2 || c.pronoun || !c.verb || SPEECH.test(c.verb.value)) return null;
  if (STATE_OF_MIND.test(c.verb.lemma)) return null;
  const t = s.tokens;
  const span = (ctx.analysis.nameSpans.get(s.index) ?? []).find(
    (x) => x.start === t[c.subjectStart]!.start && x.end === t[c.subjectEnd - 1]!.end,
  );
  if (!span || !people.includes(span.name)) return null;
  // "Who looked out of the window?": only about what matters in the story.
  if (!important(ctx, s, 0.4) || commonVerb(c.verb.lemma)) return null;
  const prompt = subjectQuestion(c, 'Who');
  if (!prompt || prompt.split(/\s+/).length < 6 || overlaps(prompt, span.name)) return null;
  return {
    form: 'wh',
    prompt,
    answer: span.name,
    distractors: [],
    modelAnswer: `${span.name}.`,
    evidence: s.text,
    sentences: [s.index],
  };
}

/**
 * "Who says, “You!”?" from a line of dialogue and the narration that names its speaker
 * (“You!” said the Caterpillar contemptuously.), for stories (short answer).
 */
export function speakerCandidates(ctx: WriterContext, sentences: Sentence[]): FormCandidate[] {
  const out: FormCandidate[] = [];
  const all = ctx.analysis.sentences;
  for (const s of sentences) {
    // Plays: the line and its speaker's label.
    if (s.speaker && s.speechQuote && s.opensSpeech && s.words >= 5 && s.words <= 25) {
      if (overlaps(s.text, s.speaker)) continue;
      out.push({
        form: 'wh',
        prompt: `Who says, “${withoutFinalPunctuation(s.text)}”?`,
        answer: s.speaker,
        distractors: [],
        modelAnswer: `${s.speaker}.`,
        evidence: s.speechQuote,
        sentences: [s.index],
      });
      continue;
    }
    const m =
      /^(?:said|asked|replied|cried|answered|exclaimed|whispered|shouted|muttered|remarked|continued|added|screamed|pleaded) ((?:the |poor |little )?\p{Lu}[\p{L}-]+(?: \p{Lu}[\p{L}-]+)?)\b/u.exec(
        s.text,
      );
    const line = all[s.index - 1];
    if (!m || !line || line.paragraph !== s.paragraph) continue;
    const quote = /^[“"‘']([^“”"]{10,160})[”"’']$/.exec(line.text.replace(/\s+$/, ''));
    if (!quote || /[“”"]/.test(quote[1]!.slice(0, -1))) continue;
    const words = quote[1]!.split(/\s+/).length;
    if (words < 4 || words > 28) continue;
    const speaker = m[1]!.replace(/^(?:poor|little) /, '');
    const text = quote[1]!.replace(/[,]$/, '');
    // A line that names its own speaker gives the answer away.
    if (overlaps(text, speaker.replace(/^the /, ''))) continue;
    out.push({
      form: 'wh',
      prompt: `Who says, “${text}”?`,
      answer: capitalise(speaker),
      distractors: [],
      modelAnswer: `${capitalise(speaker)}.`,
      evidence: `${line.text} ${s.text}`,
      sentences: [line.index, s.index],
    });
  }
  return out;
}

/** Open who-questions about a story's people (short answer only). */
export function mannerCandidates(ctx: WriterContext, sentences: Sentence[]): FormCandidate[] {
  const out: FormCandidate[] = [];
  for (const s of sentences) {
    if (s.hasQuotes || s.speaker || s.words > 30) continue;
    const c = clauseOf(ctx, s, 0, s.tokens.length, true);
    if (!c || (c.pronoun && !resolvePronoun(ctx, c, null))) continue;
    // (No "How did Alice ask? Triumphantly.": on text nobody tuned on, a manner adverb as the
    // answer was a trivial or garbled question every time.)
    const q = whoOpen(ctx, s, c);
    if (q) out.push(q);
  }
  return out;
}

/**
 * "a cable laid along the bottom of the ocean connected America and Europe": the first verb
 * read was a participle inside the subject, and a second finite verb follows with nothing
 * joining it. A question built on the first would be garbled.
 */
export function reducedRelative(c: Clause): boolean {
  if (!c.verb || c.aux.length > 0) return false;
  const t = c.sentence.tokens;
  for (let i = c.restStart; i < clauseEnd(c); i++) {
    const x = t[i]!;
    if (
      x.value === ',' ||
      /^(?:and|or|but|that|which|who|when|where|to|because|while)$/i.test(x.value)
    )
      return false;
    if (
      x.pos === 'VERB' &&
      x.value.toLowerCase() !== x.lemma.toLowerCase() &&
      !/ing$/i.test(x.value)
    )
      return true;
  }
  return false;
}

/** Who/when/where/how many/"what is … called" questions of a sentence, best first. */
export function whCandidates(ctx: WriterContext, s: Sentence): FormCandidate[] {
  if (s.hasQuotes || s.speaker || s.words > 30) return [];
  const out: FormCandidate[] = [];
  const called = calledQuestion(ctx, s);
  if (called) out.push(called);
  const c = clauseOf(ctx, s, 0, s.tokens.length, true);
  if (!c || (c.pronoun && !resolvePronoun(ctx, c, null))) return out;
  if (reducedRelative(c)) return out;
  for (const make of [personQuestion, yearQuestion, placeQuestion, countQuestion]) {
    const q = make(ctx, s, c);
    if (q) out.push(q);
  }
  return out;
}

/* ---------------------------------------------------------------------------------------- */
/* Cause and effect                                                                          */
/* ---------------------------------------------------------------------------------------- */

interface CausePair {
  /** The clause of the effect, to ask "why" about. */
  effect: Clause;
  /** The cause as a clause of the text ("the watery inks ran off metal type"). */
  cause: string;
  sentences: number[];
}

const RESULT_OPENERS =
  /^(?:As a result|Because of this|For this reason|Therefore|Thus|Consequently|That is why|This is why),?\s/;

/** Lower-cases the first letter of a clause taken from a sentence, unless it is a name. */
function decapitalised(ctx: WriterContext, s: Sentence, text: string): string {
  if (/^(?:I|[A-Z]{2,})\b/.test(text)) return text;
  const at = s.text.indexOf(text.slice(0, 12));
  if (at >= 0 && opensWithAName(ctx, s, at)) return text;
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/**
 * Gives a pronoun subject ("so he developed…", "they were rare") the name or noun phrase it
 * stands for, or false when that is not clear: he/she is the one person named in this or the
 * two sentences before; it/they is the subject of the cause clause when its number agrees.
 */
export function resolvePronoun(ctx: WriterContext, c: Clause, cause: Clause | null): boolean {
  if (!c.pronoun) return true;
  if (c.pronoun === 'he' || c.pronoun === 'she') {
    // "Mary was only eleven, but she kept …": the person who is the earlier clause's subject.
    if (cause && !cause.pronoun && cause.sentence === c.sentence) {
      const subject = subjectPhrase(cause);
      const g = genderOf(ctx.analysis, subject);
      if (
        peopleOf(ctx.analysis).people.includes(subject) &&
        g === (c.pronoun === 'he' ? 'm' : 'f')
      ) {
        c.subjectText = subject;
        return true;
      }
    }
    const names: string[] = [];
    const people = peopleOf(ctx.analysis).people;
    for (let i = c.sentence.index; i >= Math.max(0, c.sentence.index - 2); i--) {
      for (const span of [...(ctx.analysis.nameSpans.get(i) ?? [])].reverse()) {
        if (ctx.analysis.names.get(span.name)?.kind !== 'person') continue;
        // "He darkly closed an eye at Mr. Jaggers's name": a name after the pronoun in its own
        // sentence is not what it stands for.
        const pronounAt = c.sentence.tokens[c.subjectStart]?.start ?? 0;
        if (i === c.sentence.index && c.subjectStart !== undefined && span.start > pronounAt)
          continue;
        if (!/^\p{Lu}[\p{L}. -]+$/u.test(span.name)) continue;
        // A verified person, or a name WordNet does not make a place, book or group.
        // (In a story, a character WordNet knows as something else: "Lena", a river.)
        const known =
          people.includes(span.name) ||
          [...(ctx.analysis.aliases.get(span.name) ?? [])].some((a) => people.includes(a)) ||
          wordNetKind(span.name) !== 'other' ||
          storyCast(ctx.analysis).some((m) => m.label === span.name);
        if (!known) continue;
        const aliases = ctx.analysis.aliases.get(span.name);
        if (!names.some((n) => n === span.name || aliases?.has(n))) names.push(span.name);
      }
    }
    if (names.length !== 1) return false;
    // "He snatched the blanket" is not about Mira: the person must not be of the other gender.
    // A person the passage does not show to be of the pronoun's gender may not be the one
    // meant: "He snatched the blanket" after "Mira" is the North Wind, not Mira.
    const g = genderOf(ctx.analysis, names[0]!);
    const evidence = genderEvidence(ctx.analysis, names[0]!);
    if (g && g !== (c.pronoun === 'he' ? 'm' : 'f')) return false;
    if (!g && (c.pronoun === 'he' ? evidence.f : evidence.m) > 0) return false;
    // The person's full name ("Augustin Fresnel" for "Fresnel").
    c.subjectText = [names[0]!, ...(ctx.analysis.aliases.get(names[0]!) ?? [])]
      .filter((n) => !/^(?:Mr|Mrs|Miss|Ms|Dr)\.?$/.test(n) && !/['’]/.test(n))
      .sort((a, b) => b.length - a.length)[0]!;
    return !!c.subjectText;
  }
  if (!cause || cause.pronoun) return false;
  const last = cause.sentence.tokens[cause.subjectEnd - 1]!;
  const plural = last.pos === 'NOUN' && last.value.toLowerCase() !== last.lemma.toLowerCase();
  if ((c.pronoun === 'they') !== plural) return false;
  c.subjectText = subjectPhrase(cause);
  return true;
}

function causePairs(ctx: WriterContext, s: Sentence): CausePair[] {
  const t = s.tokens;
  const out: CausePair[] = [];
  // "she said to herself, for …": a sentence that opens in lower case goes on from a quote.
  if (s.hasQuotes || s.speaker || /^\p{Ll}/u.test(s.text)) return out;
  let because = t.findIndex((x, i) => x.normal === 'because' && t[i + 1]?.normal !== 'of');
  // "They stayed indoors, since the road was flooded": "since" with a clause gives a reason,
  // like "because", unless it tells a time ("since 1900", "ever since", "it has rained since
  // we arrived": a perfect or a span of time in the main clause).
  if (because < 0) because = causalSince(ctx, s);
  // "Alice crouched down, for her neck kept getting caught in the branches": "for" after a
  // comma, with a clause of its own (a subject and a verb), gives a reason too.
  if (because < 0) because = causalFor(ctx, s);
  const previous = ctx.analysis.sentences[s.index - 1];
  const usablePrevious =
    previous && previous.paragraph === s.paragraph && !previous.hasQuotes && previous.words <= 22;
  if (because >= 3) {
    let effectEnd = because;
    if (t[effectEnd - 1]?.value === ',') effectEnd -= 1;
    // "Mary was only eleven, but she kept searching because …": the reason belongs to the
    // clause just before "because", not to the sentence's first clause.
    let from = 0;
    for (let i = 0; i < effectEnd; i++) {
      if (t[i]!.value === ';') from = i + 1;
      if (t[i]!.value === ',' && /^(?:and|but|yet|or|so)$/i.test(t[i + 1]?.value ?? ''))
        from = i + 2;
    }
    const effect = clauseOf(ctx, s, from, effectEnd, true);
    const before = from > 0 ? clauseOf(ctx, s, 0, from) : null;
    let cause = withoutFinalPunctuation(s.text.slice(t[because + 1]!.start));
    // "… because pitfalls were common, and had to be guarded against": the reason is the
    // clause before a comma that opens a new clause or predicate (and, but, so, which, where).
    const cut = t.findIndex(
      (x, i) =>
        i > because + 3 &&
        x.value === ',' &&
        /^(?:and|but|so|which|where|who)$/i.test(t[i + 1]?.value ?? ''),
    );
    if (cut > 0 && clauseOf(ctx, s, because + 1, cut)) cause = spanText(s, because + 1, cut);
    if (
      effect &&
      clauseEnd(effect) === effectEnd &&
      resolvePronoun(ctx, effect, before) &&
      cause.split(/\s+/).length >= 3 &&
      !/[,;]/.test(cause)
    )
      out.push({ effect, cause, sentences: [s.index] });
  } else if (because === 0) {
    const comma = t.findIndex((x) => x.value === ',');
    if (comma > 3) {
      const effect = clauseOf(ctx, s, comma + 1, t.length, true);
      const cause = s.text.slice(t[1]!.start, t[comma - 1]!.end);
      if (effect && resolvePronoun(ctx, effect, clauseOf(ctx, s, 1, comma)))
        out.push({ effect, cause, sentences: [s.index] });
    }
  } else if (because === 2 && /^(?:that|this) is$/i.test(spanText(s, 0, 2)) && usablePrevious) {
    // "That is because the Earth uses the same water over and over again."
    const effect = clauseOf(ctx, previous, 0, previous.tokens.length, true);
    const cause = withoutFinalPunctuation(s.text.slice(t[3]!.start));
    if (effect && resolvePronoun(ctx, effect, null))
      out.push({ effect, cause, sentences: [previous.index, s.index] });
  }
  // "The watery inks ran off metal type, so he developed an oil-based ink." Also ", and so",
  // ", and therefore", "; therefore,", ", which is why", ", and that is why".
  const [so, soEnd] = resultLink(t);
  if (so > 3) {
    const effect = clauseOf(ctx, s, soEnd, t.length, true);
    const causeClause = clauseOf(ctx, s, 0, so - 1);
    const cause = s.text.slice(0, t[so - 2]!.end);
    if (
      effect &&
      resolvePronoun(ctx, effect, causeClause) &&
      !/[,;]/.test(cause) &&
      cause.split(/\s+/).length <= 18
    )
      out.push({ effect, cause: decapitalised(ctx, s, cause), sentences: [s.index] });
  }
  // "… . As a result, more people learned to read."
  const opener = RESULT_OPENERS.exec(s.text);
  if (opener && usablePrevious) {
    const comma = t.findIndex((x) => x.value === ',');
    const effect = comma > 0 && comma <= 4 ? clauseOf(ctx, s, comma + 1, t.length, true) : null;
    const cause = withoutFinalPunctuation(previous.text);
    if (
      effect &&
      resolvePronoun(ctx, effect, clauseOf(ctx, previous)) &&
      standsAlone(previous) &&
      !/[;:]/.test(cause)
    )
      out.push({
        effect,
        cause: decapitalised(ctx, previous, cause),
        sentences: [previous.index, s.index],
      });
  }
  return out;
}

/** Words of a span of time: with them "since" tells when ("years since", "long since"). */
const TIME_SPAN =
  /^(?:ever|long|ago|years?|months?|weeks?|days?|hours?|times?|then|now|still|yet|always|never)$/;

/**
 * The index of a "since" that gives a reason: mid-sentence after a comma or at the start, with
 * a clause of its own after it (a subject and a verb, not "since 1900" or "since then"), and a
 * main clause with no perfect ("has rained since …") and no span of time; else -1.
 */
function causalSince(ctx: WriterContext, s: Sentence): number {
  const t = s.tokens;
  const at = t.findIndex((x) => x.normal === 'since');
  if (at < 0 || (at > 0 && t[at - 1]?.value !== ',')) return -1;
  if (t.filter((x) => x.normal === 'since').length > 1) return -1;
  const next = t[at + 1];
  if (!next || next.pos === 'NUM' || TIME_SPAN.test(next.normal)) return -1;
  // The reason's own clause: up to the comma that closes it when it opens the sentence.
  const comma = at === 0 ? t.findIndex((x) => x.value === ',') : t.length;
  if (comma < 0 || !clauseOf(ctx, s, at + 1, comma, true)) return -1;
  const main = at === 0 ? t.slice(comma + 1) : t.slice(0, at);
  if (main.some((x) => x.lemma === 'have' || /^(?:'ve|'d)$/.test(x.normal))) return -1;
  if (t.some((x) => TIME_SPAN.test(x.normal) || x.pos === 'NUM')) return -1;
  return at;
}

/** The index of a "for" after a comma that opens a clause of its own (a reason), or -1. */
function causalFor(ctx: WriterContext, s: Sentence): number {
  const t = s.tokens;
  const at = t.findIndex(
    (x, i) => i >= 3 && x.normal === 'for' && (t[i - 1]!.value === ',' || t[i - 1]!.value === ';'),
  );
  if (at < 0) return -1;
  const end = t.findIndex((x, i) => i > at && /^[,;:—]$/.test(x.value));
  const c = clauseOf(ctx, s, at + 1, end < 0 ? t.length : end, true);
  // "for he explained that …", "for I knew that …": a report, the speaker's ground, not a cause.
  if (!c || c.from !== at + 1 || t[c.restStart]?.normal === 'that') return -1;
  return at;
}

/**
 * A link that puts a result after a cause in one sentence: ", so" (not "so much", "so that"),
 * ", and so", ", and therefore", "; therefore", ", which is why", ", and that is why". Gives the
 * link's first and after-last token, or [-1, -1].
 */
function resultLink(t: Sentence['tokens']): [number, number] {
  for (let i = 1; i < t.length - 1; i++) {
    if (t[i - 1]!.value !== ',' && t[i - 1]!.value !== ';') continue;
    let j = i;
    if (t[j]!.normal === 'and' && t[i - 1]!.value === ',') j++;
    const w = t[j]?.normal;
    if (w === 'so' && !['ADJ', 'ADV'].includes(t[j + 1]?.pos ?? '') && t[j + 1]?.normal !== 'that')
      return [i, j + 1];
    if (w === 'therefore' || w === 'consequently')
      return [i, t[j + 1]?.value === ',' ? j + 2 : j + 1];
    // ", which is why", ", and that is why", ", and this was why"
    const which = (j === i && w === 'which') || (j > i && (w === 'that' || w === 'this'));
    if (which && /^(?:is|was)$/.test(t[j + 1]?.normal ?? '') && t[j + 2]?.normal === 'why')
      return [i, j + 3];
  }
  return [-1, -1];
}

/** "Why did …?" questions with the text's reason as the key and other reasons from the text as distractors. */
export function causeCandidates(
  ctx: WriterContext,
  sentences: Sentence[],
  needDistractors = 2,
): FormCandidate[] {
  const pairs: Array<CausePair & { prompt: string }> = [];
  for (const s of sentences) {
    for (const pair of causePairs(ctx, s)) {
      const prompt = invertedQuestion(pair.effect, 'Why', null);
      if (!prompt) continue;
      // "Why did the girls hasten out and hurried …?": do-support turns only the first verb
      // of a coordinated predicate into its base form.
      const e = pair.effect;
      const et = e.sentence.tokens;
      if (
        /^Why (?:did|does|do)\b/.test(prompt) &&
        et.some(
          (x, i) =>
            i >= e.restStart &&
            i < clauseEnd(e) &&
            x.normal === 'and' &&
            !!et[i + 1] &&
            // "and hurried through": the tagger may read a past verb as an adjective.
            ((et[i + 1]!.pos === 'VERB' &&
              et[i + 1]!.value.toLowerCase() !== et[i + 1]!.lemma.toLowerCase()) ||
              (/ed$/i.test(et[i + 1]!.value) && et[i + 2]?.pos === 'ADP')),
        )
      )
        continue;
      if (/\b(?:I|me|my|we|us|our|you|your)\b/.test(pair.cause)) continue;
      pairs.push({ ...pair, prompt });
    }
  }
  // Wrong reasons: only the causes the text gives for other effects, phrased as causes (the
  // text shows them to be wrong here, since it ties them to something else). Other sentences
  // of the text are no reasons at all ("Because Mary Anning died in 1847"): with too few real
  // causes the item is a short answer or nothing.
  const out: FormCandidate[] = [];
  const skip = namesAndTopics(ctx);
  for (const pair of pairs) {
    const key = `Because ${withoutFinalPunctuation(withoutOpener(pair.cause))}.`;
    const effectText = spanText(pair.effect.sentence, pair.effect.from, clauseEnd(pair.effect));
    const wrong: string[] = [];
    const seen = new Set([normaliseForMatch(key)]);
    for (const other of shuffle(pairs, ctx.random)) {
      if (other === pair || other.sentences.some((i) => pair.sentences.includes(i))) continue;
      // A chain ("books were slow to make, so they were rare"; "they were rare, so few read"):
      // the earlier cause also explains the later effect.
      const otherEffect = spanText(
        other.effect.sentence,
        other.effect.from,
        clauseEnd(other.effect),
      );
      if (
        shareContent(other.cause, effectText, skip) ||
        shareContent(otherEffect, pair.cause, skip) ||
        shareContent(other.cause, pair.cause, skip, 2)
      )
        continue;
      const text = withoutFinalPunctuation(withoutOpener(other.cause));
      if (needsContext(text, ctx.analysis) || overlaps(pair.prompt, text)) continue;
      const option = `Because ${text}.`;
      const k = normaliseForMatch(option);
      if (seen.has(k)) continue;
      seen.add(k);
      wrong.push(option);
    }
    if (wrong.length < needDistractors) continue;
    const evidence = pair.sentences.map((i) => ctx.analysis.sentences[i]!.text).join(' ');
    const e = pair.effect;
    const raw = spanText(e.sentence, e.from, clauseEnd(e));
    const effect =
      e.pronoun && e.subjectText
        ? `${e.subjectText}${raw.slice(raw.split(/\s+/)[0]!.length)}`
        : e.pronoun
          ? null
          : raw;
    out.push({
      form: 'cause',
      prompt: pair.prompt,
      answer: key,
      distractors: wrong.slice(0, 3),
      modelAnswer: key,
      evidence,
      sentences: pair.sentences,
      cause: withoutFinalPunctuation(withoutOpener(pair.cause)),
      ...(effect ? { effect: `${capitalise(withoutFinalPunctuation(effect))}.` } : {}),
    });
  }
  return out;
}

const STOP_CONTENT = new Set(
  'about after again also because been before being between both could does down each from have here into just more most much must only other over same some such than that their them then there these they this those through very were what when where which while will with would your'.split(
    ' ',
  ),
);

/** The passage's names and topic words: shared by most of its sentences, they link nothing. */
function namesAndTopics(ctx: WriterContext): Set<string> {
  const out = new Set<string>(topicWords(ctx.analysis));
  for (const n of ctx.analysis.names.keys())
    for (const w of n.toLowerCase().split(/\s+/)) out.add(w);
  return out;
}

function contentWords(text: string, skip: Set<string>): Set<string> {
  const out = new Set<string>();
  for (const w of text.toLowerCase().match(/[a-z]{4,}/g) ?? []) {
    if (STOP_CONTENT.has(w)) continue;
    const stem = w.replace(/(?:ies|es|s|ed|ing|ly)$/, '');
    if (skip.has(w) || skip.has(stem)) continue;
    out.add(stem.slice(0, 6));
  }
  return out;
}

/** True when two clauses share a content word (not a name or the passage's topic). */
function shareContent(a: string, b: string, skip: Set<string>, least = 1): boolean {
  const bw = contentWords(b, skip);
  let shared = 0;
  for (const w of contentWords(a, skip)) if (bw.has(w)) shared += 1;
  return shared >= least;
}

/**
 * "What happens when the drops become too heavy to float?" from "When the drops become too
 * heavy to float, they fall to the ground."; the other results the text gives are the wrong
 * options. "What is this change called?" after the sentence that describes the change.
 */
export function whenCandidates(
  ctx: WriterContext,
  sentences: Sentence[],
  needDistractors = 2,
): FormCandidate[] {
  const found: Array<{
    s: Sentence;
    prompt: string;
    answer: string;
    sentences: number[];
    /** The result as a statement of its own ("The drops fall to the ground."), for other items' options. */
    alone?: string | null;
    condition?: string;
  }> = [];
  for (const s of sentences) {
    if (s.hasQuotes || s.speaker || s.words > 30) continue;
    const t = s.tokens;
    const m = /^(When|If|Whenever) ([^,;]{8,90}), ([^,;]{8,120})[.!]$/.exec(s.text);
    if (m) {
      const comma = t.findIndex((x) => x.value === ',');
      const condition = t.slice(1, comma);
      const verb = condition.find((x) => x.pos === 'VERB' || x.pos === 'AUX');
      if (!verb || condition.some((x) => /^(?:I|we|you|my|our|your)$/i.test(x.value))) continue;
      if (/\b(?:I|me|my|we|us|our|you|your)\b/.test(m[3]!)) continue;
      let conditionText = m[2]!;
      if (/^(?:he|she)$/i.test(condition[0]?.value ?? '')) {
        // "When she reached the door, …": named if the person is clear.
        const c = clauseOf(ctx, s, 1, comma, true);
        if (!c || !resolvePronoun(ctx, c, null)) continue;
        conditionText = `${c.subjectText}${m[2]!.slice(condition[0]!.value.length)}`;
      } else if (
        /^(?:it|they|this|that|these|those|his|her|its|their)$/i.test(condition[0]?.value ?? '')
      )
        continue;
      // "When photographs … were taken, …": the tense of any verb of the condition or result.
      const past =
        condition.some((x) => /^(?:was|were|had|did)$/i.test(x.value)) ||
        /\b(?:was|were|had|did)\b/i.test(m[3]!) ||
        (verb.pos === 'VERB' &&
          verb.value.toLowerCase() !== verb.lemma.toLowerCase() &&
          !/s$/i.test(verb.value) &&
          !/ing$/i.test(verb.value));
      // "…, her arms were shaking": a result that points to someone the question does not name.
      // "If the air is warm, it falls as rain": "it" is the rain of the sentence before, not the
      // air; a pronoun result is read as the condition's subject only when that subject acts
      // (not a bare state, "is warm") and agrees in number.
      let alone: string | null = `${capitalise(m[3]!)}.`;
      if (/^(?:he|she|his|her|him|they|their|them|it|its|this|these|those)\b/i.test(m[3]!)) {
        const pronoun = m[3]!.split(/\s+/)[0]!.toLowerCase();
        if (!/^(?:they|it)$/.test(pronoun) || /^(?:he|she)$/i.test(condition[0]?.value ?? ''))
          continue;
        const cond = clauseOf(ctx, s, 1, comma);
        if (!cond || cond.pronoun) continue;
        const copular =
          !cond.verb &&
          cond.aux.length > 0 &&
          t.slice(cond.restStart, comma).every((x) => x.pos === 'ADJ' || x.pos === 'ADV');
        if (copular) continue;
        const last = t[cond.subjectEnd - 1]!;
        const plural = last.pos === 'NOUN' && last.value.toLowerCase() !== last.lemma.toLowerCase();
        if ((pronoun === 'they') !== plural) continue;
        alone = `${capitalise(subjectPhrase(cond))}${m[3]!.slice(pronoun.length)}.`;
      }
      // "…, it can go to several places.": a lead-in to the list that follows, not the result.
      if (
        /\b(?:several|various|many|different|a few|a number of|two|three|four|five) (?:[a-z]+ )?(?:places|ways|things|kinds|types|parts|steps|stages|forms|paths|directions|results|effects)\b/i.test(
          m[3]!,
        ) ||
        /\b(?:something|somewhere|one of|happen|happens|happened)\b/i.test(m[3]!)
      )
        continue;
      const happens = past ? 'happened' : 'happens';
      const condText = conditionText === m[2] ? decapitalised(ctx, s, m[2]!) : conditionText;
      const prompt = `What ${happens} ${m[1]!.toLowerCase() === 'if' ? 'if' : 'when'} ${condText}?`;
      found.push({
        s,
        prompt,
        answer: `${capitalise(m[3]!)}.`,
        sentences: [s.index],
        alone,
        condition: condText,
      });
      continue;
    }
    // "This change is called evaporation." after the sentence that describes it.
    const called =
      /^(?:This|That|These) ([a-z]+(?: [a-z]+)?) (?:is|are) called (?:an? |the )?([a-z][a-z-]*(?: [a-z][a-z-]*)?)\.$/.exec(
        s.text,
      );
    const previous = ctx.analysis.sentences[s.index - 1];
    if (
      called &&
      previous &&
      previous.paragraph === s.paragraph &&
      !previous.hasQuotes &&
      previous.words <= 30
    ) {
      if (/\b(?:I|me|my|we|us|our|you|your)\b/.test(previous.text)) continue;
      const term = called[2]!;
      const topics = topicWords(ctx.analysis);
      if (term.split(' ').some((w) => topics.has(w))) continue;
      // The term must not stand in the sentence quoted with the question.
      if (new RegExp(`\\b${term}\\b`, 'i').test(previous.text)) continue;
      found.push({
        s,
        prompt: `The text says: “${previous.text}” What is this ${called[1]} called?`,
        answer: term,
        sentences: [previous.index, s.index],
      });
    }
  }
  const out: FormCandidate[] = [];
  const skip = namesAndTopics(ctx);
  for (const f of found) {
    const calledForm = f.prompt.endsWith('called?');
    const pool = calledForm
      ? termPool(ctx, f.answer, f.prompt)
      : // Only the results the text gives for other conditions, each as a statement of its own
        // ("The drops fall to the ground."): other sentences of the text are no results at all.
        found
          .filter((o) => o !== f && !o.prompt.endsWith('called?') && o.alone)
          .map((o) => o.alone!)
          .filter(
            (a) =>
              !/^(?:he|she|it|they|his|her|its|their|this|these)\b/i.test(a) &&
              !needsContext(a, ctx.analysis) &&
              normaliseForMatch(a) !== normaliseForMatch(f.answer) &&
              !shareContent(a, f.prompt, skip),
          )
          .filter((a, i, all) => all.indexOf(a) === i);
    if (pool.length < needDistractors) continue;
    const evidence = f.sentences.map((i) => ctx.analysis.sentences[i]!.text).join(' ');
    out.push({
      form: calledForm ? 'wh' : 'cause',
      prompt: f.prompt,
      answer: f.answer,
      distractors: shuffle(pool, ctx.random).slice(0, 3),
      modelAnswer: calledForm ? `${capitalise(f.answer)}.` : f.answer,
      evidence,
      sentences: f.sentences,
      ...(f.condition ? { cause: f.condition } : {}),
      ...(f.alone ? { effect: f.alone } : {}),
    });
  }
  return out;
}

/* ---------------------------------------------------------------------------------------- */
/* Sequence                                                                                  */
/* ---------------------------------------------------------------------------------------- */

const TIME_WORDS =
  /\b(?:before|after|earlier|later|once|then|until|when|while|since|again|already|first|last|next|meanwhile|soon|finally|years?|ago|had)\b/i;

/**
 * "Which of these happened first?": events of a story in the order it tells them, or dated
 * events of a history by their years (the years left out of the options).
 */
export function sequenceCandidates(ctx: WriterContext, count: number): FormCandidate[] {
  const genre = detectGenre(ctx.analysis);
  if (ctx.analysis.prepared.isPlay || genre === 'poem') return [];
  const events: Array<{ s: Sentence; text: string; order: number }> = [];
  for (const s of ctx.analysis.sentences) {
    if (ctx.usedSentences.has(s.index) || s.hasQuotes || s.speaker || s.words > 22 || s.words < 5)
      continue;
    if (!standsAlone(s) || !/[.!]$/.test(s.text)) continue;
    const c = clauseOf(ctx, s);
    if (!c) continue;
    if (genre === 'narrative') {
      // Narrated past events told in order: no flashbacks (had …), no time words that reorder them.
      if (
        TIME_WORDS.test(s.text) ||
        c.aux.some((a) => /^(?:is|are|am|has|have|do|does)$/.test(a.normal))
      )
        continue;
      if (!c.verb || c.verb.value === c.verb.lemma) continue;
      const text = standAloneStatement(s);
      if (!text || text.split(/\s+/).length > 16) continue;
      // "The narrator listened to … the narrator's family": never "the narrator" twice.
      if ((text.match(/\bthe narrator\b/gi) ?? []).length > 1) continue;
      events.push({ s, text, order: s.index });
    } else {
      const years = s.tokens.filter((t) => YEAR.test(t.value));
      if (years.length !== 1) continue;
      const year = years[0]!;
      const yi = s.tokens.indexOf(year);
      let from = yi - 1;
      if (from >= 0 && APPROX.test(s.tokens[from]!.value)) from -= 1;
      if (from < 0 || !TIME_PREPOSITIONS.has(s.tokens[from]!.normal)) continue;
      let text: string | null = null;
      if (c.lead && c.lead[0] === from && c.lead[1] === yi + 2)
        text = s.text.slice(s.tokens[yi + 2]!.start);
      else if (from >= c.restStart && yi === clauseEnd(c) - 1)
        text = s.text.slice(0, s.tokens[from]!.start).trim() + '.';
      if (!text || /\b(?:I|me|my|we|our|you)\b/.test(text) || text.split(/\s+/).length > 18)
        continue;
      events.push({ s, text: capitalise(text), order: Number(year.value) });
    }
  }
  const distinct = new Map<number, (typeof events)[number]>();
  for (const e of events) if (!distinct.has(e.order)) distinct.set(e.order, e);
  const list = [...distinct.values()].sort((a, b) => a.order - b.order);
  const out: FormCandidate[] = [];
  if (list.length < 3) return out;
  // Options far apart in the story (a reader can place them), about the same length.
  const spread =
    genre === 'narrative' ? Math.max(2, Math.floor(ctx.analysis.sentences.length / 8)) : 0;
  const used = new Set<number>();
  for (let round = 0; round < count; round++) {
    const picked: typeof list = [];
    for (const e of list) {
      if (used.has(e.s.index)) continue;
      if (picked.some((p) => Math.abs(p.s.index - e.s.index) < spread)) continue;
      picked.push(e);
      if (picked.length === 4) break;
    }
    if (picked.length < 3) break;
    const first = round % 2 === 0;
    const key = first ? picked[0]! : picked.at(-1)!;
    for (const p of picked) used.add(p.s.index);
    out.push({
      form: 'sequence',
      prompt:
        genre === 'narrative'
          ? `Which of these happened ${first ? 'first' : 'last'} in the story?`
          : `According to the text, which of these happened ${first ? 'first' : 'last'}?`,
      answer: key.text,
      distractors: picked.filter((p) => p !== key).map((p) => p.text),
      modelAnswer: key.text,
      evidence: key.s.text,
      sentences: picked.map((p) => p.s.index),
    });
  }
  return out;
}

/* ---------------------------------------------------------------------------------------- */
/* Vocabulary in context                                                                     */
/* ---------------------------------------------------------------------------------------- */

/**
 * "In the sentence “…”, what does “X” mean?": the meaning chosen for the passage (gen-v's
 * vocabulary: passage definition or a WordNet sense chosen over the passage) against the
 * meanings of other words of the same part of speech from the passage.
 */
export function vocabularyInContext(ctx: WriterContext, words: VocabularyItem[]): FormCandidate[] {
  const out: FormCandidate[] = [];
  for (const item of words) {
    const s = ctx.analysis.sentences.find((x) => x.text === item.context);
    // Enough sentence to work the meaning out from ("This change is called condensation." is not).
    if (!s || ctx.usedSentences.has(s.index) || s.words > 32 || s.words < 6 || s.speaker) continue;
    // A whole sentence (not a line of verse), no dialogue.
    if (/[“”"]/.test(item.context) || !/^[A-Z]/.test(item.context) || !/[.!?]$/.test(item.context))
      continue;
    // Not the passage's topic word ("library" in a text about libraries).
    const topics = topicWords(ctx.analysis);
    if (
      item.term
        .toLowerCase()
        .split(/\s+/)
        .some((w) => topics.has(w.replace(/s$/, '')) || topics.has(w))
    )
      continue;
    // The meaning must not give itself away: no word of the term in it ("quill pen": "pen made
    // from a bird's feather"), and not all of it in the sentence ("A worker called a compositor").
    const termWords = item.term.toLowerCase().split(/\s+/);
    const meaningWords = item.definition.toLowerCase().match(/[a-z]{3,}/g) ?? [];
    // ("misinformation": "information that is incorrect" echoes the word.)
    if (
      meaningWords.some((w) =>
        termWords.some(
          (tw) => tw.slice(0, 5) === w.slice(0, 5) || (w.length >= 5 && tw.includes(w)),
        ),
      )
    )
      continue;
    // (Compared by their first five letters: "arranged" in the sentence gives "arranges" away;
    // "parchment made from animal skin" gives "skin of a sheep …" away: a key whose words stand
    // in the sentence as much as two in five is recognised, not understood.)
    const sentenceWords = new Set(
      (item.context.toLowerCase().match(/[a-z]{3,}/g) ?? []).map((w) => w.slice(0, 5)),
    );
    const content = meaningWords.filter(
      (w) =>
        !/^(?:the|and|for|that|with|who|which|from|used|one|are|has|any|its|something|someone|person|thing|kind)$/.test(
          w,
        ),
    );
    const shown = content.filter((w) => sentenceWords.has(w.slice(0, 5))).length;
    if (content.length > 0 && shown >= Math.max(1, 0.4 * content.length)) continue;
    const head = (w: string) => w.toLowerCase().split(/\s+/).at(-1)!;
    const pos =
      item.partOfSpeech === 'verb' ? 'verb' : item.partOfSpeech === 'adjective' ? 'adj' : 'noun';
    // Wrong meanings about as long as the right one, and people for a person: "a porch"
    // against "person who does no work" is chosen by elimination.
    const person = (w: VocabularyItem) =>
      pos === 'noun' && lexFileOf(head(w.term).replace(/s$/, ''), 'noun') === 18;
    const length = (d: string) => d.split(/\s+/).length;
    const others = words.filter(
      (w) =>
        w !== item &&
        w.partOfSpeech === item.partOfSpeech &&
        (!person(item) || person(w)) &&
        length(w.definition) <= 2.5 * length(item.definition) + 1 &&
        length(item.definition) <= 2.5 * length(w.definition) + 1 &&
        normaliseForMatch(w.definition) !== normaliseForMatch(item.definition) &&
        !wordNetNear(head(item.term), head(w.term), pos) &&
        // The wrong meaning must not name the word or its sentence's words ("a machine used for printing").
        !overlaps(item.context, w.term),
    );
    if (others.length < 2) continue;
    const distractors = shuffle(others, ctx.random)
      .slice(0, 3)
      .map((w) => capitalise(w.definition));
    out.push({
      form: 'vocab_context',
      prompt: `In the sentence “${item.context}”, what does “${item.term}” mean?`,
      answer: capitalise(item.definition),
      distractors,
      modelAnswer: capitalise(item.definition),
      evidence: item.context,
      sentences: [s.index],
    });
  }
  return out;
}

/** Sentences worth asking about, best first and spread over the text. */
export function candidateSentences(ctx: WriterContext, count: number): Sentence[] {
  return pickSentences(ctx, count, { noQuotes: true, maxWords: 32, minWords: 5 });
}

/**
 * True when an item reads on its own: no stem, key or option leans on a sentence the student
 * does not see ("the company" of two, "at the time", "The secret", "Second,"), and no "his" or
 * "her" in a stem before anyone it could be ("Who lived with her grandfather?" gives the answer away).
 */
export function readsAlone(ctx: WriterContext, c: FormCandidate): boolean {
  // The writer's own frame ("Which of these happened first?") points to the options.
  if (needsContext(c.prompt.replace(/^Which of these\b/, 'Which'), ctx.analysis)) return false;
  if ([c.answer, ...c.distractors].some((x) => needsContext(x, ctx.analysis))) return false;
  const stem = c.prompt.replace(/“[^”]*”/g, '');
  const m = /\b(?:his|her|him|hers|himself|herself|them|their)\b/i.exec(stem);
  if (m && !/\s\p{Lu}/u.test(stem.slice(0, m.index))) return false;
  return true;
}

const importanceCache = new WeakMap<object, number[]>();

/** True when the sentence is among the passage's more important ones (at or above quantile q). */
export function important(ctx: WriterContext, s: Sentence, q: number): boolean {
  let sorted = importanceCache.get(ctx.analysis);
  if (!sorted) {
    sorted = ctx.analysis.sentences.map((x) => x.importance).sort((a, b) => a - b);
    importanceCache.set(ctx.analysis, sorted);
  }
  if (sorted.length < 8) return true;
  const cut = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
  return s.importance >= cut;
}
