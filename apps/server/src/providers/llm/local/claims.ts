import { SPEECH_VERBS, type Sentence } from './analyse.js';
import { lexFileOf, lookup } from './wordnet.js';

/**
 * Whether a sentence of the text can be put to students as a statement to judge true or false
 * (decision 016, "True/false statements are claims"). A statement must be a declarative claim
 * that stands alone: not a question, not an exclamation, not a cry ("O Captain!"), not a
 * fragment of verse with no finite verb ("Theirs not to make reply"), and with every pronoun's
 * person or thing named before it in the statement itself.
 */
export type NotAClaim =
  'question' | 'exclamation' | 'interjection' | 'fragment' | 'two sentences' | 'speech tag';

/** Words that open a cry or an address, not a claim. */
const INTERJECTION = /^(?:o|oh|ah|alas|lo|hark|behold|hurrah|hurray|huzza|fie|ho|aye|yea|nay)$/i;

/**
 * The words around a line of dialogue, left alone when the splitter cut the quoted line off
 * ("Omar asked one day.", "she said softly."): a subject, a verb that tags speech and at most
 * three more words, with nothing said.
 */
function speechTag(words: Sentence['tokens']): boolean {
  if (words.length > 7) return false;
  const v = words.findIndex((x) => SPEECH_VERBS.has(x.normal));
  if (v < 1 || v > 3) return false;
  return words.length - v - 1 <= 3 && !words.some((x) => /^that$/i.test(x.value));
}

