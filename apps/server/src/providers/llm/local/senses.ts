import type { Analysis, Sentence } from './analyse.js';
import { familiarStems, isFamiliar } from './familiar.js';
import {
  lexFileOf,
  lookup,
  senseTagCounts,
  sensesOf,
  synsetAt,
  type Synset,
  type WordNetPos,
} from './wordnet.js';

/**
 * Which sense of a word the passage means, or none when it is not clear: extended Lesk over
 * the passage (each sense's definition, examples and synonyms, with those of its hypernyms,
 * hyponyms, parts and wholes and topic, weighed against the words of the sentences around the
 * word and of the whole passage), a prior from how often WordNet's corpus uses each sense,
 * and a margin the best sense must win by. Also the passage's own definitions ("A glacier is
 * a huge mass of ice …", "a thin layer called the cambium"), which come first.
 */

const STOP = new Set(
  (
    'a an the of to in on at for with from by as and or but is are was were be been being it its ' +
    'that this which who whom what used having has have had not no any some one something someone ' +
    'especially usually often very into out up down over under than then there their they them ' +
    'he she his her him you your we our us can could would should will may might must do does did ' +
    'such more most other another each every all also only about after before when where while ' +
    'how why thing things make made way ways part parts kind form give given take new old many much'
  ).split(' '),
);

/** A crude stem so "electrons", "electron" and "electronic" meet, and "trees" meets "tree". */
export function stem(word: string): string {
  return word
    .toLowerCase()
    .replace(/(?:ies)$/, 'y')
    .replace(/(?:ing|ed|es|s|ic|al|ical)$/, '')
    .replace(/(.)\1$/, '$1')
    .replace(/(?<=..)e$/, '');
}

function stems(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length > 2 && !STOP.has(w))
    .map(stem)
    .filter((w) => w.length > 2);
}

let everyday: Set<string> | undefined;

const stemCache = new WeakMap<Sentence, string[]>();
function sentenceStems(s: Sentence): string[] {
  let out = stemCache.get(s);
  if (!out) {
    out = stems(s.text);
    stemCache.set(s, out);
  }
  return out;
}

const passageBags = new WeakMap<Analysis, Map<string, number>>();

/** Every content word of the passage (stemmed) with its count. */
export function passageBag(analysis: Analysis): Map<string, number> {
  let bag = passageBags.get(analysis);
  if (!bag) {
    bag = new Map();
    for (const s of analysis.sentences)
      for (const t of s.tokens) {
        if (t.stop || !/^[A-Za-z]/.test(t.value)) continue;
        for (const w of stems(t.lemma)) bag.set(w, (bag.get(w) ?? 0) + 1);
      }
    passageBags.set(analysis, bag);
  }
  return bag;
}

const POS_CODES: Record<string, WordNetPos> = {
  n: 'noun',
  v: 'verb',
  a: 'adj',
  s: 'adj',
  r: 'adv',
};
// Hypernyms, hyponyms, instances, parts and wholes, topic domain, similar adjectives, derivations.
const RELATED = new Set(['@', '@i', '~', '~i', '%p', '%m', '%s', '#p', '#m', '#s', ';c', '&', '+']);

const signatures = new Map<string, Map<string, number>>();

/**
 * The words of a sense (weight 1) and of the senses around it (weight ½: a hyponym's words
 * hint at the sense, they do not define it).
 */
function signatureOf(sense: Synset, lemma: string): Map<string, number> {
  const key = `${sense.pos}:${sense.offset}`;
  let sig = signatures.get(key);
  if (sig) return sig;
  sig = new Map();
  const related: string[] = [];
  let n = 0;
  for (const p of sense.pointers) {
    if (!RELATED.has(p.symbol) || n >= 10) continue;
    const other = synsetAt(p.offset, POS_CODES[p.pos] ?? sense.pos);
    if (!other) continue;
    n += 1;
    related.push(other.definition, ...other.words);
  }
  for (const w of stems(related.join(' '))) sig.set(w, 0.5);
  for (const w of stems([sense.definition, ...sense.examples, ...sense.words].join(' ')))
    sig.set(w, 1);
  sig.delete(stem(lemma));
  for (const w of lemma.split(/\s+/)) sig.delete(stem(w));
  signatures.set(key, sig);
  return sig;
}

