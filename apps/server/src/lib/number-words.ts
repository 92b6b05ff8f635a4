/**
 * English number words, built once and shared by everything that reads numbers written as
 * words: the generator's plan ("ten questions"), its number swaps ("fifty" → "twenty"), the
 * assistant's request reader ("three discussion questions") and chapter titles ("Chapter
 * Two", "the second part").
 */
/** "one" … "nineteen", in order. */
export const UNITS: readonly string[] = [
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
/** "twenty" … "ninety", in order. */
export const TENS: readonly string[] = [
  'twenty',
  'thirty',
  'forty',
  'fifty',
  'sixty',
  'seventy',
  'eighty',
  'ninety',
];
const ORDINAL_WORDS = [
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
];

/** "one" … "nineteen", "twenty" … "ninety", "hundred", "thousand", "million", "billion". */
export const CARDINALS: Readonly<Record<string, number>> = Object.freeze({
  ...Object.fromEntries(UNITS.map((w, i) => [w, i + 1])),
  ...Object.fromEntries(TENS.map((w, i) => [w, (i + 2) * 10])),
  hundred: 100,
  thousand: 1000,
  million: 1e6,
  billion: 1e9,
});

/** "first" … "tenth". */
export const ORDINALS: Readonly<Record<string, number>> = Object.freeze(
  Object.fromEntries(ORDINAL_WORDS.map((w, i) => [w, i + 1])),
);

/** The value of a number written in digits ("1,300") or as one word ("fifty"); NaN otherwise. */
export function numberValue(text: string): number {
  const n = Number(text.replace(/,/g, ''));
  if (text.trim() !== '' && !Number.isNaN(n)) return n;
  return CARDINALS[text.toLowerCase()] ?? NaN;
}
