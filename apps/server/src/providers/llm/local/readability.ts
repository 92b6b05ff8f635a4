/** Syllables of an English word, by the usual vowel-group rule with the common exceptions. */
export function syllables(word: string): number {
  let w = word.toLowerCase().replace(/[^a-z]/g, '');
  if (!w) return /\d/.test(word) ? Math.max(1, word.replace(/\D/g, '').length) : 0;
  if (w.length <= 3) return 1;
  w = w
    .replace(/(?:[^laeiouy]es|[^laeiouy]ed|[^laeiouy]e)$/, (m) => m.slice(0, 1))
    .replace(/^y/, '');
  const groups = w.match(/[aeiouy]{1,2}/g);
  return Math.max(1, groups?.length ?? 1);
}

/** Flesch–Kincaid grade level. */
export function fleschKincaidGrade(
  words: number,
  sentences: number,
  syllableCount: number,
): number {
  if (words === 0 || sentences === 0) return 0;
  return 0.39 * (words / sentences) + 11.8 * (syllableCount / words) - 15.59;
}

/** Sentence length (in words) a reader of this level handles comfortably. */
export function sentenceWindow(level: number): { min: number; max: number } {
  if (level <= 2) return { min: 5, max: 18 };
  if (level <= 5) return { min: 6, max: 24 };
  if (level <= 8) return { min: 7, max: 30 };
  if (level <= 12) return { min: 8, max: 38 };
  return { min: 8, max: 48 };
}

/**
 * How well a sentence's difficulty suits the grade: 1 when its Flesch–Kincaid grade is at or a
 * little under the class's level, falling off as it gets harder (faster for young readers)
 * or much easier.
 */
export function gradeFit(sentenceGrade: number, level: number): number {
  const target = Math.max(1, level + 0.5);
  const over = sentenceGrade - target;
  // Never 0: when a text has nothing easier, its hardest sentences are still usable, last.
  if (over > 0) return Math.max(0.03, 1 - over / (level <= 5 ? 4 : 7));
  return Math.max(0.25, 1 + over / 12);
}
