import type { Sentence } from './analyse.js';
import { lexFileOf, lookup } from './wordnet.js';

/**
 * Whether a sentence of the text can be put to students as a statement to judge true or false
 * (decision 016, "True/false statements are claims"). A statement must be a declarative claim
 * that stands alone: not a question, not an exclamation, not a cry ("O Captain!"), not a
 * fragment of verse with no finite verb ("Theirs not to make reply"), and with every pronoun's
 * person or thing named before it in the statement itself.
 */
export type NotAClaim = 'question' | 'exclamation' | 'interjection' | 'fragment';

/** Words that open a cry or an address, not a claim. */
const INTERJECTION = /^(?:o|oh|ah|alas|lo|hark|behold|hurrah|hurray|huzza|fie|ho|aye|yea|nay)$/i;

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
  if (/^not$/i.test(t[0]!.value)) return 'fragment';
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
  let person = false;
  let thing = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!.replace(/['’]s$/, '');
    if (PERSONAL.test(w)) {
      if (!person) return w;
      continue;
    }
    if (IMPERSONAL.test(w)) {
      if (!thing && !person) return w;
      continue;
    }
    if (named(w) || (i > 0 && /^\p{Lu}/u.test(w) && !/^I$/.test(w)) || /^narrator$/i.test(w)) {
      person = true;
      thing = true;
      continue;
    }
    const lemma = nounLemma(w);
    if (!lemma || (tags && !nounTag.has(words[i]!) && !nounTag.has(w))) continue;
    thing = true;
    const lex = lexFileOf(lemma, 'noun');
    if (lex === PERSON || lex === ANIMAL) person = true;
  }
  return null;
}
