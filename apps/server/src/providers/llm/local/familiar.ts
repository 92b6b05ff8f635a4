import { daleChall } from 'dale-chall';

/** The new Dale–Chall list (1995): about 3,000 words known to most fourth-graders. */
const FAMILIAR = new Set(daleChall);

/** Familiar to a grade-4 reader: on the Dale–Chall list as it is or in its base form. */
export function isFamiliar(word: string, lemma = word): boolean {
  return FAMILIAR.has(word.toLowerCase()) || FAMILIAR.has(lemma.toLowerCase());
}

/** Every Dale–Chall word through a stemmer (so "worked" and "works" meet "work"). */
export function familiarStems(stem: (w: string) => string): Set<string> {
  return new Set(daleChall.map(stem));
}
