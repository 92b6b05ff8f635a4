import './zod-setup.js';
import { z } from 'zod';

/*
 * The export formats of a material, named as teachers know them, each with the one-line hint the
 * Export menu shows under it. The server's registry (modules/materials/exports) has one module
 * per id; the web's menu lists them in this order.
 */

export const EXPORT_FORMAT_IDS = [
  'docx',
  'pdf',
  'txt',
  'gift',
  'aiken',
  'qti',
  'blackboard',
  'kahoot',
  'quizlet',
  'blooket',
  'wayground',
  'gimkit',
] as const;
export type ExportFormatId = (typeof EXPORT_FORMAT_IDS)[number];

export interface ExportFormatInfo {
  id: ExportFormatId;
  /** The name on the menu, as teachers know the tool. */
  label: string;
  /** The file's extension (without the dot). */
  extension: string;
  /** One line: where to import it, and what it leaves out. */
  hint: string;
  /** Whether the format has a student copy without the answers (Word, PDF, text). */
  copies: boolean;
  /** The group of the menu it is listed under. */
  group: 'print' | 'lms' | 'games';
}

export const EXPORT_FORMATS: readonly ExportFormatInfo[] = [
  {
    id: 'docx',
    label: 'Word',
    extension: 'docx',
    hint: 'Opens in Word or Google Docs; the teacher copy ends with the answer key and its evidence.',
    copies: true,
    group: 'print',
  },
  {
    id: 'pdf',
    label: 'PDF',
    extension: 'pdf',
    hint: 'Ready to print or share; the teacher copy ends with the answer key and its evidence.',
    copies: true,
    group: 'print',
  },
  {
    id: 'txt',
    label: 'Raw text',
    extension: 'txt',
    hint: 'Plain text to paste anywhere.',
    copies: true,
    group: 'print',
  },
  {
    id: 'gift',
    label: 'Moodle (GIFT)',
    extension: 'txt',
    hint: 'Moodle: Question bank → Import → GIFT format. Every question kind; vocabulary is left out.',
    copies: false,
    group: 'lms',
  },
  {
    id: 'aiken',
    label: 'Moodle and others (Aiken)',
    extension: 'txt',
    hint: 'Moodle: Question bank → Import → Aiken format. Multiple choice and true/false only; other questions are left out.',
    copies: false,
    group: 'lms',
  },
  {
    id: 'qti',
    label: 'Canvas / Blackboard / Brightspace (QTI)',
    extension: 'zip',
    hint: 'Canvas: Settings → Import Course Content → QTI .zip file (Blackboard and Brightspace import the same .zip).',
    copies: false,
    group: 'lms',
  },
  {
    id: 'blackboard',
    label: 'Blackboard test upload',
    extension: 'txt',
    hint: 'Blackboard: in a test, Upload Questions → this tab-delimited file.',
    copies: false,
    group: 'lms',
  },
  {
    id: 'kahoot',
    label: 'Kahoot',
    extension: 'xlsx',
    hint: 'Kahoot: Create → Kahoot → Add question → Import spreadsheet. Multiple choice and true/false only, shortened to Kahoot’s limits.',
    copies: false,
    group: 'games',
  },
  {
    id: 'quizlet',
    label: 'Quizlet',
    extension: 'txt',
    hint: 'Quizlet: Create → Import, paste the text (between term and definition: Tab; between cards: New line).',
    copies: false,
    group: 'games',
  },
  {
    id: 'blooket',
    label: 'Blooket',
    extension: 'csv',
    hint: 'Blooket: Create → Spreadsheet Import → upload this CSV. Multiple choice and true/false only.',
    copies: false,
    group: 'games',
  },
  {
    id: 'wayground',
    label: 'Wayground (Quizizz)',
    extension: 'xlsx',
    hint: 'Wayground: Create → Quiz → Import from spreadsheet. Multiple choice and true/false only.',
    copies: false,
    group: 'games',
  },
  {
    id: 'gimkit',
    label: 'Gimkit',
    extension: 'csv',
    hint: 'Gimkit: New Kit → Spreadsheet import → upload this CSV. Multiple choice and true/false only.',
    copies: false,
    group: 'games',
  },
];

/** The information of one format. */
export function exportFormat(id: ExportFormatId): ExportFormatInfo {
  return EXPORT_FORMATS.find((f) => f.id === id)!;
}

/**
 * The response header that lists what an export shortened or left out (URL-encoded lines,
 * joined by newlines before encoding), so the menu can tell the teacher.
 */
export const EXPORT_NOTES_HEADER = 'x-export-notes';

const formatEnum = z.enum(EXPORT_FORMAT_IDS, {
  error: `must be one of ${EXPORT_FORMAT_IDS.join(', ')}`,
});
const copyEnum = z.enum(['teacher', 'student']);

export const ExportQuerySchema = z.object({
  id: z.uuid({ error: 'must be an id' }),
  format: formatEnum.default('docx'),
  /** student: no answer key; teacher (default): the answer key on its own page. */
  copy: copyEnum.default('teacher'),
});

/** `GET /materials/exportset`: a folder in one file (one quiz per material, or a zip). */
export const ExportSetQuerySchema = z.object({
  id: z.uuid({ error: 'must be an id' }),
  format: formatEnum.default('docx'),
  copy: copyEnum.default('teacher'),
});
