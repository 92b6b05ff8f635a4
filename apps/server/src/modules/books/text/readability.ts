import { countWords } from './chapters.js';
import { scanLetterWords } from './word-scan.js';

/** Words a student reads in a minute: a deliberately unhurried pace for classroom texts. */
export const WORDS_PER_MINUTE = 200;

export interface TextStats {
  wordCount: number;
  sentenceCount: number;
  syllableCount: number;
}

/** Words, sentences and syllables of a text (the inputs of the Flesch–Kincaid grade). */
export function measureText(text: string): TextStats {
  // Words of letters (`[\p{L}]+(?:['’][\p{L}]+)*`), their syllables counted in place.
  let syllableCount = 0;
  scanLetterWords(text, (start, end) => {
    syllableCount += syllablesAt(text, start, end);
  });
  // A sentence ends at . ! ? (optionally followed by closing quotes or brackets) before a
  // space or the end; abbreviations such as "Mr." are not counted as ends.
  const ends =
    text.match(/(?<!\b(?:Mr|Mrs|Ms|Dr|St|Sr|Jr|Mt|vs|etc|i\.e|e\.g))[.!?]+[”"’')\]]*(?=\s|$)/g) ??
    [];
  return {
    wordCount: countWords(text),
    sentenceCount: Math.max(1, ends.length),
    syllableCount,
  };
}

/**
 * Flesch–Kincaid grade level: 0.39 × words per sentence + 11.8 × syllables per word − 15.59,
 * rounded to one decimal and kept between 0 and 18 (very long sentences in older prose would
 * otherwise give grades no class uses).
 */
export function fleschKincaidGrade(stats: TextStats): number {
  if (stats.wordCount === 0) return 0;
  const words = Math.max(1, stats.syllableCount > 0 ? stats.wordCount : 1);
  const grade = 0.39 * (words / stats.sentenceCount) + 11.8 * (stats.syllableCount / words) - 15.59;
  return Math.round(Math.min(18, Math.max(0, grade)) * 10) / 10;
}

/** Minutes to read this many words at WORDS_PER_MINUTE, at least 1 for any text. */
export function readingMinutes(wordCount: number): number {
  return wordCount === 0 ? 0 : Math.max(1, Math.round(wordCount / WORDS_PER_MINUTE));
}

/**
 * Syllables in an English word by the usual vowel-group rule with corrections for a silent
 * final "e" and "-ed"/"-es" endings. Good to about ±1 per word, which is what
 * readability formulas assume.
 */
export function countSyllables(raw: string): number {
  const word = raw.toLowerCase().replace(/[^a-z]/g, '');
  if (word.length === 0) return 0;
  if (word.length <= 3) return 1;
  let w = word;
  // A silent final e ("make"), and "-ed" that adds no syllable ("walked", not "wanted").
  w = w.replace(/(?:[^laeiouy]es|[^laeiouytd]ed|[^laeiouy]e)$/, '');
  w = w.replace(/^y/, '');
  const groups = w.match(/[aeiouy]{1,2}/g);
  const count = groups ? groups.length : 0;
  return Math.max(1, count);
}

const VOWEL = new Uint8Array(128);
for (const c of 'aeiouy') VOWEL[c.charCodeAt(0)] = 1;
/** Letters before a final "es"/"e" that keep its syllable (`[^laeiouy]`), and before "ed". */
const KEEPS_E = new Uint8Array(128);
for (const c of 'laeiouy') KEEPS_E[c.charCodeAt(0)] = 1;
const KEEPS_ED = new Uint8Array(128);
for (const c of 'laeiouytd') KEEPS_ED[c.charCodeAt(0)] = 1;
const MAX_ASCII_WORD = 64;
const letters = new Uint8Array(MAX_ASCII_WORD);

/**
 * `countSyllables(text.slice(start, end))` without building strings: the same rule on the
 * word's letters lower-cased in a buffer. Words with other than ASCII characters (or very
 * long ones) take `countSyllables` itself.
 */
function syllablesAt(text: string, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    let c = text.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    else if (c < 0x61 || c > 0x7a) {
      if (c === 0x27 || c === 0x2019) continue; // apostrophes go, as in countSyllables
      return countSyllables(text.slice(start, end));
    }
    if (n === MAX_ASCII_WORD) return countSyllables(text.slice(start, end));
    letters[n++] = c;
  }
  if (n === 0) return 0;
  if (n <= 3) return 1;
  // (?:[^laeiouy]es|[^laeiouytd]ed|[^laeiouy]e)$: the leftmost match ends the word.
  const last = letters[n - 1]!;
  const before = letters[n - 2]!;
  const third = letters[n - 3]!;
  if (before === 0x65 && last === 0x73 && !KEEPS_E[third]) n -= 3;
  else if (before === 0x65 && last === 0x64 && !KEEPS_ED[third]) n -= 3;
  else if (last === 0x65 && !KEEPS_E[before]) n -= 2;
  // ^y, then vowel groups of one or two letters: ceil(run / 2) for every run of vowels.
  let i = letters[0] === 0x79 ? 1 : 0;
  let count = 0;
  let run = 0;
  for (; i < n; i++) {
    if (VOWEL[letters[i]!]) run++;
    else if (run > 0) {
      count += (run + 1) >> 1;
      run = 0;
    }
  }
  count += (run + 1) >> 1;
  return Math.max(1, count);
}
