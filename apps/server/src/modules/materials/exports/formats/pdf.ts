import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import {
  answerText,
  choiceLetter,
  EVIDENCE_NOT_FOUND_MESSAGE,
  evidenceMissing,
  evidenceOf,
  orderOf,
  type MaterialDocument,
  type Question,
} from '@chapterwise/shared';
import type { ExportInput, ExportResult, Exporter } from '../common.js';

/*
 * PDF without a browser: pdfkit lays the material out with DejaVu Sans embedded (subset to the
 * characters used), so any Latin, Greek or Cyrillic text, curly quotes and dashes print and
 * copy as themselves. The student copy has name and date lines and no answers; the teacher copy
 * adds the lesson plan and, on a new page, the answer key with each answer's evidence and the
 * "quote not found" warnings of a teacher's edits. Every page is numbered "Page N of M".
 */

const FONT_DIR = new URL('../../../../../assets/fonts/', import.meta.url);
type Face = ReturnType<typeof fontkit.create>;
let fonts: { regular: Face; bold: Face } | undefined;

function face(file: string): Face {
  return fontkit.create(gunzipSync(readFileSync(new URL(file, FONT_DIR))));
}

/**
 * The two faces, read, unzipped and parsed once per process and shared by every document:
 * fontkit keeps the glyphs and tables it has read, which makes the second PDF several times
 * faster than the first. pdfkit takes a fontkit font as a font source and makes its own subset.
 */
function loadFonts(): { regular: Face; bold: Face } {
  fonts ??= { regular: face('DejaVuSans.ttf.gz'), bold: face('DejaVuSans-Bold.ttf.gz') };
  return fonts;
}

const MARGIN = 56;
const INK = '#1f2937';
const MUTED = '#6b7280';
const WARN = '#9a3412';
const INDENT = 18;

type Doc = PDFKit.PDFDocument;

/** Tabs have no stops in this layout (pdfkit would place the text after one apart). */
function clean(text: string): string {
  return text.replace(/\t/g, ' ');
}

