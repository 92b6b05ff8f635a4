import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  answerText,
  EVIDENCE_NOT_FOUND_MESSAGE,
  numberedQuestions,
  type MaterialDocument,
} from '@chapterwise/shared';
import { HOSTILE, hostileDocument, quizOf } from '../../../test/material-fixtures.js';
import { exportPdf } from './formats/pdf.js';

/** Runs a poppler tool (Debian's poppler-utils; .ci/run installs it) on a PDF from stdin. */
function poppler(tool: 'pdftotext' | 'pdfinfo', pdf: Buffer): string {
  const args = tool === 'pdftotext' ? ['-enc', 'UTF-8', '-', '-'] : ['-'];
  const run = spawnSync(tool, args, { input: pdf, encoding: 'utf8' });
  if (run.error)
    throw new Error(`${tool} is needed for these tests: apt-get install poppler-utils`);
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

/** The text of a PDF as pdftotext reads it, with line breaks and runs of spaces as one space. */
const flat = (s: string) => s.replace(/\s+/g, ' ').trim();

function pages(pdf: Buffer): number {
  return Number(/Pages:\s+(\d+)/.exec(poppler('pdfinfo', pdf))![1]);
}

describe('PDF export', () => {
  const document = hostileDocument();
  const questions = numberedQuestions(document);
  const readable = flat;

  it('teacher copy: every question, the answer key with evidence and the quote-not-found notes, numbered pages', async () => {
    const pdf = await exportPdf(document, 'teacher');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = flat(poppler('pdftotext', pdf));
    expect(text).toContain(flat(document.title));
    for (const q of questions) expect(text).toContain(readable(q.prompt));
    expect(text).toContain('Answer Key');
    for (const q of questions) expect(text).toContain(readable(answerText(q)));
    expect(text).toContain('Evidence: “I write to you from St. Petersburgh.”');
    expect(text).toContain('The text says: “I am already far north of London.”');
    // One question and one vocabulary word carry a teacher's unfound quote.
    expect(text.split(EVIDENCE_NOT_FOUND_MESSAGE)).toHaveLength(3);
    expect(text).toContain('Lesson plan (45 minutes)');
    // Unicode text (accents, curly quotes, dashes, Greek) is embedded and reads back.
    expect(text).toContain(HOSTILE.unicode);
    expect(text).toContain(HOSTILE.formula);
    const count = pages(pdf);
    expect(count).toBeGreaterThanOrEqual(2);
    for (let n = 1; n <= count; n++) expect(text).toContain(`Page ${n} of ${count}`);
    // The answer key starts its own page: the page before it ends with the last question.
    const byPage = poppler('pdftotext', pdf).split('\f');
    const keyPage = byPage.findIndex((p) => p.includes('Answer Key'));
    expect(flat(byPage[keyPage]!).startsWith('Answer Key')).toBe(true);
  });

  it('student copy: name and date lines, no answers, no evidence, no notes', async () => {
    const pdf = await exportPdf(document, 'student');
    const text = flat(poppler('pdftotext', pdf));
    expect(text).toContain('Name: ____');
    for (const q of questions) expect(text).toContain(readable(q.prompt));
    expect(text).not.toContain('Answer Key');
    expect(text).not.toContain('Evidence:');
    expect(text).not.toContain(EVIDENCE_NOT_FOUND_MESSAGE);
    expect(text).not.toContain('Lesson plan');
    const count = pages(pdf);
    expect(text).toContain(`Page ${count} of ${count}`);
  });

  it('a 30-question test runs to several numbered pages', async () => {
    const quiz: MaterialDocument = quizOf(30);
    const pdf = await exportPdf(quiz, 'teacher');
    const count = pages(pdf);
    expect(count).toBeGreaterThan(2);
    const text = flat(poppler('pdftotext', pdf));
    for (const q of numberedQuestions(quiz)) expect(text).toContain(flat(q.prompt));
    expect(text).toContain(`Page ${count} of ${count}`);
    expect(poppler('pdfinfo', pdf)).toContain('Frankenstein, Letter 4 Test');
  });
});