/** WordNet's verb frames with a direct object ("Somebody ----s something") and without one. */
const TRANSITIVE_FRAMES = new Set([
  5, 8, 9, 10, 11, 14, 15, 16, 17, 18, 19, 20, 21, 24, 25, 30, 31,
]);
const INTRANSITIVE_FRAMES = new Set([1, 2, 3, 4, 6, 7, 12, 13, 22, 23, 27, 28, 32, 33, 35]);

/**
 * Whether a verb is used with a direct object here (true), plainly without one (false), or
 * cannot be told (null): the word after it, or a passive "was shattered".
 */
export function usedTransitively(sentence: Sentence, index: number): boolean | null {
  const tokens = sentence.tokens;
  const before = tokens[index - 1];
  const after = tokens[index + 1];
  if (
    before &&
    /^(?:is|are|was|were|be|been|being)$/i.test(before.value) &&
    /ed$/.test(tokens[index]!.value)
  )
    return true;
  if (!after) return false;
  if (['DET', 'NOUN', 'PROPN', 'NUM'].includes(after.pos)) return true;
  if (
    after.pos === 'PRON' &&
    /^(?:me|him|her|us|them|it|you|himself|herself|themselves|itself|myself)$/i.test(after.value)
  )
    return true;
  if (after.pos === 'PUNCT' || after.pos === 'CCONJ') return false;
  return null;
}

const UNFIT_SENSE =
  /\b(?:sex|sexual|sexually|penis|vagina|genitals?|copulat\w*|orgasm|obscene|vulgar|slur|offensive term|disparaging term|derogatory)\b/i;

// Frames whose object is a person ("Somebody ----s somebody", "… somebody of something").
const PERSON_OBJECT_FRAMES = new Set([9, 10, 14, 17, 18, 20, 24, 25, 30]);

/**
 * Whether a verb's object here is a person named by a pronoun ("had divested him of his legs",
 * "they robbed her"): the verb then has a sense that takes somebody as its object.
 */
export function personObject(sentence: Sentence, index: number): boolean {
  const after = sentence.tokens[index + 1];
  if (!after || !/^(?:me|him|her|us|them|himself|herself|themselves|myself)$/i.test(after.value))
    return false;
  // "they gored her side": "her" before a noun is a possessive, the object is the side.
  const next = sentence.tokens[index + 2];
  return !(/^her$/i.test(after.value) && next && ['NOUN', 'ADJ'].includes(next.pos));
}

export interface SenseChoice {
  sense: Synset;
  score: number;
  /** Best score minus the runner-up's. */
  margin: number;
}

/**
 * The sense of `lemma` the passage means, or null when no sense wins with margin.
 * `sentences` are where the word occurs (their words and their neighbours' weigh most).
 */
