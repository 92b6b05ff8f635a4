import type { Analysis, Sentence, Token } from './analyse.js';
import { wordGrade, zipf } from './familiar.js';
import {
  antonymsOf,
  frequencyOf,
  lexFileOf,
  lookup,
  synsetAt,
  type Synset,
  type WordNetPos,
} from './wordnet.js';

/**
 * Validity gates for items with one right answer (multiple choice, fill in the blank, the
 * false statements of true/false). A generator overgenerates and these reject: a distractor
 * that could also be right (a WordNet synonym or near relative of the key, a derivational
 * relative, a word the passage uses in the same role), a blank that is trivial (the passage's
 * topic word, a word whose answer stands in its own sentence, a part of a proper name, an
 * everyday word or verb) and options that do not fit the blank's grammar (a/an).
 */

const POS_CODES: Record<string, WordNetPos> = {
  n: 'noun',
  v: 'verb',
  a: 'adj',
  s: 'adj',
  r: 'adv',
};

const HYPERNYM = new Set(['@', '@i']);

/** WordNet noun files of natural kinds: animal, body, food, location, person, plant, substance. */
const NATURAL_KINDS = new Set([5, 8, 13, 15, 18, 20, 27]);

function sensesOf(lemma: string, pos: WordNetPos): Synset[] {
  const entry = lookup(lemma, pos);
  if (!entry) return [];
  return entry.offsets.map((o) => synsetAt(o, pos)).filter((s): s is Synset => s !== null);
}

/** Synsets reachable from the word's senses by up to `depth` hypernym edges, with their distance. */
function ancestors(lemma: string, pos: WordNetPos, depth: number): Map<number, number> {
  const cacheKey = `${pos}|${depth}|${lemma.toLowerCase()}`;
  const cached = ancestorCache.get(cacheKey);
  if (cached) return cached;
  const out = new Map<number, number>();
  ancestorCache.set(cacheKey, out);
  let frontier = sensesOf(lemma, pos);
  for (const s of frontier) out.set(s.offset, 0);
  for (let d = 1; d <= depth && frontier.length; d++) {
    const next: Synset[] = [];
    for (const s of frontier) {
      for (const p of s.pointers) {
        if (!HYPERNYM.has(p.symbol) || out.has(p.offset)) continue;
        const parent = synsetAt(p.offset, POS_CODES[p.pos] ?? pos);
        if (!parent) continue;
        out.set(p.offset, d);
        next.push(parent);
      }
    }
    frontier = next;
  }
  return out;
}

const ancestorCache = new Map<string, Map<number, number>>();
const derivationCache = new Map<string, Set<string>>();

/** Lemmas linked to the word by WordNet's derivation pointers ("print" ↔ "printer"). */
function derivationallyRelated(lemma: string, pos: WordNetPos): Set<string> {
  const cacheKey = `${pos}|${lemma.toLowerCase()}`;
  const cached = derivationCache.get(cacheKey);
  if (cached) return cached;
  const out = new Set<string>();
  derivationCache.set(cacheKey, out);
  const key = lemma.toLowerCase();
  for (const sense of sensesOf(lemma, pos)) {
    const wordIndex = sense.words.findIndex((w) => w.toLowerCase() === key) + 1;
    for (const p of sense.pointers) {
      if (p.symbol !== '+' || (p.source !== 0 && p.source !== wordIndex)) continue;
      const target = synsetAt(p.offset, POS_CODES[p.pos] ?? pos);
      const word = target?.words[Math.max(0, p.target - 1)];
      if (word) out.add(word.toLowerCase());
    }
  }
  return out;
}

const nearCache = new Map<string, string | null>();

/**
 * Why a candidate is too close in meaning to the key to be a safe distractor (null when it is
 * not): a shared synset, a path of at most 2 hypernym edges between any of their senses (3 for
 * verbs), similar adjectives, a derivational relative, or the same stem.
 */
export function wordNetNear(key: string, candidate: string, pos: WordNetPos): string | null {
  const a = key.toLowerCase();
  const b = candidate.toLowerCase();
  const cacheKey = `${pos}|${a}|${b}`;
  const cached = nearCache.get(cacheKey);
  if (cached !== undefined) return cached;
  let why: string | null = null;
  if (a === b) why = 'same word';
  else if (sameStem(a, b)) why = 'same stem';
  else {
    const depth = pos === 'verb' ? 3 : 2;
    const up = ancestors(a, pos, depth);
    const other = ancestors(b, pos, depth);
    const opposite = antonymsOf(a, pos).includes(b) || antonymsOf(b, pos).includes(a);
    for (const [offset, d] of other) {
      const e = up.get(offset);
      if (e === undefined) continue;
      if (d + e === 0) why = 'shared synset';
      else if (d + e <= depth && (d === 0 || e === 0)) why = `hypernym distance ${d + e}`;
      // Co-hyponyms ("expedition" and "voyage", both journeys) are near too, except natural
      // kinds that are checkably different ("lead" and "tin") and opposites.
      else if (
        d + e <= depth &&
        !opposite &&
        !(pos === 'noun' && NATURAL_KINDS.has(synsetAt(offset, pos)?.lexFile ?? -1))
      )
        why = `co-hyponym distance ${d + e}`;
      if (why) break;
    }
    if (!why && pos === 'adj') {
      // Adjectives have no hypernyms: "similar to" links and shared heads stand in for them.
      const similar = (w: string) =>
        new Set(
          sensesOf(w, 'adj').flatMap((s) => [
            s.offset,
            ...s.pointers.filter((p) => p.symbol === '&').map((p) => p.offset),
          ]),
        );
      const sa = similar(a);
      for (const o of similar(b))
        if (sa.has(o)) {
          why = 'similar adjective';
          break;
        }
    }
    if (!why) {
      const related = derivationallyRelated(a, pos);
      const relatedB = derivationallyRelated(b, pos);
      if (related.has(b) || relatedB.has(a)) why = 'derivational relative';
      else {
        // "printing" and "printer": both derived from the same word.
        for (const w of related)
          if (relatedB.has(w)) {
            why = 'derivational relative';
            break;
          }
      }
    }
  }
  nearCache.set(cacheKey, why);
  return why;
}

/** Crude stemming: "voyage"/"voyages", "print"/"printing"/"printer" share a stem. */
export function sameStem(a: string, b: string): boolean {
  const stem = (w: string) =>
    w
      .toLowerCase()
      .replace(/(?:ations?|ings?|ers?|ed|es|s|ly|ment|ness|ity|ies|y|e)$/, '')
      .slice(0, 6);
  const x = stem(a);
  const y = stem(b);
  return x.length >= 4 && x === y;
}

/* ---------------------------------------------------------------------------------------- */
/* The class two words share                                                                 */
/* ---------------------------------------------------------------------------------------- */

/**
 * Kinds of person that every person is one of, whatever else they are: kin, age, sex. A
 * teenager can be a student or a driver, a skipper a father; a scribe cannot be a goldsmith.
 */