// A sentence's end inside the text, after a word that is no abbreviation ("Mr.", "St.", "A.").
const JOINED =
  /(?<!\b(?:Mr|Mrs|Ms|Dr|St|Jr|Sr|Prof|Gen|Col|Capt|Lt|Rev|Mt|No|vs|etc|[A-Z]))[.!?]["”’)]?\s+["“‘(]?\p{Lu}\p{Ll}/u;

/**
 * Why the sentence is no claim to judge, or null when it is one. A question or exclamation is
 * told by its end mark (a closing quotation mark or bracket may follow it); a cry by its first
 * word; a fragment by an opening "not" (an answer to, or inversion of, the line before) or by
 * having no finite verb at all (only infinitives and "-ing" forms: "Theirs but to do and die").
 */
export function notAClaim(s: Sentence): NotAClaim | null {
  const end = s.text.replace(/[\s"”’'»)\]]+$/u, '');
  if (/\?$/.test(end)) return 'question';
  if (/!$/.test(end)) return 'exclamation';
  const t = s.tokens.filter((x) => /[\p{L}\p{N}]/u.test(x.value));
  if (!t.length) return 'fragment';
  if (t[0]!.pos === 'INTJ' || INTERJECTION.test(t[0]!.value)) return 'interjection';
  // "Not though …", "Than oars divide the ocean …": the rest of a sentence begun before.
  if (/^(?:not|than)$/i.test(t[0]!.value)) return 'fragment';
  // "… diffuses in. Laid end to end, …": two sentences the splitter ran together.
  if (JOINED.test(s.text)) return 'two sentences';
  if (speechTag(t)) return 'speech tag';
  return hasFiniteVerb(s) ? null : 'fragment';
}

/**
 * A verb that can carry a clause: an auxiliary, or a verb that is neither an "-ing" form nor an
 * infinitive ("to make", and "die" in "to do and die").
 */
export function hasFiniteVerb(s: Sentence): boolean {
  const t = s.tokens;
  let lastInfinitive = -2;
  for (let i = 0; i < t.length; i++) {
    const x = t[i]!;
    if (x.pos === 'AUX') return true;
    if (x.pos !== 'VERB') continue;
    let k = i - 1;
    while (k >= 0 && t[k]!.pos === 'ADV') k--;
    const toBefore = k >= 0 && /^to$/i.test(t[k]!.value);
    // "to do and die": a verb joined by "and" or "or" to an infinitive is one too.
    const joined = k >= 0 && t[k]!.pos === 'CCONJ' && lastInfinitive === k - 1;
    if (toBefore || joined) {
      lastInfinitive = i;
      continue;
    }
    if (/ing$/i.test(x.value)) continue;
    return true;
  }
  return false;
}

const CLAUSE_BREAK =
  /[,;:—]|\b(?:and|but|or|so|that|which|who|when|while|because|until|after|before|if)\b/i;
const PERSONAL = /^(?:he|him|his|himself|she|her|hers|herself)$/i;
const IMPERSONAL = /^(?:it|its|itself|they|them|their|theirs|themselves)$/i;
// WordNet's lexicographer files: noun.animal and noun.person.
const ANIMAL = 5;
const PERSON = 18;

/** A noun WordNet knows, in the singular when the plural is unknown ("sailors" → "sailor"). */
function nounLemma(word: string): string | null {
  const low = word.toLowerCase();
  for (const form of [low, low.replace(/s$/, ''), low.replace(/es$/, ''), low.replace(/ies$/, 'y')])
    if (form && lookup(form, 'noun')) return form;
  return null;
}

/**
 * The first pronoun of a statement that nothing before it in the statement can stand for
 * ("Onward through life he goes": who?), or null. "He"/"she" need a person or an animal (a
 * name, or a noun WordNet files as a person or an animal: "the fisherman … he", "the Lion …
 * his"); "it"/"they" need any noun. `named` says whether a word is one of the text's names
 * (they count as people: the statement may have put a name in for a pronoun already).
 */
export function unresolvedPronoun(
  statement: string,
  named: (word: string) => boolean,
  tags?: Sentence['tokens'],
): string | null {
  const words = statement.match(/[\p{L}][\p{L}'’-]*/gu) ?? [];
  const nounTag = new Set(
    (tags ?? []).filter((x) => x.pos === 'NOUN' || x.pos === 'PROPN').map((x) => x.value),
  );
  const verbTag = new Set(
    (tags ?? []).filter((x) => x.pos === 'VERB' || x.pos === 'AUX').map((x) => x.value),
  );
  let person = false;
  let thing = false;
  let nouns = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!.replace(/['’]s$/, '');
    if (PERSONAL.test(w)) {
      if (!person) return w;
      continue;
    }
    if (IMPERSONAL.test(w)) {
      if (!thing && !person) return w;
      // "A dog was lying on it": an object "it" or "them" is never its own clause's subject,
      // so a lone noun before it in one clause cannot be what it stands for.
      const next = words[i + 1];
      const object = /^(?:it|them)$/i.test(w) && (!next || !verbTag.has(next));
      const upTo = statement.slice(0, statement.search(new RegExp(`\\b${w}\\b`)));
      if (object && tags && nouns === 1 && !CLAUSE_BREAK.test(upTo)) return w;
      continue;
    }
    if (named(w) || (i > 0 && /^\p{Lu}/u.test(w) && !/^I$/.test(w)) || /^narrator$/i.test(w)) {
      person = true;
      thing = true;
      nouns++;
      continue;
    }
    const lemma = nounLemma(w);
    if (!lemma || (tags && !nounTag.has(words[i]!) && !nounTag.has(w))) continue;
    thing = true;
    nouns++;
    const lex = lexFileOf(lemma, 'noun');
    if (lex === PERSON || lex === ANIMAL) person = true;
  }
  return null;
}

/**
 * A comparison with nothing to compare with: "more" or "less" before an adjective and no "than"
 * in the statement ("events of a less peaceful character": less peaceful than what?). The
 * standard of comparison was in the sentence before, so the statement cannot be judged alone.
 */
export function implicitComparison(s: Sentence): boolean {
  const t = s.tokens;
  if (t.some((x) => /^than$/i.test(x.value))) return false;
  return t.some(
    (x, i) =>
      /^(?:more|less)$/i.test(x.value) &&
      t[i + 1]?.pos === 'ADJ' &&
      !/^(?:no|any|once|and|or)$/i.test(t[i - 1]?.value ?? ''),
  );
}

// WordNet lexicographer files of the words a text uses to talk about its own argument:
// noun.cognition ("fact", "idea"), noun.communication ("objection", "claim"), and the people,
// events and times such talk names ("critics", "case", "time").
const COGNITION = 9;
const COMMUNICATION = 10;
const DISCOURSE = new Set([COGNITION, COMMUNICATION, 11, PERSON, 28]);

/**
 * A statement about the text's argument rather than its subject ("Critics raise legitimate
 * objections", "The case begins with a simple fact"): it names nothing (no name, no number) and
 * every noun in it is one of argument, knowledge, people, events or time, one at least of
 * argument or knowledge, and none one the text keeps using (its subject). Out of its paragraph
 * it says nothing a student can check.
 */
export function aboutTheArgument(
  s: Sentence,
  timesUsed: (lemma: string) => number,
  named: (word: string) => boolean = () => true,
): boolean {
  let discourse = false;
  for (const [i, x] of s.tokens.entries()) {
    // "Critics raise …": a capital at the start is no name unless the text names it.
    const opening = i === 0 && x.pos === 'PROPN' && !named(x.value);
    if ((x.pos === 'PROPN' && !opening) || x.pos === 'NUM') return false;
    if (x.pos !== 'NOUN' && !opening) continue;
    const lemma = nounLemma(x.lemma || x.value);
    if (!lemma) return false;
    const lex = lexFileOf(lemma, 'noun');
    // A noun the text keeps coming back to ("letters" of a text on printing) is its subject.
    if (!DISCOURSE.has(lex) || timesUsed(lemma) >= 3) return false;
    if (lex === COGNITION || lex === COMMUNICATION) discourse = true;
  }
  return discourse;
}