export function chooseSense(
  lemma: string,
  pos: WordNetPos,
  analysis: Analysis,
  sentences: Sentence[],
  transitive: boolean | null = null,
  /** Only senses of these WordNet categories, when the word has one ("make an alteration": an act). */
  lexFiles?: ReadonlySet<number>,
  /** Only senses that pass this test, when the word has one (see `personObject`, `possessed`). */
  keep?: (sense: Synset) => boolean,
): SenseChoice | null {
  // A sense WordNet writes with a capital ("Red Cross") is a name, not what a lower-case word means.
  const key = lemma.toLowerCase();
  let senses = sensesOf(lemma, pos)
    .slice(0, 12)
    .filter((s) => !s.words.some((w) => w.toLowerCase() === key && w !== key));
  // "It shivered the window": a verb with an object has a sense with an object ("break into
  // pieces"), not "shake, as from cold".
  if (pos === 'verb' && transitive !== null) {
    const frames = transitive ? TRANSITIVE_FRAMES : INTRANSITIVE_FRAMES;
    const fitting = senses.filter((s) => s.frames.some((f) => frames.has(f)));
    senses = fitting;
  }
  // Not for a classroom: a sexual sense or a slur is never offered as a word's meaning.
  senses = senses.filter((s) => !UNFIT_SENSE.test(s.gloss));
  if (lexFiles) {
    const fitting = senses.filter((s) => lexFiles.has(s.lexFile));
    if (fitting.length > 0) senses = fitting;
  }
  if (keep) {
    const fitting = senses.filter(keep);
    if (fitting.length > 0) senses = fitting;
  }
  if (senses.length === 0) return null;
  const counts = senseTagCounts(lemma, pos);
  const totalTags = [...counts.values()].reduce((a, b) => a + b, 0);
  const near = new Map<string, number>();
  const byIndex = analysis.sentences;
  for (const s of sentences.slice(0, 12)) {
    for (let i = Math.max(0, s.index - 1); i <= Math.min(byIndex.length - 1, s.index + 1); i++) {
      const weight = i === s.index ? 2 : 1;
      for (const w of sentenceStems(byIndex[i]!)) near.set(w, Math.max(near.get(w) ?? 0, weight));
    }
  }
  const whole = passageBag(analysis);
  everyday ??= familiarStems(stem);
  const own = new Set([stem(lemma), ...lemma.split(/\s+/).map(stem)]);
  const scored = senses.map((sense, rank) => {
    const sig = signatureOf(sense, lemma);
    let overlap = 0;
    let matched = 0;
    for (const [w, strength] of sig) {
      if (own.has(w)) continue;
      const local = near.get(w) ?? 0;
      const global = whole.get(w) ?? 0;
      if (!local && !global) continue;
      // Everyday words ("work", "idea") say little about which sense is meant.
      const weight = (everyday?.has(w) ? 0.3 : 1) * strength;
      matched += 1;
      overlap += weight * (local + Math.min(2, Math.log2(1 + global) / 2));
    }
    // A restricted sense ("(law)", "(of personal property …)") needs its field in the passage.
    const restriction = /^\(([^)]*)\)/.exec(sense.definition)?.[1];
    if (restriction && !stems(restriction).some((w) => near.has(w) || whole.has(w))) overlap -= 1.5;
    const tags = counts.get(sense.offset) ?? 0;
    // How often WordNet's corpus uses each sense, trusted as far as it counted (a few tags say little).
    const prior =
      totalTags > 0 ? ((2 * tags) / totalTags) * Math.min(1, totalTags / 10) : rank === 0 ? 0.5 : 0;
    // A sense the word heads ("pirate, buccaneer, sea robber") is its plain meaning; one where it
    // is a late synonym ("plagiarist, plagiarizer, literary pirate, pirate") is figurative.
    const heads = sense.words[0]?.toLowerCase() === lemma.toLowerCase();
    const head = heads ? 0.6 : 0;
    return {
      sense,
      overlap,
      matched,
      heads,
      share: totalTags > 0 ? tags / totalTags : 0,
      tags,
      score: overlap + prior + head,
    };
  });
  scored.sort((a, b) => b.score - a.score);
  const best = scored[0]!;
  const second = scored[1];
  // "dose" as venereal disease, "acid" as a drug: a sense in which the word is only a late,
  // never-counted synonym, when the word's own senses are in common use, is slang.
  if (!best.heads && best.tags === 0 && scored.some((x) => x.heads && x.tags >= 3)) return null;
  if (!second) return { sense: best.sense, score: best.score, margin: Infinity };
  // The passage must speak for the sense, unless it is by far the word's usual one.
  const dominant = best.share >= 0.75 && best.tags >= 4;
  const margin = best.score - second.score;
  // The plain meaning against figurative ones, with the passage on its side.
  // When the corpus uses both senses about as often ("crouch": stoop 9, squat 7), a word or two
  // of the passage is not enough: it must lead by a point.
  const split = second.tags > 0 && second.tags >= 0.6 * best.tags;
  const plain =
    best.heads && !second.heads && best.overlap > second.overlap + (split ? 1 : 0) && margin >= 0.5;
  if (plain) return { sense: best.sense, score: best.score, margin };
  // The passage overwhelmingly for one sense ("sloths" among jaguars and river dolphins: the
  // animal of South America, not idleness): many matching words, over twice any other's overlap.
  const others = Math.max(0, ...scored.slice(1).map((x) => x.overlap));
  if (best.overlap >= 1 && best.matched >= 4 && best.overlap >= 2.2 * others)
    return { sense: best.sense, score: best.score, margin };
  // Evidence is two or more telling words, not one ("object" does not make "strand" a necklace).
  if ((best.overlap < 1.5 || best.matched < 2) && !dominant) return null;
  // Clear when it wins by a point and a half, or by a third of its own score when that is more.
  if (margin < Math.max(1.5, best.score / 3)) {
    // A sense and its own broader or narrower sense ("a hollow coil that condenses …", "an
    // apparatus that converts vapor into liquid") are one meaning for a student: the pair must
    // then win with margin over the rest.
    const third = scored[2];
    const linked =
      best.sense.pointers.some((p) => p.offset === second.sense.offset) ||
      second.sense.pointers.some((p) => p.offset === best.sense.offset);
    const clear = !third || second.score - third.score >= Math.max(1.5, second.score / 3);
    if (linked && clear && best.overlap >= 1.5 && best.matched >= 2)
      return { sense: best.sense, score: best.score, margin };
    return null;
  }
  return { sense: best.sense, score: best.score, margin };
}