const PERSON_DIMENSIONS = new Set(['relative', 'juvenile', 'adult', 'male', 'female']);

/** The kin, age and sex classes among the word's classes ("father": relative, male). */
function personDimensions(lemma: string): Set<string> {
  const out = new Set<string>();
  for (const offset of allAncestors(lemma, 'noun').keys()) {
    const s = synsetAt(offset, 'noun');
    const head = s?.words[0]?.toLowerCase();
    if (s?.lexFile === PERSON_FILE && head && PERSON_DIMENSIONS.has(head)) out.add(head);
  }
  return out;
}

/** WordNet's noun.person file, and the depth of its top synset (entity > physical entity > causal agent > person). */
const PERSON_FILE = 18;
const PERSON_DEPTH = 3;

/** How many of a word's senses (most frequent first) speak for it when comparing classes. */
const CLASS_SENSES = 3;

/** Every hypernym of the word's first senses, with its distance (nearest first). */
function allAncestors(lemma: string, pos: WordNetPos): Map<number, number> {
  const cacheKey = `${pos}|${lemma.toLowerCase()}`;
  const cached = allAncestorCache.get(cacheKey);
  if (cached) return cached;
  const out = new Map<number, number>();
  allAncestorCache.set(cacheKey, out);
  let frontier = sensesOf(lemma, pos).slice(0, CLASS_SENSES);
  for (const s of frontier) out.set(s.offset, 0);
  for (let d = 1; d <= 20 && frontier.length; d++) {
    const next: Synset[] = [];
    for (const s of frontier)
      for (const p of s.pointers) {
        if (!HYPERNYM.has(p.symbol) || out.has(p.offset)) continue;
        const parent = synsetAt(p.offset, POS_CODES[p.pos] ?? pos);
        if (!parent) continue;
        out.set(p.offset, d);
        next.push(parent);
      }
    frontier = next;
  }
  return out;
}
const allAncestorCache = new Map<string, Map<number, number>>();

/** Edges from a synset up to the root of its hierarchy ("entity" is 0, "abstraction" 1). */
function depthOf(offset: number, pos: WordNetPos, seen = 0): number {
  const cacheKey = `${pos}|${offset}`;
  const cached = depthCache.get(cacheKey);
  if (cached !== undefined) return cached;
  const s = synsetAt(offset, pos);
  const parents = s ? s.pointers.filter((p) => HYPERNYM.has(p.symbol)) : [];
  const depth =
    parents.length === 0 || seen > 25
      ? 0
      : 1 + Math.min(...parents.map((p) => depthOf(p.offset, pos, seen + 1)));
  depthCache.set(cacheKey, depth);
  return depth;
}
const depthCache = new Map<string, number>();

export interface SharedClass {
  /** The shared hypernym's depth below the root: 0–1 is "entity", "abstraction"; 6+ is narrow. */
  depth: number;
  /** Edges from the key and from the candidate up to it. */
  fromKey: number;
  fromCandidate: number;
  lexFile: number;
  name: string;
}

/**
 * The nearest class two words share through their most frequent senses (null when none): for
 * "gale" and "hurricane" a kind of atmospheric phenomenon (narrow), for "melatonin" and "face"
 * only "abstraction" (no class at all a reader would name).
 */
export function sharedClass(key: string, candidate: string, pos: WordNetPos): SharedClass | null {
  const up = allAncestors(key, pos);
  const other = allAncestors(candidate, pos);
  let best: SharedClass | null = null;
  for (const [offset, d] of other) {
    const e = up.get(offset);
    if (e === undefined) continue;
    const depth = depthOf(offset, pos);
    if (
      !best ||
      d + e < best.fromKey + best.fromCandidate ||
      (d + e === best.fromKey + best.fromCandidate && depth > best.depth)
    ) {
      const s = synsetAt(offset, pos);
      best = {
        depth,
        fromKey: e,
        fromCandidate: d,
        lexFile: s?.lexFile ?? -1,
        name: s?.words[0] ?? '',
      };
    }
  }
  return best;
}

/**
 * Why a noun cannot stand in for the key in meaning, or could stand for the same thing (null
 * when it is a fair wrong answer). A distractor whose only class in common with the key is
 * "entity", "physical entity" or "abstraction" ("release _____": melatonin / face / body) is
 * ruled out by sense alone, so the item is trivial; two made things, events or ideas in the same
 * narrow class ("phone" and "laptop", both devices; "biology" and "chemistry", both natural
 * sciences; "gale" and "hurricane") often both fit the sentence. Natural kinds (animals, plants,
 * substances, places, people) are checkably different and keep their narrow classes.
 */
export function classFault(key: string, candidate: string): string | null {
  if (!lookup(key, 'noun')) return null;
  // "a _____ fair" with "drear", "fitful": not a noun at all.
  if (!lookup(candidate, 'noun')) return 'not a noun';
  const shared = sharedClass(key, candidate, 'noun');
  if (!shared || shared.depth <= 1) return 'unrelated meaning';
  // People are named by age, family, work or what befalls them, and one person is all of these:
  // the skipper is a father, teenagers are students. A wrong answer for a kind of person comes
  // from the key's own dimension (another kind of worker, another age), not only "person".
  if (lexFileOf(key, 'noun') === PERSON_FILE && shared.depth <= PERSON_DEPTH) {
    const mine = personDimensions(key);
    const theirs = personDimensions(candidate);
    for (const d of new Set([...mine, ...theirs]))
      if (!mine.has(d) || !theirs.has(d)) return 'person of another kind';
  }
  if (shared.depth >= 6 && !NATURAL_KINDS.has(shared.lexFile)) return 'same narrow class';
  return null;
}

/* ---------------------------------------------------------------------------------------- */
/* The role a word plays where it stands                                                     */
/* ---------------------------------------------------------------------------------------- */

const SKIP_IN_PHRASE = new Set(['DET', 'ADJ', 'NUM', 'ADV', 'PRON', 'PART']);

/**
 * The words that govern a token: the verb or preposition before its phrase ("were _____ by",
 * "accounts of the various _____"), the word the preposition hangs on, and an adjective right
 * before it. Two words with a signature in common play the same role.
 */
