import { splitChapters } from './chapters.js';
import { stripGutenbergText } from './gutenberg-text.js';
import { fleschKincaidGrade, measureText, readingMinutes } from './readability.js';

export interface PreparedChapter {
  index: number;
  title: string;
  url: string;
  text: string;
  wordCount: number;
  readingMinutes: number;
  readingGrade: number;
}

export interface PreparedText {
  chapters: PreparedChapter[];
  totals: { wordCount: number; readingMinutes: number; readingGrade: number };
}

/**
 * A raw PG text to stored chapters: header and licence stripped, split, and every chapter
 * and the whole book measured (words, reading time, Flesch–Kincaid grade). The importer, the
 * on-demand fetch and the bulk CLI all go through here.
 */
export function prepareText(
  raw: string,
  title: string,
  onStage?: (stage: 'splitting') => void,
): PreparedText {
  const body = stripGutenbergText(raw);
  onStage?.('splitting');
  const sum = { wordCount: 0, sentenceCount: 0, syllableCount: 0 };
  const chapters = splitChapters(body, title).map((c) => {
    const stats = measureText(c.text);
    sum.wordCount += stats.wordCount;
    sum.sentenceCount += stats.sentenceCount;
    sum.syllableCount += stats.syllableCount;
    return {
      ...c,
      wordCount: stats.wordCount,
      readingMinutes: readingMinutes(stats.wordCount),
      readingGrade: fleschKincaidGrade(stats),
    };
  });
  return {
    chapters,
    totals: {
      wordCount: sum.wordCount,
      readingMinutes: readingMinutes(sum.wordCount),
      readingGrade: fleschKincaidGrade(sum),
    },
  };
}
