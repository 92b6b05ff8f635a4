import {
  CfbFormatError,
  CFB_SIGNATURE,
  detectCfbFormat,
} from '../../providers/office/cfb-inspect.js';
import type { OfficeFormat } from '../../providers/office/office-provider.js';
import {
  checkZipLimits,
  detectZipFormat,
  readZipDirectory,
  ZipFormatError,
  type ZipLimits,
} from '../../providers/office/zip-inspect.js';

/**
 * What a file really is, from its bytes (never its name): an image the OCR reads, a document
 * the office parser reads, or something refused with a reason a teacher can act on.
 */
export type DetectedFile =
  | { kind: 'image'; format: 'jpeg' | 'png' }
  | { kind: 'document'; format: OfficeFormat }
  | { kind: 'unsupported'; label: string; hint?: string }
  | { kind: 'damaged'; label: string }
  | { kind: 'encrypted'; label: string }
  | { kind: 'zip-bomb'; uncompressedBytes: number; ratio?: number }
  | { kind: 'too-many-parts'; label: string };

/** Checked on the archive's declared sizes before anything is inflated. */
export const ZIP_LIMITS: ZipLimits = {
  maxEntries: 4000,
  maxUncompressedBytes: 100 * 1024 * 1024,
  maxRatio: 100,
  ratioAppliesAboveBytes: 10 * 1024 * 1024,
};

const startsWith = (bytes: Buffer, signature: number[] | Buffer, at = 0) =>
  bytes.length >= at + signature.length &&
  [...signature].every((byte, i) => bytes[at + i] === byte);
const ascii = (bytes: Buffer, start: number, end: number) => bytes.toString('latin1', start, end);

const ZIP_LABELS: Record<string, string> = {
  docx: 'a Word document',
  pptx: 'a PowerPoint presentation',
  xlsx: 'an Excel workbook',
  odt: 'an OpenDocument text',
  odp: 'an OpenDocument presentation',
  ods: 'an OpenDocument spreadsheet',
};

function detectZip(bytes: Buffer): DetectedFile {
  let entries;
  try {
    entries = readZipDirectory(bytes, ZIP_LIMITS.maxEntries);
  } catch (error) {
    if (!(error instanceof ZipFormatError)) throw error;
    if (error.reason === 'too-many-entries') return { kind: 'too-many-parts', label: 'This file' };
    return { kind: 'damaged', label: 'This file' };
  }
  let format;
  try {
    format = detectZipFormat(bytes, entries);
  } catch {
    return { kind: 'damaged', label: 'This file' };
  }
  if (format === 'epub') {
    return { kind: 'unsupported', label: 'an EPUB e-book', hint: 'Copy its text instead.' };
  }
  if (!format) return { kind: 'unsupported', label: 'a ZIP archive', hint: 'Unzip it first.' };
  const problem = checkZipLimits(entries, bytes.length, ZIP_LIMITS);
  if (problem?.kind === 'encrypted') {
    return { kind: 'encrypted', label: `This ${ZIP_LABELS[format]!.replace(/^an? /, '')}` };
  }
  if (problem?.kind === 'too-large') {
    return {
      kind: 'zip-bomb',
      uncompressedBytes: problem.uncompressedBytes,
      ratio: problem.uncompressedBytes / Math.max(1, bytes.length),
    };
  }
  if (problem?.kind === 'ratio') {
    return {
      kind: 'zip-bomb',
      uncompressedBytes: problem.uncompressedBytes,
      ratio: problem.ratio,
    };
  }
  return { kind: 'document', format };
}

function detectCfb(bytes: Buffer): DetectedFile {
  let format;
  try {
    format = detectCfbFormat(bytes);
  } catch (error) {
    if (error instanceof CfbFormatError) return { kind: 'damaged', label: 'This file' };
    throw error;
  }
  if (format === 'encrypted-ooxml') return { kind: 'encrypted', label: 'This Office document' };
  if (format === 'encrypted-doc') return { kind: 'encrypted', label: 'This Word document' };
  if (!format) {
    return {
      kind: 'unsupported',
      label: 'an older Microsoft file that is not Word, PowerPoint or Excel',
    };
  }
  return { kind: 'document', format };
}

function looksLikeText(sample: Buffer): boolean {
  if (sample.includes(0)) return false;
  try {
    // stream: a character cut at the end of the sample is not an error.
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** Decides a file's type from its first bytes (and, for archives, their directory). */
export function detectFileType(bytes: Buffer): DetectedFile {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { kind: 'image', format: 'jpeg' };
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return { kind: 'image', format: 'png' };
  }
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) {
    return detectZip(bytes);
  }
  if (startsWith(bytes, CFB_SIGNATURE)) return detectCfb(bytes);
  // PDF readers accept the header anywhere in the first kilobyte.
  const head = ascii(bytes, 0, Math.min(bytes.length, 1024));
  if (head.includes('%PDF-')) return { kind: 'document', format: 'pdf' };

  const convertImage = 'Save it as JPEG or PNG and import that.';
  if (ascii(bytes, 0, 4) === 'GIF8')
    return { kind: 'unsupported', label: 'a GIF image', hint: convertImage };
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') {
    return { kind: 'unsupported', label: 'a WebP image', hint: convertImage };
  }
  if (
    ascii(bytes, 4, 8) === 'ftyp' &&
    /^(heic|heix|hevc|heim|heis|mif1|msf1|avif)/.test(ascii(bytes, 8, 12))
  ) {
    return {
      kind: 'unsupported',
      label: 'a HEIC/AVIF photo',
      hint: 'On an iPhone choose Settings › Camera › Formats › Most Compatible, or export the photo as JPEG.',
    };
  }
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) {
    return { kind: 'unsupported', label: 'a TIFF image', hint: convertImage };
  }
  if (ascii(bytes, 0, 2) === 'BM' && bytes.length > 26) {
    return { kind: 'unsupported', label: 'a BMP image', hint: convertImage };
  }
  if (startsWith(bytes, [0x7f, 0x45, 0x4c, 0x46]) || ascii(bytes, 0, 2) === 'MZ') {
    return { kind: 'unsupported', label: 'a program (an executable file)' };
  }
  if (
    startsWith(bytes, [0xcf, 0xfa, 0xed, 0xfe]) ||
    startsWith(bytes, [0xce, 0xfa, 0xed, 0xfe]) ||
    startsWith(bytes, [0xca, 0xfe, 0xba, 0xbe])
  ) {
    return { kind: 'unsupported', label: 'a program (an executable file)' };
  }
  if (ascii(bytes, 0, 5) === '{\\rtf') {
    return {
      kind: 'unsupported',
      label: 'an RTF document',
      hint: 'Save it as .docx and import that.',
    };
  }
  if (
    startsWith(bytes, [0x1f, 0x8b]) ||
    ascii(bytes, 0, 4) === 'Rar!' ||
    startsWith(bytes, [0x37, 0x7a, 0xbc, 0xaf])
  ) {
    return { kind: 'unsupported', label: 'a compressed archive', hint: 'Unpack it first.' };
  }
  if (looksLikeText(bytes.subarray(0, 4096))) {
    return {
      kind: 'unsupported',
      label: 'a plain text file',
      hint: 'Paste its text into the reference text instead.',
    };
  }
  return { kind: 'unsupported', label: 'a file of an unknown type' };
}