export function roleSignature(tokens: Token[], index: number): Set<string> {
  const out = new Set<string>();
  const self = tokens[index]!;
  const prev = tokens[index - 1];
  // An adjective or participle right before it ("printed books", "various voyages").
  if (prev && prev.pos === 'ADJ' && !prev.stop) out.add(`G:${stemOf(lemmaOf(prev))}`);
  if (prev && prev.pos === 'VERB' && /(?:ed|en)$/i.test(prev.value))
    out.add(`G:${stemOf(lemmaOf(prev))}`);
  for (let i = index - 1, steps = 0; i >= 0 && steps < 5; i--, steps++) {
    const t = tokens[i]!;
    if (t.pos === 'VERB') {
      out.add(`G:${stemOf(lemmaOf(t))}`);
      break;
    }
    if (t.pos === 'ADP') {
      const head = tokens[i - 1];
      if (head && /\w/.test(head.value)) out.add(`P:${t.normal}:${stemOf(lemmaOf(head))}`);
      break;
    }
    if (!SKIP_IN_PHRASE.has(t.pos) && t.pos !== 'AUX') break;
  }
  if (self.pos === 'NOUN' || self.pos === 'PROPN') {
    // The subject's verb: "180 copies were printed" → print.
    for (let i = index + 1, steps = 0; i < tokens.length && steps < 4; i++, steps++) {
      const t = tokens[i]!;
      if (t.pos === 'VERB') {
        out.add(`G:${stemOf(lemmaOf(t))}`);
        break;
      }
      if (t.pos !== 'AUX' && t.pos !== 'ADV' && t.pos !== 'PART') break;
    }
  }
  // The verb's own object or agent: "were _____ by hand" → "by:hand".
  if (self.pos === 'VERB') {
    const next = tokens[index + 1];
    const after = tokens[index + 2];
    if (next?.pos === 'ADP' && after && /\w/.test(after.value))
      out.add(`O:${next.normal}:${stemOf(lemmaOf(after))}`);
    else if (next && (next.pos === 'NOUN' || next.pos === 'PROPN'))
      out.add(`O:${stemOf(lemmaOf(next))}`);
    else if (next?.pos === 'DET' && after && (after.pos === 'NOUN' || after.pos === 'PROPN'))
      out.add(`O:${stemOf(lemmaOf(after))}`);
  }
  return out;
}

function lemmaOf(t: Token): string {
  return (t.lemma || t.value).toLowerCase();
}

function stemOf(word: string): string {
  return word
    .toLowerCase()
    .replace(/(?:ing|ed|es|s|e)$/, '')
    .slice(0, 6);
}

/**
 * True when the passage uses the candidate in the same role as the key anywhere: the same
 * governing verb or preposition, the same adjective before it, or the same object.
 */
export function sameRoleInPassage(
  analysis: Analysis,
  sentence: Sentence,
  tokenIndex: number,
  candidateLemma: string,
  pos: string,
): boolean {
  const signature = roleSignature(sentence.tokens, tokenIndex);
  if (signature.size === 0) return false;
  const info = analysis.words.get(`${pos}:${candidateLemma.toLowerCase()}`);
  if (!info) return false;
  for (const si of info.sentences) {
    const s = analysis.sentences[si]!;
    s.tokens.forEach((t, i) => {
      if (lemmaOf(t) !== candidateLemma.toLowerCase()) return;
      for (const sig of roleSignature(s.tokens, i)) if (signature.has(sig)) throw FOUND;
    });
  }
  return false;
}
const FOUND = Symbol('found');

/** sameRoleInPassage without exceptions leaking: true when found. */
export function usedInSameRole(
  analysis: Analysis,
  sentence: Sentence,
  tokenIndex: number,
  candidateLemma: string,
  pos: string,
): boolean {
  try {
    return sameRoleInPassage(analysis, sentence, tokenIndex, candidateLemma, pos);
  } catch (e) {
    if (e === FOUND) return true;
    throw e;
  }
}

/** Governors that say nothing about a word's role ("is", "has", "got"). */
const EMPTY_GOVERNORS = new Set([
  'G:be',
  'G:is',
  'G:was',
  'G:were',
  'G:are',
  'G:have',
  'G:has',
  'G:had',
  'G:do',
  'G:did',
  'G:get',
  'G:got',
]);

/** The roles a word plays anywhere in the passage (the union of its role signatures). */
function roleProfile(analysis: Analysis, lemma: string, pos: string): Set<string> {
  let byLemma = profileCache.get(analysis);
  if (!byLemma) profileCache.set(analysis, (byLemma = new Map()));
  const key = `${pos}:${lemma.toLowerCase()}`;
  const cached = byLemma.get(key);
  if (cached) return cached;
  const out = new Set<string>();
  const info = analysis.words.get(key);
  for (const si of info?.sentences ?? []) {
    const s = analysis.sentences[si]!;
    s.tokens.forEach((t, i) => {
      if (lemmaOf(t) !== lemma.toLowerCase()) return;
      for (const sig of roleSignature(s.tokens, i)) if (!EMPTY_GOVERNORS.has(sig)) out.add(sig);
    });
  }
  byLemma.set(key, out);
  return out;
}
const profileCache = new WeakMap<Analysis, Map<string, Set<string>>>();

/**
 * True when the passage puts the key and the candidate in the same role somewhere, not only
 * at the blank: the subject of the same verb ("the students need sleep" … "teenagers need
 * more sleep"), the object of the same verb or preposition, after the same describing word.
 * The text then treats them as the same kind of thing in that role, often the same referent,
 * and a reader may defend either.
 */
export function sameRoleElsewhere(
  analysis: Analysis,
  keyLemma: string,
  candidateLemma: string,
  pos: string,
): boolean {
  const mine = roleProfile(analysis, keyLemma, pos);
  if (mine.size === 0) return false;
  for (const sig of roleProfile(analysis, candidateLemma, pos)) if (mine.has(sig)) return true;
  return false;
}

/* ---------------------------------------------------------------------------------------- */
/* Blanks                                                                                    */
/* ---------------------------------------------------------------------------------------- */

/** Everyday things and actions that make trivial blanks (a teacher would not ask for them). */
const UNIMPORTANT = new Set(
  (
    'door window floor wall room table chair thing things way time day days year years place side ' +
    'part parts lot kind sort bit end top bottom front back hand hands head face eyes eye foot feet ' +
    'people person man men woman women moment minute hour week morning evening night'
  ).split(' '),
);
const COMMON_VERBS = new Set(
  (
    'be have do make made take go come see get give put say tell know think find keep let seem ' +
    'become begin use want look turn leave call show try ask need feel mean bring hold stand ' +
    'set run move live happen include continue start help'
  ).split(' '),
);

/** An everyday verb (in WordNet's tagged corpus more than 150 times, or on the list). */
export function commonVerb(lemma: string): boolean {
  const l = lemma.toLowerCase();
  return COMMON_VERBS.has(l) || frequencyOf(l, 'verb') > 150;
}

export function unimportantWord(lemma: string): boolean {
  return UNIMPORTANT.has(lemma.toLowerCase());
}

/**
 * The passage's topic words: the nouns it uses most, and those of its first sentence (a title
 * or an opening definition). Blanking them is trivial: the whole text gives them away.
 */
export function topicWords(analysis: Analysis): Set<string> {
  const cached = topicCache.get(analysis);
  if (cached) return cached;
  const nouns = [...analysis.words.values()]
    .filter((w) => w.pos === 'NOUN')
    .sort((a, b) => b.count - a.count);
  const out = new Set<string>();
  const top = nouns[0]?.count ?? 0;
  for (const w of nouns.slice(0, 3)) if (w.count >= 3 && w.count >= top * 0.6) out.add(w.lemma);
  const first = analysis.sentences[0];
  if (first && first.words <= 8)
    for (const t of first.tokens) if (t.pos === 'NOUN') out.add(t.lemma.toLowerCase());
  topicCache.set(analysis, out);
  return out;
}
const topicCache = new WeakMap<Analysis, Set<string>>();