/* ---------------------------------------------------------------------------------------- */
/* The passage's own definitions                                                             */
/* ---------------------------------------------------------------------------------------- */

export interface PassageDefinition {
  /** The term as the passage writes it ("glacier", "static electricity", "moraines"). */
  term: string;
  definition: string;
  sentence: Sentence;
  /**
   * How the passage gives it: by naming ("… is called X", "a Y called X"), or by describing
   * ("X is a Y", "X, a Y,"), which in a story or a poem is more often a description than a
   * definition ("Essendean is a good place indeed").
   */
  shape: 'named' | 'described';
}

const lexFileOfNoun = (w: string) => lexFileOf(w.toLowerCase(), 'noun');

const NOT_IN_TERMS =
  /^(?:i|me|my|mine|you|your|he|him|his|she|her|it|its|we|us|our|they|them|their|himself|herself|itself|themselves|here|there|herein|then|now|so|very|too|not|no|yes|sir|madam|indeed|this|that|these|those|what|which|who)$/;

/**
 * A term as a dictionary would list it: one to three words, none a pronoun, an adverb of place
 * or time or a form of address, the last a noun WordNet knows or a word it does not know at
 * all (a passage's own term: "understory"), not a past tense ("rest followed").
 */
export function termShaped(term: string): boolean {
  const words = term.split(/\s+/);
  if (words.length > 3 || words.some((w) => NOT_IN_TERMS.test(w))) return false;
  const last = words.at(-1)!;
  if (words.length > 1 && !lookup(term, 'noun')) {
    if (/ed$/.test(last) && !lookup(last, 'noun')) return false;
    if (!lookup(last, 'noun')) return false;
  }
  if (lookup(last, 'noun')) return true;
  // A word WordNet knows only as something else ("here", "quickly") is no term.
  return !(['verb', 'adj', 'adv'] as const).some((pos) => lookup(last, pos));
}

// WordNet's noun categories of things one can point at: animal, artifact, body, food, location,
// object, phenomenon, person, plant, shape, substance.
const PHYSICAL = new Set([5, 6, 8, 13, 15, 17, 18, 19, 20, 25, 27]);
// Categories of properties and ideas: attribute, cognition, communication, feeling, motive,
// possession, quantity, relation, state, time.
const ABSTRACT = new Set([7, 9, 10, 12, 16, 21, 23, 24, 26, 28]);

/**
 * True when every sense of a term is a thing and every sense of a defining noun a property or
 * an idea, or the other way round: "moonlight" (light) cannot be "a bulk" (a size).
 */
export function categoryClash(term: Synset[], head: Synset[]): boolean {
  if (term.length === 0 || head.length === 0) return false;
  const all = (senses: Synset[], set: Set<number>) => senses.every((x) => set.has(x.lexFile));
  return (
    (all(term, PHYSICAL) && all(head, ABSTRACT)) || (all(term, ABSTRACT) && all(head, PHYSICAL))
  );
}

/** Subjects of "X is a …" that are not terms ("The secret is a special fluid …"). */
const NOT_TERMS =
  /^(?:the |an? )?(?:secret|key|answer|problem|result|reason|idea|goal|trick|point|truth|difference|question|solution|aim|purpose|hope|plan|thing|rule|lesson|fact|trouble|danger|winter|summer|spring|autumn|today|morning|evening|night|day|year|time|place)$/;

const PREPOSITIONS =
  /^(?:under|over|above|below|in|on|at|by|near|inside|outside|beyond|behind|beneath|between|among|through|across|around|into|from|with|without|during|after|before)\b/;
const ANAPHORIC = /^(?:this|that|these|those|it|they|such)\b/i;
const WORD = "[a-z][a-z'-]*";
const TERM = `(${WORD}(?: ${WORD}){0,2})`;