function quoted(text: string): string {
  return /["“”]/.test(text) ? text : `“${text}”`;
}

class Writer {
  constructor(private readonly doc: Doc) {}

  private get width(): number {
    return this.doc.page.width - MARGIN * 2;
  }

  heading(text: string, size = 14): void {
    // Keep a heading with at least two lines of what follows it.
    if (this.doc.y > this.doc.page.height - MARGIN - size * 4) this.doc.addPage();
    this.doc
      .moveDown(0.6)
      .font('bold')
      .fontSize(size)
      .fillColor(INK)
      .text(text, MARGIN, undefined, {
        width: this.width,
      });
    this.doc.moveDown(0.2);
  }

  line(
    text: string,
    options: { bold?: boolean; indent?: number; color?: string; size?: number; gap?: number } = {},
  ): void {
    const indent = options.indent ?? 0;
    this.doc
      .font(options.bold ? 'bold' : 'regular')
      .fontSize(options.size ?? 10.5)
      .fillColor(options.color ?? INK)
      .text(clean(text), MARGIN + indent, undefined, { width: this.width - indent });
    if (options.gap) this.doc.moveDown(options.gap);
  }

  /** "3. " in bold followed by the text, wrapped as one paragraph. */
  numbered(number: number, text: string): void {
    if (this.doc.y > this.doc.page.height - MARGIN - 60) this.doc.addPage();
    this.doc.moveDown(0.45);
    this.doc
      .font('bold')
      .fontSize(10.5)
      .fillColor(INK)
      .text(`${number}. `, MARGIN, undefined, { continued: true, width: this.width })
      .font('regular')
      .text(clean(text));
  }

  warning(): void {
    this.doc
      .font('bold')
      .fontSize(9.5)
      .fillColor(WARN)
      .text('Warning: ', MARGIN + INDENT, undefined, {
        continued: true,
        width: this.width - INDENT,
      })
      .font('regular')
      .text(EVIDENCE_NOT_FOUND_MESSAGE);
  }

  blank(lines: number): void {
    for (let i = 0; i < lines; i++)
      this.line('_'.repeat(70), { indent: INDENT, color: MUTED, gap: 0.2 });
  }
}

function question(w: Writer, q: Question, number: number, student: boolean): void {
  w.numbered(number, q.kind === 'true_false' ? `True or false: ${q.prompt}` : q.prompt);
  switch (q.kind) {
    case 'multiple_choice':
      q.choices.forEach((c, i) => w.line(`${choiceLetter(i)}. ${c}`, { indent: INDENT }));
      break;
    case 'true_false':
      w.line('True / False', { indent: INDENT });
      break;
    case 'short_answer':
      if (student) w.blank(2);
      break;
    case 'discussion':
      if (student) w.blank(4);
      break;
    case 'matching': {
      q.pairs.forEach((p, i) => w.line(`____ ${i + 1}) ${p.left}`, { indent: INDENT }));
      w.line('', { size: 4 });
      orderOf(q).forEach((pairIndex, i) => {
        const pair = q.pairs[pairIndex];
        if (pair) w.line(`${choiceLetter(i)}. ${pair.right}`, { indent: INDENT });
      });
      break;
    }
    case 'fill_blank':
      break;
  }
}

function render(doc: Doc, document: MaterialDocument, student: boolean): void {
  const w = new Writer(doc);
  doc
    .font('bold')
    .fontSize(20)
    .fillColor(INK)
    .text(document.title, { width: doc.page.width - MARGIN * 2 });
  w.line(
    [
      document.grade && `Grade: ${document.grade}`,
      document.subject && `Subject: ${document.subject}`,
      `Type: ${document.type}`,
    ]
      .filter(Boolean)
      .join('   |   '),
    { color: MUTED, size: 9.5, gap: 0.6 },
  );
  if (student)
    w.line('Name: ______________________________     Date: ________________', { gap: 0.6 });
  if (document.instructions) w.line(`Instructions: ${document.instructions}`, { gap: 0.3 });

  const lesson = document.lesson;
  if (lesson && !student) {
    w.heading(`Lesson plan (${lesson.durationMinutes} minutes)`);
    w.line('Learning objectives. Students will be able to:', { bold: true });
    lesson.objectives.forEach((o) => w.line(`• ${o}`, { indent: INDENT }));
    if (lesson.materialsNeeded.length) {
      w.line('Materials', { bold: true });
      lesson.materialsNeeded.forEach((m) => w.line(`• ${m}`, { indent: INDENT }));
    }
    if (lesson.keyPassages.length) {
      w.line('Key passages', { bold: true });
      lesson.keyPassages.forEach((p) => w.line(`• ${quoted(p)}`, { indent: INDENT }));
    }
    w.line('Activities', { bold: true });
    lesson.activities.forEach((a, i) => {
      w.line(`${i + 1}. ${a.title} (${a.minutes} min${a.grouping ? `, ${a.grouping}` : ''})`, {
        indent: INDENT,
      });
      a.steps.forEach((s) => w.line(`– ${s}`, { indent: INDENT * 2 }));
    });
    w.line('Differentiation', { bold: true });
    lesson.differentiation.support.forEach((s) => w.line(`• Support: ${s}`, { indent: INDENT }));
    lesson.differentiation.extension.forEach((s) =>
      w.line(`• Extension: ${s}`, { indent: INDENT }),
    );
    lesson.differentiation.languageLearners.forEach((s) =>
      w.line(`• Language learners: ${s}`, { indent: INDENT }),
    );
    w.line('Assessment', { bold: true });
    lesson.assessment.forEach((a) => w.line(`• ${a}`, { indent: INDENT }));
  }

  if (document.vocabulary.length) {
    w.heading('Vocabulary');
    document.vocabulary.forEach((item, i) => {
      w.numbered(
        i + 1,
        `${item.term}${item.partOfSpeech ? ` (${item.partOfSpeech})` : ''}: ${item.definition}`,
      );
      w.line(quoted(item.context), { indent: INDENT, color: MUTED });
      if (!student && evidenceMissing(item)) w.warning();
    });
  }

  let number = 0;
  const numbered: Array<[Question, number]> = [];
  document.sections.forEach((section, s) => {
    if (!section.questions.length) return;
    w.heading(`Part ${s + 1}: ${section.title}`);
    if (section.instructions) w.line(section.instructions, { color: MUTED });
    for (const q of section.questions) {
      number += 1;
      numbered.push([q, number]);
      question(w, q, number, student);
    }
  });
  if (lesson) {
    w.heading('Exit ticket');
    for (const q of lesson.exitTicket) {
      number += 1;
      numbered.push([q, number]);
      question(w, q, number, student);
    }
  }

  if (!student && numbered.length) {
    doc.addPage();
    doc.font('bold').fontSize(16).fillColor(INK).text('Answer Key', MARGIN, MARGIN);
    for (const [q, n] of numbered) {
      w.numbered(n, answerText(q));
      const lines =
        q.kind === 'true_false' && !q.answer && q.correction
          ? [`The text says: ${quoted(q.correction)}`]
          : evidenceOf(q).map((e) => `Evidence: ${quoted(e)}`);
      for (const line of lines) w.line(line, { indent: INDENT, color: MUTED, size: 9.5 });
      if (evidenceMissing(q)) w.warning();
    }
  }
  if (!student && document.generator.unverified) {
    doc.moveDown(1);
    w.line(
      'Note: no reference text was given, so these answers could not be checked against a text.',
      { color: MUTED, size: 9.5 },
    );
  }
}

/** Writes "Page N of M" at the foot of every page (pages are buffered until now). */
function numberPages(doc: Doc, title: string): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.height - MARGIN / 2 - 8;
    // Writing inside the bottom margin must not start a new page.
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font('regular')
      .fontSize(8.5)
      .fillColor(MUTED)
      .text(title, MARGIN, bottom, { width: 300, lineBreak: false, ellipsis: true, height: 12 })
      .text(`Page ${i + 1} of ${range.count}`, MARGIN, bottom, {
        width: doc.page.width - MARGIN * 2,
        align: 'right',
        lineBreak: false,
      });
    doc.page.margins.bottom = margin;
  }
}

/** The PDF of one material: the student copy, or the teacher copy with the answer key. */
export function exportPdf(
  document: MaterialDocument,
  copy: 'teacher' | 'student',
): Promise<Buffer> {
  const { regular, bold } = loadFonts();
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: MARGIN,
    bufferPages: true,
    font: null as unknown as string,
    info: {
      Title: document.title,
      Subject: `${document.type}${copy === 'student' ? ' (student copy)' : ' (teacher copy)'}`,
      Creator: 'Chapterwise',
      Producer: 'Chapterwise',
    },
  });
  doc.registerFont('regular', regular as unknown as Buffer);
  doc.registerFont('bold', bold as unknown as Buffer);
  doc.font('regular');
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  render(doc, document, copy === 'student');
  numberPages(doc, document.title);
  doc.end();
  return done;
}

export const pdf: Exporter = {
  id: 'pdf',
  extension: 'pdf',
  contentType: 'application/pdf',
  copies: true,
  async build({ document, copy }: ExportInput): Promise<ExportResult> {
    return { body: await exportPdf(document, copy), notes: [] };
  },
};
