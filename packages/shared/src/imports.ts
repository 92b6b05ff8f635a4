import './zod-setup.js';
import { z } from 'zod';
import { REFERENCE_TEXT_MAX_CHARS } from './materials.js';

/** Largest file the import accepts, before base64. */
export const IMPORT_MAX_FILE_BYTES = 15 * 1024 * 1024;
/** Largest upload one import request may carry, before base64. */
export const IMPORT_MAX_REQUEST_BYTES = 40 * 1024 * 1024;
/** Most pixels an image may have (about 8000 × 4000): larger photos are refused before decoding. */
export const IMPORT_MAX_IMAGE_PIXELS = 32_000_000;
/** Smallest image side that can hold readable text. */
export const IMPORT_MIN_IMAGE_SIDE = 32;

/** Extensions the file picker offers, by how the server reads them. */
export const IMPORT_IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png'] as const;
export const IMPORT_DOCUMENT_EXTENSIONS = [
  'docx',
  'doc',
  'pptx',
  'ppt',
  'xlsx',
  'xls',
  'pdf',
  'odt',
  'odp',
  'ods',
] as const;

/** The `accept` attribute of the file input: extensions plus their MIME types. */
export const IMPORT_ACCEPT = [
  ...IMPORT_IMAGE_EXTENSIONS.map((ext) => `.${ext}`),
  ...IMPORT_DOCUMENT_EXTENSIONS.map((ext) => `.${ext}`),
  'image/jpeg',
  'image/png',
  'application/pdf',
  'application/msword',
  'application/vnd.ms-powerpoint',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.presentation',
  'application/vnd.oasis.opendocument.spreadsheet',
].join(',');

/** Which endpoint reads a file, judged from its name and type (the server re-checks the bytes). */
export function importEndpointFor(file: { name: string; type?: string }): 'image' | 'document' {
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  if ((IMPORT_IMAGE_EXTENSIONS as readonly string[]).includes(ext)) return 'image';
  if (file.type === 'image/jpeg' || file.type === 'image/png') return 'image';
  return 'document';
}

/** A byte count for people: "512 KB", "14.3 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
}

/**
 * A base64 string, or a data URL (`data:image/png;base64,...`) as browsers make it. Empty is
 * allowed here so that an empty file gets the import's own message, not a validation error.
 */
const Base64Field = z.string();

export const TranscribeImageBodySchema = z.object({ image: Base64Field });
export type TranscribeImageBody = z.infer<typeof TranscribeImageBodySchema>;

export const ParseOfficeBodySchema = z.object({
  file: Base64Field,
  fileName: z.string().max(255).optional(),
});
export type ParseOfficeBody = z.infer<typeof ParseOfficeBodySchema>;

/**
 * What both import calls answer: the text, whether it was cut at REFERENCE_TEXT_MAX_CHARS,
 * and a message for the teacher when there is something to say (it was cut, a part was skipped).
 */
export const ImportAnswerSchema = z.object({
  wasSuccessful: z.boolean(),
  text: z.string(),
  truncated: z.boolean(),
  message: z.string().optional(),
});
export type ImportAnswer = z.infer<typeof ImportAnswerSchema>;

/** The message shown when imported text was cut at the reference-text limit. */
export function truncatedMessage(limit = REFERENCE_TEXT_MAX_CHARS): string {
  return `The text was longer than ${limit.toLocaleString('en-US')} characters, the most a reference text can hold, so only the beginning was kept.`;
}

/** The short heading each imported file's text sits under in the reference text. */
export function formatImportHeading(fileName: string): string {
  return `=== ${fileName} ===`;
}
