import {
  numberedQuestions,
  slugify,
  type ExportFormatId,
  type MaterialDocument,
  type Question,
} from '@chapterwise/shared';

export type ExportCopy = 'teacher' | 'student';

/** What every exporter gets: the checked document, the material's name and the copy asked for. */
export interface ExportInput {
  document: MaterialDocument;
  name: string;
  copy: ExportCopy;
}

/** One exported file: its bytes and what it shortened or left out, in the teacher's words. */
export interface ExportResult {
  body: Buffer | string;
  notes: string[];
}

/** One export format: how its file is named and typed, and how it is made. */
export interface Exporter {
  id: ExportFormatId;
  extension: string;
  contentType: string;
  /** Whether a teacher and a student copy differ (Word, PDF, text). */
  copies: boolean;
  build(input: ExportInput): ExportResult | Promise<ExportResult>;
  /**
   * Several materials in one file (one quiz per material), for formats that can hold them; the
   * others are zipped one file per material.
   */
  buildMany?(inputs: ExportInput[]): ExportResult | Promise<ExportResult>;
}

/** A question with the number it carries in the printed material ("Question 3"). */
export interface NumberedQuestion {
  question: Question;
  number: number;
}

/** Every question in print order (parts, then the lesson's exit ticket), numbered from 1. */
export function questionsOf(document: MaterialDocument): NumberedQuestion[] {
  return numberedQuestions(document).map((question, i) => ({ question, number: i + 1 }));
}

/** Tabs, newlines and runs of spaces become one space: for formats with one line per field. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Shortens text to at most `max` characters at a word boundary, ending with "…". Returns the
 * text itself when it fits.
 */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = text.slice(0, max - 1);
  const cut = room.lastIndexOf(' ');
  const head = (cut > max * 0.6 ? room.slice(0, cut) : room).replace(/[\s,;:.-]+$/, '');
  return `${head}…`;
}

/**
 * Spreadsheet and CSV cells that start with = + - @ (or a tab or carriage return) are formulas
 * to Excel, LibreOffice and Google Sheets ("CSV injection"). A leading apostrophe is the
 * convention those programs (and OWASP) use to say "this is text"; it is not shown in the cell.
 */
export function spreadsheetText(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** "Question 3 (short answer)" for the notes of what a format left out. */
export function describe(entry: NumberedQuestion): string {
  const kind = entry.question.kind.replace('_', ' ');
  return `Question ${entry.number} (${kind})`;
}

/** The ASCII-safe base of a file name from the material's name: "frankenstein-letter-1-quiz". */
export function fileBase(name: string, type: string): string {
  const slug = slugify(name).slice(0, 80).replace(/-+$/, '') || 'material';
  const kind = slugify(type);
  return kind && !slug.endsWith(kind) ? `${slug}-${kind}` : slug;
}

/** XML text and attribute escaping (the five predefined entities; control characters dropped). */
export function xmlEscape(text: string): string {
  return (
    text
      // XML 1.0 has no way to write these control characters: they are dropped.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}

/** The answer choices of a multiple choice or true/false question, with the correct index. */
export function choicesOf(question: Question): { choices: string[]; correct: number } | null {
  if (question.kind === 'multiple_choice')
    return { choices: question.choices, correct: question.answerIndex };
  if (question.kind === 'true_false')
    return { choices: ['True', 'False'], correct: question.answer ? 0 : 1 };
  return null;
}

/** The evidence of a question as one feedback line ("Evidence: “…”"), for formats with feedback. */
export function feedbackOf(question: Question): string {
  if (question.kind === 'true_false' && !question.answer && question.correction)
    return `The text says: “${oneLine(question.correction)}”`;
  if (question.kind === 'matching')
    return `Evidence: ${question.pairs.map((p) => `“${oneLine(p.evidence)}”`).join(' ')}`;
  return `Evidence: “${oneLine(question.evidence)}”`;
}