/** True when the token sits inside or right next to a proper name ("the Pacific _____"). */
export function partOfName(sentence: Sentence, index: number): boolean {
  const t = sentence.tokens;
  const capital = (x: Token | undefined, i: number) =>
    !!x && i > 0 && /^\p{Lu}/u.test(x.value) && (x.pos === 'PROPN' || x.pos === 'NOUN');
  const token = t[index];
  if (!token) return false;
  if (/^\p{Lu}/u.test(token.value) && index > 0) return true;
  return capital(t[index - 1], index - 1) || capital(t[index + 1], index + 1);
}

/** True when the answer (or a word of its stem) stands elsewhere in the sentence. */
export function answerInOwnSentence(sentence: Sentence, index: number): boolean {
  const token = sentence.tokens[index]!;
  const lemma = lemmaOf(token);
  return sentence.tokens.some(
    (t, i) =>
      i !== index &&
      /\p{L}{3}/u.test(t.value) &&
      (lemmaOf(t) === lemma || sameStem(t.value, token.value)),
  );
}

/**
 * Why a word of a sentence makes a poor blank (null when it is fine): part of a name, the
 * passage's topic, its answer in its own sentence, an everyday word or verb.
 */
export function badBlank(analysis: Analysis, sentence: Sentence, index: number): string | null {
  const token = sentence.tokens[index]!;
  const lemma = lemmaOf(token);
  if (partOfName(sentence, index)) return 'part of a name';
  if (token.pos === 'NOUN' && topicWords(analysis).has(lemma)) return 'topic word';
  if (answerInOwnSentence(sentence, index)) return 'answer in its sentence';
  if (token.pos === 'NOUN' && unimportantWord(lemma)) return 'unimportant word';
  if (token.pos === 'VERB' && commonVerb(lemma)) return 'common verb';
  return null;
}

/** "a"/"an" before the blank must fit every option ("an _____": alloy, not metal). */
export function articleFits(sentence: Sentence, start: number, option: string): boolean {
  const before = sentence.text.slice(0, start).trimEnd();
  const m = /(?:^|\s)(a|an)$/i.exec(before);
  if (!m) return true;
  const vowel =
    /^(?:[aeiou]|hour|honest|honou?r|heir)/i.test(option) && !/^(?:uni|use|eu|one)/i.test(option);
  return m[1]!.toLowerCase() === 'an' ? vowel : !vowel;
}

/* ---------------------------------------------------------------------------------------- */
/* Cloze items: is the blank worth asking, and is each option a fair wrong answer?           */
/* ---------------------------------------------------------------------------------------- */

/**
 * Units, measures, quantity and calendar words, and ordinals: a blank on them ("square _____",
 * "the fifteenth _____", "_____ of tiny drops", "every night for a _____") asks for a
 * collocation, not for an idea of the text.
 */
const MEASURE_WORDS = new Set(
  (
    'century centuries decade decades year years month months week weeks day days hour hours minute ' +
    'minutes second seconds moment moments era age ages ' +
    'meter meters metre metres kilometer kilometers kilometre kilometres mile miles foot feet inch inches ' +
    'yard yards acre acres hectare hectares gram grams kilogram kilograms pound pounds ton tons tonne tonnes ' +
    'ounce ounces liter liters litre litres gallon gallons degree degrees percent percentage ' +
    'dollar dollars cent cents penny pence shilling shillings franc francs euro euros ' +
    'hundred hundreds thousand thousands million millions billion billions trillion trillions ' +
    'dozen dozens score scores half halves quarter quarters third thirds number numbers amount amounts ' +
    'first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth ' +
    'fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth twenty-first last ' +
    'january february march april may june july august september october november december ' +
    'monday tuesday wednesday thursday friday saturday sunday spring summer autumn fall winter'
  ).split(' '),
);

const NUMBER_WORD =
  /^(?:\d[\d,.]*|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|several|few|many|\w+teenth|\w+tieth|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|square|cubic)$/i;

/** A kind of person any character could be: "woman" fits wherever "weaver" does. */
const GENERIC_PEOPLE = new Set(
  (
    'person people man men woman women boy boys girl girls child children kid kids adult adults ' +
    'lady ladies gentleman gentlemen youth stranger strangers friend friends neighbour neighbor ' +
    'neighbours neighbors visitor visitors guest guests individual individuals human humans ' +
    'citizen citizens member members somebody someone'
  ).split(' '),
);

export interface ClozeTarget {
  answer: string;
  start: number;
  end: number;
  kind: 'person' | 'place' | 'name' | 'number' | 'noun' | 'verb' | 'adjective';
}

/** The person the passage is about (its most mentioned person): every reader knows the name. */
export function obviousName(analysis: Analysis, answer: string): boolean {
  const names = [...analysis.names.values()].filter((n) => n.kind === 'person');
  const most = Math.max(0, ...names.map((n) => n.count));
  for (const part of [answer, ...answer.split(/\s+/)]) {
    const info = analysis.names.get(part);
    if (info && info.kind === 'person' && info.count === most) return true;
  }
  return false;
}

/** Every word of the names of people in the text ("johannes", "gutenberg"). */
function personWords(analysis: Analysis): Set<string> {
  const cached = personCache.get(analysis);
  if (cached) return cached;
  const out = new Set<string>();
  for (const n of analysis.names.values())
    if (n.kind === 'person') {
      out.add(n.name.toLowerCase());
      for (const w of n.name.toLowerCase().split(/\s+/)) out.add(w);
    }
  personCache.set(analysis, out);
  return out;
}
const personCache = new WeakMap<Analysis, Set<string>>();

/** True when the text writes the word only with a capital inside sentences ("French", "East"). */
function properOnly(analysis: Analysis, word: string): boolean {
  const w = word.toLowerCase();
  let capital = false;
  for (const s of analysis.sentences) {
    for (let i = 0; i < s.tokens.length; i++) {
      const v = s.tokens[i]!.value;
      if (v.toLowerCase() !== w) continue;
      if (v === w) return false;
      if (i > 0) capital = true;
    }
  }
  return capital;
}

