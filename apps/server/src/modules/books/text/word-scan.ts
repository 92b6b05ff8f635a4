// Word scanning without regular expressions: the word counts and readability figures of every
// chapter of a bulk run (hundreds of MB) are the splitter's hottest loop. Each scanner finds
// exactly the matches of the regular expression it replaces (text.test.ts checks them against
// it on real texts and random strings), several times faster and without building arrays.

const LETTER_OR_NUMBER = /^[\p{L}\p{N}]$/u;
const LETTER = /^\p{L}$/u;

/** Per BMP code unit: 0 unknown, 1 yes, 2 no (filled on first sight). */
const letterOrNumberTable = new Uint8Array(0x10000);
const letterTable = new Uint8Array(0x10000);

function isLetterOrNumber(cp: number): boolean {
  if (cp < 0x80) {
    return (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x30 && cp <= 0x39);
  }
  if (cp > 0xffff) return LETTER_OR_NUMBER.test(String.fromCodePoint(cp));
  let known = letterOrNumberTable[cp]!;
  if (known === 0) {
    known = LETTER_OR_NUMBER.test(String.fromCharCode(cp)) ? 1 : 2;
    letterOrNumberTable[cp] = known;
  }
  return known === 1;
}

function isLetter(cp: number): boolean {
  if (cp < 0x80) return (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a);
  if (cp > 0xffff) return LETTER.test(String.fromCodePoint(cp));
  let known = letterTable[cp]!;
  if (known === 0) {
    known = LETTER.test(String.fromCharCode(cp)) ? 1 : 2;
    letterTable[cp] = known;
  }
  return known === 1;
}

/** The code point at `i` (a lone surrogate stands for itself, as in a /u regular expression). */
function codePointAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff || i + 1 >= text.length) return c;
  const d = text.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff ? ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000 : c;
}

const APOSTROPHE = 0x27;
const RIGHT_QUOTE = 0x2019;
const HYPHEN = 0x2d;

/**
 * Calls `onWord(start, end)` for every match of `[C]+(?:[J][C]+)*` (global, /u), where C is
 * `isWordChar` and J the joiners; returns how many there were.
 */
function scan(
  text: string,
  isWordChar: (cp: number) => boolean,
  hyphenJoins: boolean,
  onWord?: (start: number, end: number) => void,
): number {
  const n = text.length;
  let count = 0;
  let i = 0;
  while (i < n) {
    let cp = codePointAt(text, i);
    if (!isWordChar(cp)) {
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    const start = i;
    i += cp > 0xffff ? 2 : 1;
    for (;;) {
      while (i < n) {
        cp = codePointAt(text, i);
        if (!isWordChar(cp)) break;
        i += cp > 0xffff ? 2 : 1;
      }
      if (i + 1 >= n) break;
      const c = text.charCodeAt(i);
      const joiner = c === APOSTROPHE || c === RIGHT_QUOTE || (hyphenJoins && c === HYPHEN);
      if (!joiner || !isWordChar(codePointAt(text, i + 1))) break;
      i += 1;
    }
    count++;
    onWord?.(start, i);
  }
  return count;
}

/** How many matches of `[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*` (global, Unicode) the text holds. */
export function scanWordCount(text: string): number {
  return scan(text, isLetterOrNumber, true);
}

/**
 * Calls `onWord(start, end)` for every match of `[\p{L}]+(?:['’][\p{L}]+)*` (global, Unicode)
 * in the text; returns how many there were.
 */
export function scanLetterWords(
  text: string,
  onWord: (start: number, end: number) => void,
): number {
  return scan(text, isLetter, false, onWord);
}
