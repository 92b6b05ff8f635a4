import type { ExportFormatId } from '@chapterwise/shared';
import { fileBase, type ExportCopy, type ExportInput, type Exporter } from './common.js';
import { toZip, uniqueNames } from './files.js';
import { aiken } from './formats/aiken.js';
import { blackboard } from './formats/blackboard.js';
import { blooket, gimkit, kahoot, wayground } from './formats/games.js';
import { gift } from './formats/gift.js';
import { pdf } from './formats/pdf.js';
import { qti } from './formats/qti.js';
import { quizlet } from './formats/quizlet.js';
import { text, word } from './formats/word.js';

export type { ExportCopy, ExportInput, ExportResult, Exporter } from './common.js';

/**
 * The export formats, one module each. The web's menu lists them from
 * `EXPORT_FORMATS` (shared), which names the same ids.
 */
export const EXPORTERS: Partial<Record<ExportFormatId, Exporter>> = {
  docx: word,
  pdf,
  txt: text,
  gift,
  aiken,
  qti,
  blackboard,
  kahoot,
  quizlet,
  blooket,
  wayground,
  gimkit,
};

/** What tells two formats with the same extension apart in a file name. */
const NAME_TAGS: Partial<Record<ExportFormatId, string>> = {
  gift: 'moodle-gift',
  aiken: 'aiken',
  qti: 'qti',
  blackboard: 'blackboard',
  kahoot: 'kahoot',
  quizlet: 'quizlet',
  blooket: 'blooket',
  wayground: 'wayground',
  gimkit: 'gimkit',
};

/**
 * A file name teachers recognise, from the material's name in safe characters:
 * "frankenstein-chapter-5-quiz.docx", "…-student.pdf", "…-kahoot.xlsx".
 */
export function exportFileName(
  name: string,
  type: string,
  format: ExportFormatId,
  copy: ExportCopy,
  extension = EXPORTERS[format]?.extension ?? format,
): string {
  const exporter = EXPORTERS[format];
  const tag = NAME_TAGS[format];
  const student = copy === 'student' && exporter?.copies ? '-student' : '';
  return `${fileBase(name, type)}${tag ? `-${tag}` : ''}${student}.${extension}`;
}

export interface ExportFile {
  fileName: string;
  contentType: string;
  body: Buffer | string;
  /** What the format shortened or left out (empty when everything went in). */
  notes: string[];
}

export interface ExportMaterial {
  name: string;
  type: string;
  input: ExportInput;
}

/** The formats this server can make (some modules land later than others). */
export function exporterOf(format: ExportFormatId): Exporter | undefined {
  return EXPORTERS[format];
}

/** One material in one format. */
export async function exportOne(
  format: ExportFormatId,
  material: ExportMaterial,
): Promise<ExportFile> {
  const exporter = EXPORTERS[format];
  if (!exporter) throw new Error(`no exporter for ${format}`);
  const result = await exporter.build(material.input);
  return {
    fileName: exportFileName(material.name, material.type, format, material.input.copy),
    contentType: exporter.contentType,
    body: result.body,
    notes: result.notes,
  };
}

/**
 * A folder in one file: one quiz per material in one file where the format holds several
 * (GIFT categories, Aiken, Quizlet cards, QTI assessments), otherwise a zip of one file each.
 */
export async function exportMany(
  format: ExportFormatId,
  folderName: string,
  materials: ExportMaterial[],
  copy: ExportCopy,
): Promise<ExportFile> {
  const exporter = EXPORTERS[format];
  if (!exporter) throw new Error(`no exporter for ${format}`);
  const inputs = materials.map((m) => ({ ...m.input, name: m.name, copy }));
  if (exporter.buildMany) {
    const result = await exporter.buildMany(inputs);
    return {
      fileName: exportFileName(folderName, 'folder', format, copy),
      contentType: exporter.contentType,
      body: result.body,
      notes: result.notes,
    };
  }
  const files = [];
  const notes: string[] = [];
  for (const material of materials) {
    const file = await exportOne(format, { ...material, input: { ...material.input, copy } });
    files.push(file);
    notes.push(...file.notes.map((n) => `${material.name}: ${n}`));
  }
  const names = uniqueNames(files.map((f) => f.fileName));
  return {
    fileName: exportFileName(folderName, 'folder', format, copy, 'zip'),
    contentType: 'application/zip',
    body: toZip(files.map((f, i) => ({ name: names[i]!, body: f.body }))),
    notes,
  };
}
