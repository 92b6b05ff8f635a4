import { normaliseForMatch } from '../quality.js';
import type { Analysis, Sentence, Token } from './analyse.js';
import {
  clauseEnd,
  invertedQuestion,
  spanText,
  subjectPhrase,
  subjectQuestion,
} from './clauses.js';
import type { Clause } from './clauses.js';
import { capitalise, type WriterContext } from './common.js';
import { speechSentences, storyCast, type CastMember } from './characters.js';
import { RELATIONAL } from './context.js';
import { commonVerb, wordNetNear } from './gates.js';
import {
  clauseOf,
  important,
  placeWithin,
  readsAlone,
  resolvePronoun,
  type FormCandidate,
} from './forms.js';
import { lexFileOf, sensesOf, synsetAt } from './wordnet.js';
import { personSwapFits, swapContradicted } from './swaps.js';

/**
 * Questions about who did what, what they did it to and where, from the plain clauses of a
 * story ("Dad cooked fish over the campfire." → "Who cooked fish over the campfire?", "What did
 * Dad cook over the campfire?"). Short, simple stories have few names, numbers or causes for the
 * other forms, and their everyday words make weak blanks; their clauses of action are what a
 * teacher asks about. Wrong options are other characters, things and places of the same story,
 * each checked not to do (or undergo) the same action anywhere in the text, so exactly one
 * option is right.
 */

const SPEECH_VERB =
  /^(?:said|says|asked|replied|cried|answered|exclaimed|whispered|shouted|muttered|called|added|continued|remarked|returned|thought|began)$/i;
const NOT_ACTIONS = /^(?:be|have|seem|become|say|tell|ask|think|know|want|wish|hope|like|feel)$/;
/** Things a character can act on: animals, artifacts, food, plants, body parts (not natural objects: "the valley"). */
const THINGS = new Set([5, 6, 8, 13, 20, 27]);
/** Places a character can be or go: locations, buildings and other made places, natural objects. */
const PLACES = new Set([6, 15, 17]);
/** WordNet's lexicographer file of verbs of perception (look, listen, watch). */
const PERCEPTION = 39;
const LOCATIVE = new Set(['in', 'at', 'on', 'under', 'near', 'behind', 'inside', 'beside', 'by']);
const DIRECTIONAL = new Set([
  'to',
  'into',
  'onto',
  'toward',
  'towards',
  'across',
  'through',
  'over',
]);

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A noun one can be at or go to in one of its first senses ("school": a building, not only an institution). */
function placeLike(lemma: string): boolean {
  return sensesOf(lemma, 'noun')
    .slice(0, 3)
    .some((x) => PLACES.has(x.lexFile));
}

const STRUCTURES = new Set(['structure', 'building', 'room', 'area', 'surface', 'way']);

/**
 * A part of a building or a place ("the wall", "the house", "the floor"): not something a
 * character picks up, so no option for "What did Dad find?" (a wrong option that no one would
 * choose is no test).
 */
function structureLike(lemma: string): boolean {
  let frontier = sensesOf(lemma, 'noun').slice(0, 1);
  for (let depth = 0; depth < 8 && frontier.length; depth++) {
    const next: typeof frontier = [];
    for (const x of frontier) {
      if (x.words.some((w) => STRUCTURES.has(w.toLowerCase()))) return true;
      for (const p of x.pointers) {
        if (p.symbol !== '@') continue;
        const up = synsetAt(p.offset, 'noun');
        if (up) next.push(up);
      }
    }
    frontier = next;
  }
  return false;
}

/** The kinds of concrete thing a noun names in its first two senses ("cake": food and a block). */
function thingKinds(lemma: string): Set<number> {
  return new Set(
    sensesOf(lemma, 'noun')
      .slice(0, 2)
      .map((x) => x.lexFile)
      .filter((f) => THINGS.has(f)),
  );
}

/** True when the text shows this character doing `lemma` (in a sentence naming both). */
function doesAnywhere(analysis: Analysis, member: CastMember, lemma: string): boolean {
  return analysis.sentences.some(
    (s) =>
      !s.hasQuotes &&
      member.pattern.test(s.text) &&
      s.tokens.some((t) => t.pos === 'VERB' && t.lemma.toLowerCase() === lemma),
  );
}

