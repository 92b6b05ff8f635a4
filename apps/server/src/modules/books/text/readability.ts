import { countWords } from './chapters.js';

/** Words a student reads in a minute: a deliberately unhurried pace for classroom texts. */
export const WORDS_PER_MINUTE = 200;

export interface TextStats {
  wordCount: number;
  sentenceCount: number;
  syllableCount: number;
}

/** Words, sentences and syllables of a text (the inputs of the Flesch–Kincaid grade). */
export function measureText(text: string): TextStats {
  const words = text.match(/[\p{L}]+(?:['’][\p{L}]+)*/gu) ?? [];
  let syllableCount = 0;
  for (const word of words) syllableCount += countSyllables(word);
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