function trimDefinition(text: string): string | null {
  let d = text
    .replace(/\s*[,;:]\s*(?:and|but|so|while|which|because)\b.*$/i, '')
    .replace(/\s*[;:].*$/, '')
    .replace(/[.!?,]+$/, '')
    .trim();
  if (ANAPHORIC.test(d)) {
    d = d.replace(ANAPHORIC, 'the');
    if (d.split(/\s+/).length < 4) return null;
  }
  const words = d.split(/\s+/).length;
  if (words < 2 || words > 22) return null;
  // "A worker called a compositor": a bare class says nothing of what a compositor does.
  if (d.split(/\s+/).filter((w) => !/^(?:an?|the|some)$/i.test(w)).length < 2) return null;
  return d;
}

/** "arrange" → "arranges", "carry" → "carries", "push" → "pushes". */
export function thirdPerson(lemma: string): string {
  if (/[^aeiou]y$/.test(lemma)) return `${lemma.slice(0, -1)}ies`;
  if (/(?:s|sh|ch|x|z|o)$/.test(lemma)) return `${lemma}es`;
  return `${lemma}s`;
}

/**
 * "A worker called a compositor arranged the letters in rows": a definition says what the
 * thing does, in the present ("a worker who arranges the letters in rows"), not what the
 * passage's story did. Null when the clause cannot be put in the present (a second verb in
 * the past, "had been …").
 */
function definingClause(np: string, s: Sentence, verbAt: number): string | null {
  const verb = s.tokens[verbAt]!;
  const rest = s.tokens.slice(verbAt + 1);
  const plural = !/^(?:an?|one)\b/i.test(np) && /s$/.test(np.split(/\s+/).at(-1)!);
  let present = verb.value;
  if (/ed$/.test(verb.value)) {
    if (!lookup(verb.lemma.toLowerCase(), 'verb')) return null;
    present = plural ? verb.lemma.toLowerCase() : thirdPerson(verb.lemma.toLowerCase());
    // "arranged the letters and inked them": every finite verb would have to change.
    if (
      rest.some(
        (t, i) =>
          (t.pos === 'VERB' || t.pos === 'AUX') &&
          /(?:ed|was|were|had)$/.test(t.value) &&
          !/^(?:to|be|been|being|is|are|was|were)$/i.test(rest[i - 1]?.value ?? ''),
      )
    )
      return null;
  }
  const head = np.split(/\s+/).at(-1)!.replace(/s$/, '');
  const person = lexFileOfNoun(head) === 18;
  const tail = s.text.slice(verb.end).replace(/[.!?]$/, '');
  return trimDefinition(`${np} ${person ? 'who' : 'that'} ${present}${tail}`);
}

/**
 * The thing a sentence brings in with an indefinite subject ("A few days later, a thin sliver
 * of light appears." → "a thin sliver of light"), or null.
 */
export function introducedThing(s: Sentence): string | null {
  const t = s.tokens;
  for (let i = 0; i < t.length; i++) {
    if (!/^(?:a|an)$/i.test(t[i]!.value)) continue;
    // The subject: no verb before it ("Soon a …", "A few days later, a …").
    if (t.slice(0, i).some((x) => x.pos === 'VERB' || x.pos === 'AUX')) return null;
    let j = i + 1;
    while (j < t.length && (t[j]!.pos === 'ADJ' || t[j]!.pos === 'NOUN')) j += 1;
    if (j === i + 1 || t[j - 1]!.pos !== 'NOUN') continue;
    // "a thin sliver of light"
    const of = t[j + 1];
    if (
      t[j]?.normal === 'of' &&
      of &&
      (of.pos === 'NOUN' || (/^[a-z]+$/.test(of.value) && !!lookup(of.value, 'noun')))
    )
      j += 2;
    if (t[j]?.pos !== 'VERB') continue;
    return s.text.slice(t[i]!.start, t[j - 1]!.end).replace(/^A/, 'a');
  }
  return null;
}

const definitionCache = new WeakMap<Analysis, Map<string, PassageDefinition>>();

/**
 * Definitions the passage gives itself, by term (lower case): "A glacier is a huge mass of
 * ice that moves …", "This build-up of charge … is called static electricity", "a thin layer
 * called the cambium", "the cambium, or growing layer,", "the cambium, a thin layer of cells,".
 */