/**
 * The sentence as evidence, with the sentences before it back to the one naming the character
 * when the sentence only says "she" (the answer must stand in the evidence).
 */
function evidenceNaming(ctx: WriterContext, s: Sentence, member: CastMember): string | null {
  if (member.pattern.test(s.text)) return s.text;
  const all = ctx.analysis.sentences;
  // The sentence just before only, and short enough to read as one piece of evidence.
  if (s.index === 0 || all[s.index - 1]!.words + s.words > 36) return null;
  for (let i = s.index - 1; i >= Math.max(0, s.index - 1); i--) {
    if (all[i]!.paragraph !== s.paragraph) return null;
    if (member.pattern.test(all[i]!.text))
      return all
        .slice(i, s.index + 1)
        .map((x) => x.text)
        .join(' ');
  }
  return null;
}

/** The cast member the clause's subject is, or null ("my sister Rosa" is Rosa). */
function subjectMember(ctx: WriterContext, c: Clause, cast: CastMember[]): CastMember | null {
  const t = c.sentence.tokens;
  // "Mas’r Jaggers": dialect or a possessive in the subject; the tagger's reading is unsure.
  if (t.slice(c.subjectStart, c.subjectEnd).some((x) => /['’]/.test(x.value))) return null;
  if (c.pronoun) {
    if (c.pronoun !== 'he' && c.pronoun !== 'she') return null;
    if (!resolvePronoun(ctx, c, null) || !c.subjectText) return null;
    return cast.find((m) => m.pattern.test(c.subjectText!) && m.label !== 'the narrator') ?? null;
  }
  if (c.subjectEnd === c.subjectStart + 1 && t[c.subjectStart]!.value === 'I')
    return cast.find((m) => m.label === 'the narrator') ?? null;
  const phrase = subjectPhrase(c);
  const plain = phrase.replace(/^(?:the|a|an) /i, '');
  for (const m of cast) {
    if (m.label === 'the narrator') continue;
    const label = m.label.replace(/^the /, '');
    if (normaliseForMatch(plain) === normaliseForMatch(label)) {
      if (m.label.startsWith('the ')) c.subjectText = m.label;
      return m;
    }
    // "My sister Rosa", "her grandfather Leo": a relation before the name; "my dad" is "Dad".
    const named = new RegExp(`^(?:my|our|his|her|their|the) [a-z]+ ${escape(m.label)}$`, 'i');
    const kin = new RegExp(`^(?:my|our) ${escape(m.label)}$`, 'i');
    const raw = spanText(c.sentence, c.subjectStart, c.subjectEnd);
    if (named.test(raw) || (/^\p{Lu}/u.test(m.label) && kin.test(raw))) {
      c.subjectText = m.label;
      return m;
    }
  }
  return null;
}

function display(label: string): string {
  return capitalise(label);
}

/** A plain action of the story: a main verb that is not be/have/say/think. */
function actionVerb(c: Clause): Token | null {
  if (!c.verb || NOT_ACTIONS.test(c.verb.lemma.toLowerCase())) return null;
  if (SPEECH_VERB.test(c.verb.value)) return null;
  // "I believe he's a good seaman", "I suppose": the teller's present, not an event; a story's
  // events are told in the past.
  const past = (x: Token) =>
    x.value.toLowerCase() !== x.lemma.toLowerCase() && !/(?:ing|s)$/i.test(x.value);
  if (c.aux.length === 0 ? !past(c.verb) : !/^(?:was|were|had|did)$/i.test(c.aux[0]!.value))
    return null;
  if (c.aux.some((a) => /^(?:will|would|could|should|might|may|must|can|shall)$/i.test(a.value)))
    return null;
  return c.verb;
}

/** "Who cooked fish over the campfire?" with the story's other characters as options. */
export function whoQuestion(
  ctx: WriterContext,
  s: Sentence,
  c: Clause,
  open = false,
): FormCandidate | null {
  const cast = storyCast(ctx.analysis);
  if (cast.length < (open ? 2 : 3)) return null;
  const verb = actionVerb(c);
  if (!verb) return null;
  const member = subjectMember(ctx, c, cast);
  if (!member) return null;
  // "Who looked out of the window?": only about what matters in the story, and not an
  // everyday verb with no object (looked, went, sat) that any character might do.
  if (!important(ctx, s, 0.4)) return null;
  const object = ['DET', 'NOUN', 'PROPN', 'NUM', 'ADJ'].includes(
    c.sentence.tokens[c.restStart]?.pos ?? '',
  );
  if (!object && commonVerb(verb.lemma)) return null;
  const prompt = subjectQuestion(c, 'Who');
  if (!prompt || prompt.split(/\s+/).length < 5) return null;
  // "Who took it, held it up?": what "it" is stands in another sentence.
  if (/\b(?:it|them|this|that|these|those|there)\b/i.test(prompt)) return null;
  const lemma = verb.lemma.toLowerCase();
  const options = cast.filter(
    (m) => m !== member && !m.pattern.test(prompt) && !doesAnywhere(ctx.analysis, m, lemma),
  );
  if (member.pattern.test(prompt) || options.length < (open ? 1 : 2)) return null;
  const answer = display(member.label);
  const evidence = evidenceNaming(ctx, s, member);
  if (!evidence) return null;
  return {
    form: 'wh',
    prompt,
    answer,
    distractors: open ? [] : options.map((m) => display(m.label)),
    modelAnswer: `${answer}.`,
    evidence,
    sentences: [s.index],
  };
}

/** A noun phrase at token i: a determiner or none, describing words, nouns. Its end, or -1. */
function nounPhraseAt(t: Token[], i: number): { end: number; head: Token } | -1 {
  let k = i;
  if (t[k] && /^(?:the|a|an|some)$/i.test(t[k]!.value)) k++;
  while (t[k] && t[k]!.pos === 'ADJ') k++;
  const nounStart = k;
  while (t[k] && t[k]!.pos === 'NOUN') k++;
  if (k === nounStart) return -1;
  return { end: k, head: t[k - 1]! };
}

interface Phrase {
  text: string;
  head: string;
  lexFile: number;
  sentence: number;
  plural: boolean;
  prep?: string;
}

const phraseCache = new WeakMap<Analysis, Phrase[]>();

/** Every plain noun phrase of the text (after a determiner or a preposition), with its head's category. */
function phrasesOf(analysis: Analysis): Phrase[] {
  const cached = phraseCache.get(analysis);
  if (cached) return cached;
  const out: Phrase[] = [];
  for (const s of analysis.sentences) {
    const t = s.tokens;
    for (let i = 0; i < t.length; i++) {
      if (!/^(?:the|a|an)$/i.test(t[i]!.value)) continue;
      const np = nounPhraseAt(t, i);
      if (np === -1) continue;
      // "an old woman gathering sticks": a participle read as a noun; "a piece": of what?
      if (t.slice(i, np.end).some((x) => /ing$/i.test(x.value) && x.pos === 'NOUN')) continue;
      if (RELATIONAL.test(np.head.value) || RELATIONAL.test(`${np.head.value}s`)) continue;
      // "a loaf of bread", "the top of the hill": the phrase runs on.
      if (t[np.end]?.normal === 'of') continue;
      // "the fire station": the whole compound, not "the fire".
      if (t[np.end]?.pos === 'PROPN' || t[np.end]?.value === "'s" || t[np.end]?.value === '’s')
        continue;
      const prep = i > 0 && t[i - 1]!.pos === 'ADP' ? t[i - 1]!.normal : undefined;
      out.push({
        text: spanText(s, i, np.end),
        head: np.head.lemma.toLowerCase(),
        lexFile: lexFileOf(np.head.lemma.toLowerCase(), 'noun'),
        sentence: s.index,
        plural: np.head.value.toLowerCase() !== np.head.lemma.toLowerCase(),
        ...(prep ? { prep } : {}),
      });
    }
  }
  phraseCache.set(analysis, out);
  return out;
}

/** True when a sentence of the text has this verb (lemma) and this noun (lemma) together. */
function together(analysis: Analysis, lemma: string, noun: string): boolean {
  return analysis.sentences.some(
    (s) =>
      s.tokens.some((t) => t.pos === 'VERB' && t.lemma.toLowerCase() === lemma) &&
      s.tokens.some((t) => t.pos === 'NOUN' && t.lemma.toLowerCase() === noun),
  );
}

/** Distinct options by head noun, none near the key in WordNet, none named in the stem. */
function distinctHeads(
  key: Phrase | { head: string },
  pool: Phrase[],
  prompt: string,
  keep: (p: Phrase) => boolean,
): Phrase[] {
  const seen = new Set([key.head]);
  const out: Phrase[] = [];
  const stem = normaliseForMatch(prompt);
  for (const p of pool) {
    if (seen.has(p.head) || !keep(p)) continue;
    if (stem.includes(normaliseForMatch(p.head))) continue;
    if (wordNetNear(key.head, p.head, 'noun')) continue;
    seen.add(p.head);
    out.push(p);
  }
  return out;
}

/**
 * "What did Dad cook over the campfire?" from a character's action on a concrete thing; the
 * options are other things of the same kind from the story (foods for a food, animals for an
 * animal) that the text never ties to the same verb.
 */
export function whatQuestion(
  ctx: WriterContext,
  s: Sentence,
  c: Clause,
  open = false,
): FormCandidate | null {
  const cast = storyCast(ctx.analysis);
  if (cast.length < 1) return null;
  const verb = actionVerb(c);
  if (!verb || !subjectMember(ctx, c, cast)) return null;
  const t = s.tokens;
  const np = nounPhraseAt(t, c.restStart);
  if (np === -1) return null;
  const end = clauseEnd(c);
  if (np.end > end) return null;
  // "named the frog Hopper", "gave Maya a hug": a second object after the first.
  const after = t[np.end];
  if (after && np.end < end && !['ADP', 'PUNCT'].includes(after.pos) && after.normal !== 'and')
    return null;
  if (after?.normal === 'and' || after?.normal === 'of' || after?.normal === 'or') return null;
  const head = np.head.lemma.toLowerCase();
  const kinds = thingKinds(head);
  if (kinds.size === 0) return null;
  const lemma = verb.lemma.toLowerCase();
  const prompt = invertedQuestion(c, 'What', [c.restStart, np.end]);
  if (!prompt || prompt.split(/\s+/).length < 5) return null;
  const answer = spanText(s, c.restStart, np.end);
  if (normaliseForMatch(prompt).includes(normaliseForMatch(head))) return null;
  // Things of the same kind and number ("the blanket": the cloak, the wool; not "the houses").
  const plural = np.head.value.toLowerCase() !== head;
  const pool = phrasesOf(ctx.analysis).filter(
    (p) =>
      // Its main sense a thing of the key's kind ("a loud crack" is a noise first).
      kinds.has(p.lexFile) && p.sentence !== s.index && p.plural === plural,
  );
  const options = distinctHeads(
    { head },
    pool,
    prompt,
    (p) =>
      !together(ctx.analysis, lemma, p.head) &&
      !cast.some((m) => m.pattern.test(p.text)) &&
      (structureLike(head) || !structureLike(p.head)),
  );
  if (open ? toldTwice(ctx, s, c, lemma) : options.length < 2) return null;
  return {
    form: 'wh',
    prompt,
    answer,
    distractors: open ? [] : options.map((p) => p.text),
    modelAnswer: `${capitalise(answer)}.`,
    evidence: s.text,
    sentences: [s.index],
  };
}

/**
 * "Where did the fox run?" "Into the woods." from a place phrase of a character's action; the
 * options are other places of the story with a preposition of the same sort (to/into against
 * to/into, in/at/under against in/at/under), none tied in the text to the same verb or character.
 */
export function whereQuestion(
  ctx: WriterContext,
  s: Sentence,
  c: Clause,
  open = false,
): FormCandidate | null {
  const cast = storyCast(ctx.analysis);
  if (cast.length < 1) return null;
  const verb = actionVerb(c);
  if (!verb) return null;
  const member = subjectMember(ctx, c, cast);
  if (!member) return null;
  // "Where did the narrator look? At the house.": where one looks or listens, with nothing
  // seen, is no place of the story's action ("Where did Ben see something red?" is one).
  const gaze = lexFileOf(verb.lemma.toLowerCase(), 'verb') === PERCEPTION;
  const t = s.tokens;
  const end = clauseEnd(c);
  for (let i = c.restStart; i < end; i++) {
    const prep = t[i]!;
    if (prep.value === ',') return null;
    const locative = LOCATIVE.has(prep.normal);
    if (!locative && !DIRECTIONAL.has(prep.normal)) continue;
    if (gaze && i === c.restStart) return null;
    const np = nounPhraseAt(t, i + 1);
    if (np === -1 || !/^(?:the|a|an)$/i.test(t[i + 1]!.value)) continue;
    const head = np.head.lemma.toLowerCase();
    if (!placeLike(head)) continue;
    // "a house for Hopper out of sticks", "to the top of the hill": the place runs on.
    if (t[np.end] && np.end < end && /^(?:of|'s|’s)$/.test(t[np.end]!.value)) return null;
    // A second place phrase after the first belongs to the answer ("under a rock near the dock").
    let stop = np.end;
    const next = t[stop];
    if (next && (LOCATIVE.has(next.normal) || DIRECTIONAL.has(next.normal))) {
      const more = nounPhraseAt(t, stop + 1);
      if (more === -1 || !placeLike(more.head.lemma.toLowerCase())) continue;
      stop = more.end;
    }
    if (stop < end && t[stop]!.pos !== 'ADP' && t[stop]!.value !== ',') continue;
    // "at the edge of a fishing village": the last place runs on.
    if (t[stop] && /^(?:of|'s|’s)$/.test(t[stop]!.value)) return null;
    const prompt = invertedQuestion(c, 'Where', [i, stop]);
    if (!prompt || prompt.split(/\s+/).length < 4) return null;
    const answer = capitalise(spanText(s, i, stop));
    const lemma = verb.lemma.toLowerCase();
    const sameSort = locative ? LOCATIVE : DIRECTIONAL;
    const heads = new Set(
      t
        .slice(i, stop)
        .filter((x) => x.pos === 'NOUN')
        .map((x) => x.lemma.toLowerCase()),
    );
    const pool = phrasesOf(ctx.analysis).filter(
      (p) =>
        !!p.prep &&
        sameSort.has(p.prep) &&
        placeLike(p.head) &&
        !heads.has(p.head) &&
        p.sentence !== s.index,
    );
    const options = distinctHeads(
      { head },
      pool,
      prompt,
      (p) =>
        // The character was there too, or the action happens there: a second right answer.
        !together(ctx.analysis, lemma, p.head) &&
        // (A sentence naming no one may be about this character too: "Every day he walked
        // to the harbor.")
        !ctx.analysis.sentences.some(
          (x) =>
            (member.pattern.test(x.text) || !cast.some((m) => m.pattern.test(x.text))) &&
            x.tokens.some((y) => y.pos === 'NOUN' && y.lemma.toLowerCase() === p.head),
        ) &&
        ![...heads].some((h) => placeWithin(h, p.head) || placeWithin(p.head, h)) &&
        !cast.some((m) => m.pattern.test(p.text)),
    );
    if (open ? toldTwice(ctx, s, c, lemma) : options.length < 2) return null;
    return {
      form: 'wh',
      prompt,
      answer,
      distractors: open ? [] : options.map((p) => capitalise(`${p.prep} ${p.text}`)),
      modelAnswer: `${answer}.`,
      evidence: s.text,
      sentences: [s.index],
    };
  }
  return null;
}

/**
 * An open question needs no options, but one answer still: the text must not tell the same
 * action of the same character twice ("Where did Hana walk?" when she walks to two places).
 */
function toldTwice(ctx: WriterContext, s: Sentence, c: Clause, lemma: string): boolean {
  const member = subjectMember(ctx, c, storyCast(ctx.analysis));
  if (!member) return true;
  return ctx.analysis.sentences.some(
    (x) =>
      x.index !== s.index &&
      member.pattern.test(x.text) &&
      x.tokens.some((t) => t.pos === 'VERB' && t.lemma.toLowerCase() === lemma),
  );
}

/**
 * Who/what/where questions about a story's characters from a sentence, best first; `open` for
 * short answers (no options needed, but still one answer in the text).
 */
export function storyCandidates(ctx: WriterContext, s: Sentence, open = false): FormCandidate[] {
  if (s.speaker || s.words > 30 || s.words < 5) return [];
  if (speechSentences(ctx.analysis).has(s.index)) return [];
  if (storyCast(ctx.analysis).length === 0) return [];
  const c = clauseOf(ctx, s, 0, s.tokens.length, true);
  if (!c) return [];
  // "The straw hit on a good idea, and said: ‘…’": narration before a quotation is fine; a
  // clause inside one is a character's words, not the story's.
  const quoteAt = s.tokens.findIndex((x) => /^[“"‘']/.test(x.value));
  if (s.hasQuotes && (quoteAt < 0 || quoteAt < clauseEnd(c))) return [];
  const out: FormCandidate[] = [];
  for (const make of [whoQuestion, whatQuestion, whereQuestion]) {
    // Each builder may set the subject's name on the clause; read it afresh.
    const fresh = clauseOf(ctx, s, 0, s.tokens.length, true);
    const q = fresh && make(ctx, s, fresh, open);
    if (q && readsAlone(ctx, q)) out.push(q);
  }
  return out;
}

/**
 * False statements for a story: the statement with its acting character replaced by another
 * of the cast who never does that in the text ("Dad cooked fish over the campfire." → "Mom
 * cooked fish over the campfire."). Not for states ("Nora was quiet"), not between genders when
 * the statement has a gendered word, not when another sentence ties the new character to the
 * same content.
 */
export function castSwaps(
  ctx: WriterContext,
  s: Sentence,
  statement: string,
): Array<{ statement: string; how: string }> {
  const cast = storyCast(ctx.analysis);
  if (cast.length < 2 || s.hasQuotes || s.negative) return [];
  if (speechSentences(ctx.analysis).has(s.index)) return [];
  const c = clauseOf(ctx, s, 0, s.tokens.length, true);
  if (!c) return [];
  const verb = actionVerb(c);
  if (!verb) return [];
  const member = subjectMember(ctx, c, cast);
  if (!member) return [];
  // "Lena lived with her grandmother" → "Grandma Ruth lived with her grandmother": a relation
  // in the statement ties it to who is in it, and a swap reads as nonsense.
  if (
    /\b(?:mother|father|mom|mum|dad|grandmother|grandfather|grandma|grandpa|granny|sister|brother|son|daughter|aunt|uncle|cousin|wife|husband|friend)s?\b/i.test(
      statement,
    )
  )
    return [];
  const from = display(member.label);
  const at = statement.search(new RegExp(`(?:^|(?<=[\\s,]))${escape(member.label)}\\b`, 'i'));
  if (
    at < 0 ||
    statement.slice(at + 1).search(new RegExp(`\\b${escape(member.label)}\\b`, 'i')) >= 0
  )
    return [];
  const labels = cast.map((m) => display(m.label));
  const out: Array<{ statement: string; how: string }> = [];
  const lemma = verb.lemma.toLowerCase();
  for (const m of cast) {
    if (m === member || doesAnywhere(ctx.analysis, m, lemma)) continue;
    // "The mouse laughed and let Mouse go": the new character is already in the statement.
    const word = m.label.replace(/^the /, '');
    if (new RegExp(`\\b${escape(word)}\\b`, 'i').test(statement)) continue;
    const to = display(m.label);
    const fits = personSwapFits(
      ctx.analysis,
      statement.slice(0, at) + from + statement.slice(at + member.label.length),
      from,
      to,
      labels,
    );
    if (!fits || !swapContradicted(ctx.analysis, s, member.label, m.label)) continue;
    const label = at === 0 ? to : m.label;
    out.push({
      statement: statement.slice(0, at) + label + statement.slice(at + member.label.length),
      how: 'person',
    });
  }
  return out;
}