/** True when the word stands in the text as a whole word (any case). */
function wordIn(text: string, word: string): boolean {
  if (word.length < 3) return false;
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?:^|[^\\p{L}])${escaped}(?:$|[^\\p{L}])`, 'iu').test(text);
}

/**
 * True when the text writes the name only inside a longer name: a capitalised word always
 * right before or after it within its sentence ("Robert F. Wagner", "New Orleans").
 */
export function fragmentOfName(analysis: Analysis, name: string): boolean {
  if (name.includes(' ')) return false;
  let uses = 0;
  let inside = 0;
  for (const s of analysis.sentences) {
    s.tokens.forEach((t, i) => {
      if (t.value !== name) return;
      uses += 1;
      const before = i > 0 ? s.tokens[i - 1] : undefined;
      const after = s.tokens[i + 1];
      if (
        (before && i - 1 > 0 && /^\p{Lu}/u.test(before.value)) ||
        (before && i - 1 === 0 && /^\p{Lu}/u.test(before.value) && before.pos === 'PROPN') ||
        (after && /^\p{Lu}/u.test(after.value))
      )
        inside += 1;
    });
  }
  return uses > 0 && inside === uses;
}

/** A name WordNet knows only as a place, a body of people or a region, never as a person. */
function placeOrBody(name: string): boolean {
  const senses = sensesOf(name.toLowerCase(), 'noun');
  return (
    senses.length > 0 &&
    [14, 15, 17].includes(senses[0]!.lexFile) &&
    !senses.some((s) => s.lexFile === PERSON_FILE)
  );
}

/** A nationality or people used as a describing word ("the British lines", "Irish workers"). */
function demonym(word: string): boolean {
  return /^\p{Lu}/u.test(word) && !word.includes(' ') && !!lookup(word.toLowerCase(), 'adj');
}

function lemmaOfForm(analysis: Analysis, form: string, pos: string): string {
  const f = form.toLowerCase();
  for (const w of analysis.words.values())
    if (w.pos === pos && (w.lemma === f || w.forms.has(f))) return w.lemma;
  if (pos === 'VERB') {
    // A regular form WordNet knows the base of ("caulked" → "caulk").
    for (const base of [
      f.replace(/ed$/, ''),
      f.replace(/d$/, ''),
      f.replace(/ing$/, ''),
      f.replace(/e?s$/, ''),
    ])
      if (base !== f && lookup(base, 'verb')) return base;
  }
  return f.replace(/(?<=[^s])s$/, '');
}

/**
 * Why a blank is not worth a cloze item (null when it is): an everyday word that any reader
 * supplies from the words around it ("hidden under the _____", "came down the _____"), a unit,
 * measure, ordinal or calendar word, a word right after a number ("eleven _____"), an answer
 * given away by its opposite in the sentence ("increase, not _____"), a noun that reads as a
 * verb ("storms _____ the coast"), a name the passage mentions only once in passing, a
 * nationality, or the person the whole passage is about.
 */
export function clozeBlankFault(
  analysis: Analysis,
  sentence: Sentence,
  target: ClozeTarget,
  level = 6,
  tier = 0,
): string | null {
  const relaxed = tier > 0;
  const at = sentence.tokens.findIndex((t) => t.start === target.start);
  const token = at >= 0 ? sentence.tokens[at] : undefined;
  const prev = at > 0 ? sentence.tokens[at - 1] : undefined;
  const answer = target.answer;
  // The second try for a material that falls short takes only nouns a little less rare.
  // (a young reader's text, with fewer rare words, also describing words and verbs).
  if (relaxed && target.kind !== 'noun' && !(level <= 3 && target.kind !== 'number'))
    return 'not a noun';
  if (target.kind === 'noun' || target.kind === 'verb' || target.kind === 'adjective') {
    const lemma = (token?.lemma || answer).toLowerCase();
    // "a Soviet _____", "the British _____": after a proper adjective almost any noun fits.
    if (prev && at > 1 && /^\p{Lu}/u.test(prev.value) && prev.pos === 'ADJ')
      return 'after a proper adjective';
    if (
      target.kind !== 'verb' &&
      (MEASURE_WORDS.has(answer.toLowerCase()) || MEASURE_WORDS.has(lemma))
    )
      return 'unit';
    if (prev && NUMBER_WORD.test(prev.value)) return 'after a number';
    // Known to most fourth-graders, or (from grade 4 on) very frequent in everyday speech
    // (Zipf above about 4.2: "kitchen", "street", "mountain").
    // A young reader's text that still falls short takes its repeated everyday nouns last.
    const floor = level <= 3 ? [4, 3.5, 0][tier]! : relaxed ? 4 : 5;
    // (a chapter, not a short passage, which rather gives fewer items).
    if (
      tier >= 2 &&
      (analysis.wordCount < 1500 ||
        target.kind !== 'noun' ||
        (analysis.words.get(`NOUN:${lemma}`)?.count ?? 0) < 2)
    )
      return 'last resort: repeated nouns only';
    if (wordGrade(answer, lemma) < floor) return 'everyday word';
    const opposites = new Set(
      (['noun', 'verb', 'adj'] as const).flatMap((p) =>
        antonymsOf(lemma, p).map((w) => w.toLowerCase()),
      ),
    );
    if (
      sentence.tokens.some(
        (t, i) => i !== at && (opposites.has(t.value.toLowerCase()) || opposites.has(lemmaOf(t))),
      )
    )
      return 'opposite in its sentence';
    const next = at >= 0 ? sentence.tokens[at + 1] : undefined;
    const determiner = (t: Token | undefined) =>
      !!t && (t.pos === 'DET' || /^(?:the|a|an|his|her|its|their|our|my|your)$/i.test(t.value));
    // "storms _____ the coast", "gently _____ the wool": a word before "the" is a verb here.
    if (target.kind !== 'verb' && determiner(next)) return 'reads as a verb';
    // "were very _____": a participle used as a describing word, not a verb.
    if (
      target.kind === 'verb' &&
      prev &&
      /^(?:very|so|too|quite|rather|more|most|less|least)$/i.test(prev.value)
    )
      return 'describing word';
    // "find a _____ on your sock": a "verb" right after an article is a noun the tagger missed.
    if (target.kind === 'verb' && prev && /^(?:a|an|the)$/i.test(prev.value))
      return 'reads as a noun';
    // "the _____ passes", "a _____ fair": a "describing word" WordNet knows mostly as a noun
    // (liquid, maiden) is a noun here, and describing words as options would not fit.
    if (
      target.kind === 'adjective' &&
      frequencyOf(lemma, 'noun') > Math.max(0, frequencyOf(lemma, 'adj'))
    )
      return 'reads as a noun';
    // "the _____ evaporates": a describing word right after "the" with no noun after it is a noun here.
    if (
      target.kind === 'adjective' &&
      determiner(prev) &&
      !/^(?:NOUN|ADJ|PROPN)$/.test(next?.pos ?? '')
    )
      return 'reads as a noun';
    // "free _____ connections", "her _____ window": a noun that modifies the next noun is half of
    // a compound, and any word that goes with the head fits ("phone connections", "sash window").
    if (target.kind === 'noun' && next && next.pos === 'NOUN' && /^\p{Ll}/u.test(next.value))
      return 'half of a compound';
    // "neither _____ nor kin": half of a fixed pair that WordNet lists ("kith and kin").
    const joiner = at >= 0 ? sentence.tokens[at + 2] : undefined;
    if (next && joiner && /^(?:and|or|nor)$/i.test(next.value)) {
      if (
        lookup(`${lemma} and ${joiner.value}`, 'noun') ||
        lookup(`${answer} and ${joiner.value}`, 'noun')
      )
        return 'fixed pair';
    }
    const before = at >= 2 ? sentence.tokens[at - 2] : undefined;
    if (prev && before && /^(?:and|or|nor)$/i.test(prev.value)) {
      if (
        lookup(`${before.value} and ${lemma}`, 'noun') ||
        lookup(`${before.value} and ${answer}`, 'noun')
      )
        return 'fixed pair';
    }
    return null;
  }
  // "In _____, California…", "Around _____ copies": recalling a year or a count tests memory of
  // a detail, not understanding (raters reject them even with the text's own numbers as options).
  if (target.kind === 'number') return 'number recall';
  if (target.kind !== 'person' && demonym(answer)) return 'nationality';
  // Neither a person nor a place ("Doctor of Medicine", a ship, a book): no options of the same kind.
  if (target.kind === 'name') return 'not a person or place';
  if (target.kind === 'person' && obviousName(analysis, answer)) return 'main person';
  // "news in _____" (America) taken for a person: its options would be people.
  if (target.kind === 'person' && placeOrBody(answer)) return 'not a person';
  // Mentioned once, under any of its names ("Richard Anning", "Richard"): named in passing.
  const info = analysis.names.get(answer);
  const aliases = [...(analysis.aliases.get(answer) ?? [])];
  const mentions =
    (info?.count ?? 0) + aliases.reduce((n, a) => n + (analysis.names.get(a)?.count ?? 0), 0);
  if (!info || mentions < 2) return 'name mentioned once';
  return null;
}

/**
 * A blank that matters to the passage (issue 22: choose blanks by importance, not rarity): a
 * name it comes back to, a number, or a word it repeats or holds among its key phrases ("the
 * canopy" in a text about rainforest layers), not a thing mentioned once in passing ("tied on
 * her shawl", "a burr on your sock").
 */
export function keyBlank(analysis: Analysis, target: ClozeTarget): boolean {
  if (target.kind !== 'noun' && target.kind !== 'verb' && target.kind !== 'adjective') return true;
  const posTag = target.kind === 'noun' ? 'NOUN' : target.kind === 'verb' ? 'VERB' : 'ADJ';
  const lemma = lemmaOfForm(analysis, target.answer, posTag);
  if ((analysis.words.get(`${posTag}:${lemma}`)?.count ?? 0) >= 2) return true;
  const stem = lemma.slice(0, Math.max(4, lemma.length - 2));
  return analysis.keyphrases.some((p) =>
    p
      .toLowerCase()
      .split(/\s+/)
      .some((w) => w.startsWith(stem)),
  );
}

/**
 * Why an option is not a fair wrong answer for a cloze blank (null when it is): a number not
 * written in the text (a near miss such as 1986 for 1987 only tests rote recall), a word that
 * is mostly another part of speech than the key ("the _____" with "collect"), a nationality
 * among names that are not, a generic kind of person for a person noun ("woman" for "weaver"),
 * or a more general word than the key (which fits wherever the key does).
 */
export function clozeOptionFault(
  analysis: Analysis,
  target: ClozeTarget,
  option: string,
  sentence?: Sentence,
): string | null {
  if (target.kind === 'number') {
    if (!analysis.numbers.has(option) && !analysis.numbers.has(option.toLowerCase()))
      return 'number not in the text';
    // "one in _____": a count is not answered by "thousand" or "million".
    const magnitude = (x: string) => /^(?:hundred|thousand|million|billion|dozen)s?$/i.test(x);
    return magnitude(option) !== magnitude(target.answer) ? 'magnitude word' : null;
  }
  if (target.kind === 'person' || target.kind === 'place' || target.kind === 'name') {
    if (target.kind !== 'person' && demonym(option) !== demonym(target.answer))
      return 'nationality';
    // "books in _____ were copied" with "Gutenberg": a person's name among places.
    if (target.kind !== 'person' && personWords(analysis).has(option.toLowerCase()))
      return 'a person';
    // "The owners, Max Blanck and _____" with "New York": a place or a body among people.
    if (target.kind === 'person' && placeOrBody(option)) return 'not a person';
    // "Morse asked _____" with "Samuel Morse": a name the sentence already uses.
    if (sentence && option.split(/\s+/).some((w) => wordIn(sentence.text, w)))
      return 'named in the sentence';
    // "Robert" of "Robert F. Wagner", "Orleans" of "New Orleans".
    if (fragmentOfName(analysis, option)) return 'part of a longer name';
    return null;
  }
  // "month" or "week" fits most slots that take a span of time or a quantity.
  if (MEASURE_WORDS.has(option.toLowerCase()) && !MEASURE_WORDS.has(target.answer.toLowerCase()))
    return 'unit';
  // "french", "african": a proper adjective shown in lower case.
  if (properOnly(analysis, option)) return 'proper adjective';
  const posTag = target.kind === 'noun' ? 'NOUN' : target.kind === 'verb' ? 'VERB' : 'ADJ';
  const pos: WordNetPos = target.kind === 'noun' ? 'noun' : target.kind === 'verb' ? 'verb' : 'adj';
  const lemma = lemmaOfForm(analysis, option, posTag);
  const keyLemma = lemmaOfForm(analysis, target.answer, posTag);
  // "the trampling _____" with "gleaming" for "surf": an -ing word among nouns or verbs that are not.
  if (target.kind !== 'adjective' && /ing$/i.test(option) !== /ing$/i.test(target.answer))
    return 'other form';
  const own = frequencyOf(lemma, pos);
  if (target.kind === 'adjective') {
    // "broadband", "swimming", "refrigerant": a noun or a verb's -ing form among describing words.
    if (own < 0 || analysis.words.has(`NOUN:${lemma}`)) return 'other part of speech';
    if (/ing$/.test(option) !== /ing$/.test(target.answer)) return 'other part of speech';
  }
  const others = (['noun', 'verb', 'adj'] as const)
    .filter((p) => p !== pos)
    .map((p) => frequencyOf(lemma, p));
  if (own < 0 && others.some((f) => f >= 0)) return 'other part of speech';
  if (others.some((f) => f > Math.max(0, own) * 2 + 1)) return 'other part of speech';
  // "rub his eyes and _____" with "mutter" and "wedding": a verb's options take its form.
  if (target.kind === 'verb') {
    const shape = (form: string, base: string) => {
      const f = form.toLowerCase();
      if (f === base) return 'base';
      if (/ing$/.test(f)) return 'ing';
      if (/s$/.test(f) && !/ss$/.test(f)) return 's';
      return 'past';
    };
    if (shape(option, lemma) !== shape(target.answer, keyLemma)) return 'other form';
  }
  if (target.kind === 'noun' && GENERIC_PEOPLE.has(option.toLowerCase())) {
    if (lexFileOf(keyLemma, 'noun') === 18) return 'generic person';
  }
  if (target.kind === 'noun' || target.kind === 'verb') {
    const up = ancestors(keyLemma, pos, 6);
    for (const s of sensesOf(lemma, pos)) if (up.has(s.offset)) return 'more general word';
  }
  if (target.kind === 'noun') {
    // The passage's topic ("fire" in a text about a fire, "forest" in one about a forest) fits
    // many of its sentences, and often names the same thing as the key ("the tragedy").
    if (topicWords(analysis).has(lemma)) return 'topic word';
    const why = classFault(keyLemma, lemma) ?? usageFault(analysis, option);
    // "frothed like _____": where the blank is itself a comparison, so may the options be.
    const at = sentence ? sentence.tokens.findIndex((t) => t.start === target.start) : -1;
    const compared = !!sentence && at >= 0 && comparedTo(sentence.tokens, at);
    if (why && !(why === 'only in a comparison' && compared)) return why;
    if (sentence && bareSingularSlot(sentence, target.start) && countable(analysis, lemma))
      return 'needs an article';
    // "a special fluid called a _____" with "sawdust" or "water": a noun the passage uses only
    // as a mass noun does not follow "a".
    if (sentence && countedSlot(sentence, target.start)) {
      if (massInPassage(analysis, lemma)) return 'mass noun after a';
      // "in a single _____" with "surroundings": a plural after "a".
      if (pluralLooking(option) && !pluralLooking(target.answer)) return 'plural after a';
    }
    // "spreads across the _____, making them contract" (atria): a plural without an -s wants
    // plural options as well, and a singular key no such plural.
    const keyNumber = nounNumber(analysis, target.answer);
    const optionNumber = nounNumber(analysis, option);
    if (keyNumber && optionNumber && keyNumber !== optionNumber) return 'other number';
    // "The _____ even give the seed …": the verb after the blank fixes its number.
    const agreement = sentence ? subjectNumber(sentence, target.start) : null;
    if (
      agreement &&
      pluralLooking(target.answer) === (agreement === 'plural') &&
      pluralLooking(option) !== (agreement === 'plural')
    )
      return 'verb agreement';
    if (kindOfKey(keyLemma, lemma)) return 'a kind of the key';
  }
  // "lack _____ broadband" with "new", "free", "public": everyday describing words fit
  // almost any noun, so they are either also right or plainly filler.
  if (target.kind === 'adjective' && wordGrade(option, lemma) < EVERYDAY_ADJECTIVE_GRADE)
    return 'everyday describing word';
  if (sameRoleElsewhere(analysis, keyLemma, lemma, posTag)) return 'same role elsewhere';
  return null;
}

/** Describing words known this early fit almost any noun ("new", "wrong", "large", "free"). */
const EVERYDAY_ADJECTIVE_GRADE = 4;

/**
 * True when the noun at `index` is what something is compared to: after "like" ("spins like a
 * little helicopter") or in "as … as a _____", with only a determiner, describing words or
 * numbers between.
 */
export function comparedTo(tokens: Token[], index: number): boolean {
  for (let j = index - 1, steps = 0; j >= 0 && steps < 4; j--, steps++) {
    const t = tokens[j]!;
    if (/^like$/i.test(t.value) && t.pos !== 'VERB') return true;
    if (/^as$/i.test(t.value))
      return tokens.slice(Math.max(0, j - 3), j).some((x) => /^as$/i.test(x.value));
    if (!/^(?:DET|ADJ|ADV|NUM)$/.test(t.pos)) return false;
  }
  return false;
}

/**
 * Why the passage's own uses of a noun make it a poor option (null when they do not): it only
 * ever stands before another noun, as half of a compound ("the screw press": "a skilled
 * screw"), or only before "the"/"a", where it is a verb the tagger took for a noun ("storms
 * batter the coast": "a batter").
 */
export function usageFault(analysis: Analysis, option: string): string | null {
  const o = option.toLowerCase();
  let uses = 0;
  let modifier = 0;
  let verbLike = 0;
  let compoundHead = 0;
  let figurative = 0;
  for (const s of analysis.sentences) {
    if (!s.text.toLowerCase().includes(o)) continue;
    s.tokens.forEach((t, i) => {
      if (t.value.toLowerCase() !== o) return;
      uses += 1;
      // "carbon dioxide": the head of a noun compound WordNet lists, a word seldom said alone
      // (no tagged use of its own in WordNet's corpus).
      const before = s.tokens[i - 1];
      if (
        before?.pos === 'NOUN' &&
        frequencyOf(o, 'noun') <= 0 &&
        lookup(`${before.value.toLowerCase()} ${o}`, 'noun')
      )
        compoundHead += 1;
      if (comparedTo(s.tokens, i)) figurative += 1;
      const next = s.tokens[i + 1];
      if (next && next.pos === 'NOUN' && /^\p{Ll}/u.test(next.value)) modifier += 1;
      else if (next && /^(?:the|a|an|his|her|its|their|our|my|your)$/i.test(next.value))
        verbLike += 1;
    });
  }
  if (uses === 0) return null;
  if (modifier === uses) return 'half of a compound';
  if (compoundHead === uses) return 'head of a compound';
  if (figurative === uses) return 'only in a comparison';
  if (verbLike === uses) return 'reads as a verb';
  return null;
}

/**
 * True when the blank is a singular noun with no article or other determiner before its
 * phrase ("a dry belt of _____ called …", "made of _____"): the key is used as a mass noun there,
 * and a noun that needs "a" ("place", "oasis") does not fit.
 */
export function bareSingularSlot(sentence: Sentence, start: number): boolean {
  const at = sentence.tokens.findIndex((t) => t.start === start);
  if (at < 1) return false;
  const self = sentence.tokens[at]!;
  if (/s$/i.test(self.value) && !/(?:ss|us|is)$/i.test(self.value)) return false;
  for (let i = at - 1; i >= 0; i--) {
    const t = sentence.tokens[i]!;
    if (t.pos === 'ADJ' || t.pos === 'ADV') continue;
    if (t.pos === 'DET' || t.pos === 'PRON' || t.pos === 'NUM' || t.pos === 'PROPN') return false;
    if (/^(?:'s|’s)$/.test(t.value)) return false;
    return t.pos === 'ADP' || t.pos === 'VERB';
  }
  return false;
}

/** True when the passage counts the noun: writes it in the plural or after "a"/"an"/"one". */
export function countable(analysis: Analysis, lemma: string): boolean {
  const info = analysis.words.get(`NOUN:${lemma.toLowerCase()}`);
  if (!info) return false;
  for (const form of info.forms.keys())
    if (form !== info.lemma && /s$/.test(form) && !/ss$/.test(form)) return true;
  for (const si of info.sentences) {
    const tokens = analysis.sentences[si]!.tokens;
    for (let i = 0; i < tokens.length; i++) {
      if (lemmaOf(tokens[i]!) !== info.lemma) continue;
      for (let j = i - 1; j >= Math.max(0, i - 3); j--) {
        const v = tokens[j]!.value.toLowerCase();
        if (/^(?:a|an|one|each|every|another)$/.test(v)) return true;
        if (tokens[j]!.pos !== 'ADJ' && tokens[j]!.pos !== 'ADV') break;
      }
    }
  }
  return false;
}

/**
 * True when the blank is a singular noun counted by "a", "an", "one", "each", "every" or
 * "another", with only describing words or a noun modifier between ("a stone _____", "in a
 * single _____"): a mass noun ("sawdust", "air") cannot stand there.
 */
export function countedSlot(sentence: Sentence, start: number): boolean {
  const at = sentence.tokens.findIndex((t) => t.start === start);
  if (at < 1) return false;
  for (let i = at - 1, steps = 0; i >= 0 && steps < 4; i--, steps++) {
    const t = sentence.tokens[i]!;
    if (/^(?:a|an|one|each|every|another)$/i.test(t.value)) return true;
    if (t.pos === 'ADJ' || t.pos === 'ADV' || (t.pos === 'NOUN' && /^\p{Ll}/u.test(t.value)))
      continue;
    return false;
  }
  return false;
}

/**
 * True when the passage uses the noun as a mass noun and never counts it: never in the
 * plural or after "a"/"one", and either at least once bare where a count noun would need an
 * article ("packed in sawdust", "carry water") or a word English seldom puts in the plural
 * (in everyday speech its plural is over a hundred times rarer: "hygiene", "air", "evidence").
 */
export function massInPassage(analysis: Analysis, lemma: string): boolean {
  const l = lemma.toLowerCase();
  if (countable(analysis, l)) return false;
  const info = analysis.words.get(`NOUN:${l}`);
  if (!info) return false;
  if (seldomPlural(l)) return true;
  for (const si of info.sentences) {
    const s = analysis.sentences[si]!;
    for (const t of s.tokens)
      if (lemmaOf(t) === l && t.value.toLowerCase() === l && bareSingularSlot(s, t.start))
        return true;
  }
  return false;
}

/** Nouns that look plural and are singular in use ("news", "physics", "species"). */
const SINGULAR_IN_S = /(?:ss|us|is|ics|news|series|species|means)$/i;

/** True when a noun's form reads as a plural ("droppings", "oases", "mice" aside). */
export function pluralLooking(form: string): boolean {
  const w = form.toLowerCase();
  return /s$/.test(w) && !SINGULAR_IN_S.test(w);
}

/**
 * The number the verb right after a subject noun demands ("the _____ even give" plural, "the
 * _____ was" singular), or null when no verb of a telling form follows the noun.
 */
export function subjectNumber(sentence: Sentence, start: number): 'singular' | 'plural' | null {
  const at = sentence.tokens.findIndex((t) => t.start === start);
  if (at < 0) return null;
  const prev = sentence.tokens[at - 1];
  // "of the _____ is": the verb agrees with the head before "of", not with the blank.
  for (let i = at - 1, steps = 0; i >= 0 && steps < 4; i--, steps++) {
    const t = sentence.tokens[i]!;
    if (t.pos === 'ADP') return null;
    if (t.pos !== 'DET' && t.pos !== 'ADJ' && t.pos !== 'ADV' && t.pos !== 'NUM') break;
  }
  if (prev && /^(?:and|or|nor|,)$/i.test(prev.value)) return null;
  for (let i = at + 1, steps = 0; i < sentence.tokens.length && steps < 2; i++, steps++) {
    const t = sentence.tokens[i]!;
    const v = t.value.toLowerCase();
    if (t.pos === 'ADV') continue;
    if (/^(?:is|was|has|does|doesn't|isn't|wasn't|hasn't)$/.test(v)) return 'singular';
    if (/^(?:are|were|have|do|don't|aren't|weren't|haven't)$/.test(v)) return 'plural';
    if (t.pos !== 'VERB') return null;
    const lemma = lemmaOf(t);
    if (v === lemma && !/s$/.test(v)) return 'plural';
    if (v !== lemma && /[^s]s$/.test(v) && (v === `${lemma}s` || v === `${lemma}es`))
      return 'singular';
    return null;
  }
  return null;
}

/**
 * A noun of very broad meaning (many senses, very frequent: "place", "state", "time", "line"):
 * it fits most slots, so as an option it is either right as well or plainly filler.
 */
export function generalNoun(lemma: string): boolean {
  const entry = lookup(lemma.toLowerCase(), 'noun');
  return !!entry && entry.offsets.length >= 8 && frequencyOf(lemma.toLowerCase(), 'noun') >= 150;
}

/**
 * True when the candidate is a kind of the key within four steps ("lizard" for "reptile",
 * "cutter" for "ship"): where the sentence names the thing by its class, one of its kinds may
 * be true of it as well.
 */
export function kindOfKey(keyLemma: string, candidateLemma: string): boolean {
  const keySenses = new Set(sensesOf(keyLemma, 'noun').map((s) => s.offset));
  if (keySenses.size === 0) return false;
  for (const [offset, d] of ancestors(candidateLemma, 'noun', 4))
    if (d > 0 && keySenses.has(offset)) return true;
  return false;
}

/**
 * A noun that everyday English seldom puts in the plural: known well enough to tell (Zipf 3
 * and more) and its regular plural over 10^2.2 (about 160) times rarer ("air" and "airs",
 * "hygiene"), unlike count nouns ("oven" and "ovens" about 16 times, "rock" and "rocks" 4).
 */
export function seldomPlural(lemma: string): boolean {
  const l = lemma.toLowerCase();
  const plural =
    /y$/.test(l) && !/[aeiou]y$/.test(l)
      ? `${l.slice(0, -1)}ies`
      : /(?:s|x|z|ch|sh)$/.test(l)
        ? `${l}es`
        : `${l}s`;
  const own = zipf(l);
  return own >= 3 && own - zipf(plural) >= 2.2;
}

/**
 * A noun form's number: plural when the passage writes it as a form of another lemma ("atria" of
 * "atrium", "cups" of "cup") or it ends in -s and WordNet knows a singular ("clothes"), singular
 * without an -s, and unknown for a word in -s WordNet lists with no singular ("canvas",
 * "diabetes", "goggles").
 */
export function nounNumber(analysis: Analysis, form: string): 'singular' | 'plural' | null {
  const f = form.toLowerCase();
  for (const w of analysis.words.values())
    if (w.pos === 'NOUN' && w.lemma !== f && w.forms.has(f) && !/['’]/.test(f)) return 'plural';
  if (!pluralLooking(f)) return 'singular';
  if (!lookup(f, 'noun')) return 'plural';
  const singular = [f.replace(/ies$/, 'y'), f.replace(/es$/, ''), f.replace(/s$/, '')];
  return singular.some((x) => x !== f && lookup(x, 'noun')) ? 'plural' : null;
}