export function passageDefinitions(analysis: Analysis): Map<string, PassageDefinition> {
  const cached = definitionCache.get(analysis);
  if (cached) return cached;
  const out = new Map<string, PassageDefinition>();
  const add = (
    term: string,
    definition: string | null,
    sentence: Sentence,
    shape: PassageDefinition['shape'] = 'described',
  ) => {
    const t = term.toLowerCase().trim();
    if (!definition || out.has(t) || STOP.has(t)) return;
    // A term is a word or a name of things: not "colonel himself", "rest followed", "here".
    if (!termShaped(t)) return;
    // "Essendean is a good place": a word the passage only writes with a capital is a name.
    if (
      !t.includes(' ') &&
      !analysis.sentences.some((x) => new RegExp(`\\b${t}\\b`).test(x.text)) &&
      !sensesOf(t, 'noun').some((x) => x.words.includes(t))
    )
      return;
    // "Under the canopy is the understory": a place, not a term.
    if (PREPOSITIONS.test(t)) return;
    // The definition reads as part of an entry: "the tallest trees", not "The tallest trees".
    const first = /^[A-Z][a-z]*\b/.exec(definition)?.[0];
    if (first && (isFamiliar(first.toLowerCase()) || /^(?:A|An|The)$/.test(first)))
      definition = definition.charAt(0).toLowerCase() + definition.slice(1);
    if (new RegExp(`\\b${t.replace(/[^a-z ]/g, '')}`, 'i').test(definition)) return;
    // "… to seek their fortune, a tailor who was travelling …": a person does not define a
    // word that is never a person.
    const head = definition
      .toLowerCase()
      .split(/\s+/)
      .find((w) => !/^(?:an?|the|some|one)$/.test(w) && !lookup(w, 'adj') && !!lookup(w, 'noun'));
    const termSenses = sensesOf(t, 'noun');
    if (
      head &&
      lexFileOfNoun(head) === 18 &&
      termSenses.length > 0 &&
      !termSenses.some((x) => x.lexFile === 18)
    )
      return;
    // "… stood in the moonlight, a bulk in the dark": a thing is not renamed as a property or an
    // idea (nor an idea as a thing); the phrase is about another noun of the sentence.
    // (A phrase is judged by its last word: "elegant young roughneck" is a roughneck.)
    const termHead = termSenses.length > 0 ? termSenses : sensesOf(t.split(' ').at(-1)!, 'noun');
    if (head && termHead.length > 0 && categoryClash(termHead, sensesOf(head, 'noun'))) return;
    // "The secret is a special fluid called a refrigerant": the definition names another term.
    if (/\b(?:called|known as|named)\b/i.test(definition)) return;
    // "Water is the key to life in the desert": a figure of speech, not a definition.
    if (
      /^the (?:key|heart|secret|center|centre|source|root|basis|answer|cause|reason) (?:to|of|for)\b/i.test(
        definition,
      )
    )
      return;
    out.set(t, { term: t, definition, sentence, shape });
  };
  for (const s of analysis.sentences) {
    const text = s.text;
    if (s.words > 45 || s.hasQuotes) continue;
    // "A glacier is a huge mass of ice that moves slowly over land."
    let m = new RegExp(`^(?:an? |the )?${TERM} is ((?:an?|the) .+)$`).exec(
      text.charAt(0).toLowerCase() + text.slice(1),
    );
    if (
      m &&
      !/^the (?:first|last|most|best|only|same)\b|^(?:the|an?) [a-z]+est\b/.test(m[2]!) &&
      !NOT_TERMS.test(m[1]!)
    )
      add(m[1]!, trimDefinition(m[2]!), s);
    // "This build-up of charge on the surface of an object is called static electricity."
    m = new RegExp(`^(.+?) (?:is|are) (?:called|known as) (?:an? |the )?${TERM}[.!]$`).exec(text);
    if (m && !/,/.test(m[1]!)) {
      // "When water vapor cools, it turns back into tiny drops of liquid water. This change is
      // called condensation.": the change is the sentence before.
      const back = /^(?:this|that|such an?) (change|process|step|event)$/i.exec(m[1]!);
      const before = analysis.sentences[s.index - 1];
      const when = before && /^When ([^,]{3,60}), (?:it|they) ([^,;]{3,80})\.$/.exec(before.text);
      // "A few days later, a thin sliver of light appears. This shape is called a crescent.": the
      // shape is the thing the sentence before brings in.
      const pointer = /^(?:this|that) ([a-z]+)$/i.exec(m[1]!);
      const introduced =
        pointer && before && before.paragraph === s.paragraph ? introducedThing(before) : null;
      if (back && when && before.paragraph === s.paragraph)
        add(m[2]!, `the ${back[1]!.toLowerCase()} when ${when[1]} and ${when[2]}`, s, 'named');
      else if (introduced) add(m[2]!, introduced, s, 'named');
      else if (!pointer) add(m[2]!, trimDefinition(m[1]!), s, 'named');
    }
    // "a thin layer called the cambium", "piles of rock and soil called moraines"
    s.tokens.forEach((token, i) => {
      if (token.normal !== 'called' || i < 2) return;
      const after = s.tokens.slice(i + 1).filter((t) => t.pos !== 'DET');
      const term = after[0];
      if (!term || (term.pos !== 'NOUN' && term.pos !== 'ADJ') || !/^[a-z]/.test(term.value))
        return;
      // A two-word term when WordNet-like ("static electricity"): the next noun joins it.
      // Not "the harmattan blows from the northeast": the noun joins only when the two words
      // end the name (punctuation next) or WordNet lists them as one.
      const next = after[1];
      const afterNext = s.tokens[s.tokens.indexOf(next ?? term) + 1];
      const termText =
        next &&
        next.pos === 'NOUN' &&
        /^[a-z]/.test(next.value) &&
        next.start === term.end + 1 &&
        (!afterNext ||
          afterNext.pos === 'PUNCT' ||
          !!lookup(`${term.value} ${next.value}`.toLowerCase(), 'noun'))
          ? `${term.value} ${next.value}`
          : term.value;
      const termEnd = termText.includes(' ') ? next! : term;
      const following = s.tokens[s.tokens.indexOf(termEnd) + 1];
      // "The tallest trees, called emergents, rise …": the name set off by commas.
      const commaBefore = s.tokens[i - 1]!.value === ',';
      // "…, called the condenser." ends the sentence: the name is set off all the same.
      if (commaBefore && following && !/^[,.!?;]$/.test(following.value)) return;
      const head = commaBefore ? i - 2 : i - 1;
      let j = head;
      let opened = -1;
      while (j >= 0) {
        const t = s.tokens[j]!;
        // "a dry, dusty wind": a comma between two describing words.
        const between =
          t.value === ',' &&
          s.tokens[j - 1]?.pos === 'ADJ' &&
          ['ADJ', 'NOUN'].includes(s.tokens[j + 1]?.pos ?? '');
        const ok =
          ['ADJ', 'NOUN', 'NUM'].includes(t.pos) ||
          between ||
          (t.pos === 'ADV' &&
            ['NOUN', 'ADJ'].includes(s.tokens[j + 1]?.pos ?? '') &&
            !!lookup(t.normal, 'adj')) ||
          (t.pos === 'DET' && /^(?:an?|the|some)$/i.test(t.value)) ||
          (t.pos === 'ADP' && t.normal === 'of') ||
          (t.pos === 'CCONJ' && /^(?:and|or)$/.test(t.normal)) ||
          t.value === '-';
        if (!ok) break;
        opened = j;
        // "a small boat with a square sail, called a lugger": set off by a comma, the name is
        // the boat's, not the sail's; the phrase goes on back over "with/for/from/in/on" to
        // the noun it belongs to. (Without the comma, "a tall plant with a woody stem called a
        // trunk" names the stem.)
        const prep = s.tokens[j - 1];
        const owner = s.tokens[j - 2];
        if (
          t.pos === 'DET' &&
          !(
            commaBefore &&
            prep &&
            owner &&
            prep.pos === 'ADP' &&
            /^(?:with|for|from|in|on)$/i.test(prep.value) &&
            owner.pos === 'NOUN'
          )
        )
          break;
        if (t.pos === 'DET') {
          j -= 2;
          continue;
        }
        j -= 1;
      }
      if (opened < 0 || opened === i) return;
      const np = text
        .slice(s.tokens[opened]!.start, s.tokens[head]!.end)
        .trim()
        .replace(/^(?:of|and|or)\s+/, '');
      if (!/\b[a-z]+\b/.test(np) || s.tokens[head]?.pos !== 'NOUN') return;
      // "a pump called the compressor squeezes the warm gas": the class and what the term does.
      const verb = following && following.pos === 'VERB' && /s$|ed$/.test(following.value);
      if (verb && !commaBefore) {
        const vp = definingClause(np, s, s.tokens.indexOf(following));
        if (vp && vp.split(/\s+/).length <= 16) {
          add(termText, vp, s, 'named');
          return;
        }
      }
      add(termText, trimDefinition(np), s, 'named');
    });
    // "the cambium, or growing layer," and "the cambium, a thin layer of living cells,"
    for (const c of text.matchAll(
      new RegExp(`\\b(?:the|an?) ${TERM}, (or [a-z ]{3,40}|(?:an?) [a-z ]{3,60})(?:, |[.!]$)`, 'g'),
    )) {
      // "a cloud, an ocean, or a puddle" is a list, not a definition.
      const rest = text.slice((c.index ?? 0) + c[0].length);
      if (/^(?:or|and)\b/.test(rest) || /^[^,]*,\s*(?:or|and)\b/.test(rest)) continue;
      const def = c[2]!.replace(/^or /, '');
      // "the surface, or where people dig wells": another place, not another name.
      if (
        /^(?:where|when|which|who|whom|how|why|what|if|whether|to|in|on|at|by|from|with)\b/.test(
          def,
        )
      )
        continue;
      add(c[1]!, trimDefinition(def), s);
    }
    // "huge aquifers, layers of rock and sand that hold water underground," and
    // "desertification, the process by which fertile land slowly turns into desert."
    for (const c of text.matchAll(
      /\b([a-z]{4,}), ((?:the|an?) [a-z ]{3,80}|(?:[a-z]+ )?[a-z]{3,}s (?:of|that|who|which|where) [a-z ]{3,70})(?:, |[.!]$)/g,
    )) {
      const term = c[1]!;
      const def = c[2]!;
      const at = c.index ?? 0;
      if (at === 0 || NOT_TERMS.test(term)) continue;
      const token = s.tokens.find((t) => t.start === at && t.value === term);
      if (!token || token.pos !== 'NOUN') continue;
      // Not a superlative or an order ("the fennec fox, the smallest fox"), not a list.
      if (/^the (?:[a-z]+est|first|last|most|best|only|same|one|other)\b/.test(def)) continue;
      const rest = text.slice(at + c[0].length);
      if (/^(?:or|and)\b/.test(rest) || /^[^,]*,\s*(?:or|and)\b/.test(rest)) continue;
      if (/, (?:and|or) /.test(def) || /^(?:and|or|but|nor|yet)\b/.test(def)) continue;
      // "A shade of sadness, a blush of shame": a parallel in a list, not a definition.
      const before = s.tokens[s.tokens.indexOf(token) - 1];
      if (before && /^(?:of|and|or)$/i.test(before.value)) continue;
      // "During the rainy season, the river rises …", "Inside a cloud, the little drops bump …":
      // the comma closes an opening phrase (no verb before it), and a clause follows.
      const lead = s.tokens.slice(0, s.tokens.indexOf(token));
      if (!lead.some((t) => t.pos === 'VERB' || t.pos === 'AUX')) continue;
      // "the rainy season, the river rises …": a new clause, not an appositive.
      const defTokens = s.tokens.filter(
        (t) => t.start > at + term.length + 1 && t.end <= at + c[0].length,
      );
      const head = defTokens.findIndex((t) => t.pos === 'NOUN');
      if (head < 0 || ['VERB', 'AUX'].includes(defTokens[head + 1]?.pos ?? '')) continue;
      // A plural appositive goes with a plural term ("aquifers, layers of …").
      if (!/^(?:the|an?) /.test(def) && !/s$/.test(term)) continue;
      add(term, trimDefinition(def), s);
    }
  }
  definitionCache.set(analysis, out);
  return out;
}

/** A verb sense that can take a person as its object ("deprive", not "sell off an investment"). */
export function takesPersonObject(sense: Synset): boolean {
  return sense.frames.some((f) => PERSON_OBJECT_FRAMES.has(f));
}

/**
 * Whether a noun is owned here ("their own biology", "his chemistry"): after a possessive, a
 * noun is something a person has, never a field of study ("the science that studies …").
 */
export function possessed(sentence: Sentence, index: number): boolean {
  for (let k = index - 1; k >= Math.max(0, index - 3); k--) {
    const t = sentence.tokens[k]!;
    if (/^(?:my|your|his|her|its|our|their)$/i.test(t.value) || /['’]s$/.test(t.value)) return true;
    if (!/^(?:own|ADJ)$/.test(t.normal === 'own' ? 'own' : t.pos)) return false;
  }
  return false;
}

/** A sense that names a field of study or a science ("the science that studies living organisms"). */
export function fieldOfStudy(sense: Synset): boolean {
  return (
    sense.lexFile === 9 &&
    /^(?:the |a )?(?:science|study|branch|scientific study|discipline)\b/i.test(sense.definition)
  );
}
