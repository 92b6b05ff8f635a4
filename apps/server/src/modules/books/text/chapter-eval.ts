import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { countWords, splitChapters } from './chapters.js';
import { stripGutenbergText } from './gutenberg-text.js';

/** Texts the splitter was not written against, with chapters counted by hand. */
export const CHAPTER_EVAL_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../test-data/chapter-eval',
);

export interface EvalExpectation {
  id: number;
  kind: string;
  title: string;
  chapters: number;
  firstWords: string;
  how: string;
}

export interface EvalResult extends EvalExpectation {
  got: number;
  gotFirstTitle: string;
  gotFirstWords: string;
  countOk: boolean;
  firstOk: boolean;
  largestPartWords: number;
}

function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .split(/[^a-z0-9']+/)
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter(Boolean);
}

/** Whether `expected` are words of the first 40 of `text` (a heading line may come first). */
export function startsWithWords(text: string, expected: string): boolean {
  const head = words(text).slice(0, 40).join(' ');
  return ` ${head} `.includes(` ${words(expected).join(' ')} `);
}

export function readExpectations(): EvalExpectation[] {
  const file = JSON.parse(readFileSync(path.join(CHAPTER_EVAL_DIR, 'expected.json'), 'utf8')) as {
    texts: EvalExpectation[];
  };
  return file.texts;
}

/** Splits every evaluation text and compares it with what was counted by hand. */
export function evaluateChapters(): EvalResult[] {
  return readExpectations().map((expected) => {
    const raw = gunzipSync(
      readFileSync(path.join(CHAPTER_EVAL_DIR, `pg${expected.id}.txt.gz`)),
    ).toString('utf8');
    const parts = splitChapters(stripGutenbergText(raw), expected.title);
    const first = parts[0];
    return {
      ...expected,
      got: parts.length,
      gotFirstTitle: first?.title ?? '',
      gotFirstWords: first ? words(first.text).slice(0, 8).join(' ') : '',
      countOk: parts.length === expected.chapters,
      firstOk: first ? startsWithWords(first.text, expected.firstWords) : false,
      largestPartWords: Math.max(0, ...parts.map((p) => countWords(p.text))),
    };
  });
}
