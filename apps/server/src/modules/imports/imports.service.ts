import {
  formatBytes,
  IMPORT_MAX_FILE_BYTES,
  REFERENCE_TEXT_MAX_CHARS,
  truncatedMessage,
  type ImportAnswer,
} from '@chapterwise/shared';
import { badRequest, payloadTooLarge, unsupportedMediaType } from '../../lib/errors.js';
import type { OcrProvider } from '../../providers/ocr/ocr-provider.js';
import type { OfficeProvider } from '../../providers/office/office-provider.js';
import { capText, cleanImportedText } from './clean-text.js';
import { detectFileType, ZIP_LIMITS, type DetectedFile } from './detect-file-type.js';

export interface ImportService {
  /** `POST /materials/transcribeimage`: the printed text of a JPEG or PNG photo or scan. */
  transcribeImage(base64: string): Promise<ImportAnswer>;
  /** `POST /materials/parseoffice`: the text of a document (an image sent here is read by OCR). */
  parseOffice(base64: string, fileName?: string): Promise<ImportAnswer>;
  warmUp(): void;
  close(): Promise<void>;
}

/** Below this mean confidence a short OCR result is noise (a photo of a wall, not of text). */
const MIN_OCR_CONFIDENCE = 35;

const ACCEPTED =
  'JPEG or PNG images, Word (.docx, .doc), PowerPoint (.pptx, .ppt), Excel (.xlsx, .xls), PDF and OpenDocument (.odt, .odp, .ods) files';

const EXTENSION_LABELS: Record<string, string> = {
  docx: 'Word document',
  doc: 'Word document',
  pptx: 'PowerPoint presentation',
  ppt: 'PowerPoint presentation',
  xlsx: 'Excel workbook',
  xls: 'Excel workbook',
  pdf: 'PDF',
  odt: 'OpenDocument text',
  odp: 'OpenDocument presentation',
  ods: 'OpenDocument spreadsheet',
  jpg: 'JPEG image',
  jpeg: 'JPEG image',
  png: 'PNG image',
};

/**
 * Decodes base64 (or a data URL). The characters are checked first because Node's decoder
 * silently skips anything it does not know, which would turn a wrong field into garbage bytes.
 */
export function decodeBase64(value: string, field: string): Buffer {
  const comma = value.startsWith('data:') ? value.indexOf(',') : -1;
  if (value.startsWith('data:') && (comma === -1 || !value.slice(0, comma).endsWith(';base64'))) {
    throw badRequest(`Invalid field "${field}": a data URL must be base64 encoded.`);
  }
  const body = comma === -1 ? value : value.slice(comma + 1);
  if (/[^A-Za-z0-9+/=\s_-]/.test(body)) {
    throw badRequest(`Invalid field "${field}": the file must be sent as base64.`);
  }
  return Buffer.from(body, body.includes('-') || body.includes('_') ? 'base64url' : 'base64');
}

function checkSize(bytes: Buffer): void {
  if (bytes.length === 0) {
    throw badRequest('This file is empty (0 bytes), so there is no text to import.');
  }
  if (bytes.length > IMPORT_MAX_FILE_BYTES) {
    throw payloadTooLarge(
      `This file is ${formatBytes(bytes.length)}; files can be at most ${formatBytes(IMPORT_MAX_FILE_BYTES)} each.`,
    );
  }
}

/** "homework.docx" → "Word document", when the name has an extension we know. */
function claimedType(fileName: string | undefined): string | undefined {
  const ext = fileName?.split('.').pop()?.toLowerCase();
  return ext && fileName?.includes('.') ? EXTENSION_LABELS[ext] : undefined;
}

function refuse(detected: DetectedFile, fileName?: string): never {
  switch (detected.kind) {
    case 'unsupported': {
      const claimed = claimedType(fileName);
      const what = claimed
        ? `This file is named like a ${claimed}, but its content is ${detected.label}.`
        : `This file is ${detected.label}.`;
      throw unsupportedMediaType(
        `${what} Only ${ACCEPTED} can be imported.${detected.hint ? ` ${detected.hint}` : ''}`,
      );
    }
    case 'damaged':
      throw badRequest(
        `${detected.label} is damaged or incomplete (it may have been cut off while downloading), so its text could not be read. Open it in the program that made it, save it again and retry.`,
      );
    case 'encrypted':
      throw badRequest(
        `${detected.label} is password-protected, so its text cannot be read. Remove the password (save an unprotected copy) and import that.`,
      );
    case 'zip-bomb':
      throw payloadTooLarge(
        detected.ratio && detected.ratio > ZIP_LIMITS.maxRatio
          ? `This file would unpack to ${formatBytes(detected.uncompressedBytes)}, ${Math.round(detected.ratio)} times its own size; real documents are never packed that tightly. It looks like a zip bomb, so it was refused.`
          : `This file would unpack to ${formatBytes(detected.uncompressedBytes)}, more than the ${formatBytes(ZIP_LIMITS.maxUncompressedBytes)} a document may unpack to, so it was refused. Split it into smaller files.`,
      );
    case 'too-many-parts':
      throw payloadTooLarge(
        `This file holds more than ${ZIP_LIMITS.maxEntries} parts, more than a real document does, so it was refused.`,
      );
    default:
      throw unsupportedMediaType(`Only ${ACCEPTED} can be imported.`);
  }
}

function answer(text: string): ImportAnswer {
  const capped = capText(text, REFERENCE_TEXT_MAX_CHARS);
  return {
    wasSuccessful: true,
    text: capped.text,
    truncated: capped.truncated,
    ...(capped.truncated ? { message: truncatedMessage() } : {}),
  };
}

/** The import use cases, over the OCR and office providers chosen from config. */
export function createImportService(providers: {
  ocr: OcrProvider;
  office: OfficeProvider;
}): ImportService {
  const { ocr, office } = providers;

  async function readImage(bytes: Buffer): Promise<ImportAnswer> {
    const result = await ocr.transcribe(bytes);
    const text = cleanImportedText(result.text, { reflow: true });
    if (!text || (result.confidence < MIN_OCR_CONFIDENCE && text.length < 40)) {
      throw badRequest(
        'No readable text was found in this image. Use a sharp, well-lit photo taken straight above the page.',
      );
    }
    return answer(text);
  }

  return {
    async transcribeImage(base64) {
      const bytes = decodeBase64(base64, 'image');
      checkSize(bytes);
      const detected = detectFileType(bytes);
      if (detected.kind === 'image') return readImage(bytes);
      if (detected.kind === 'document') {
        throw unsupportedMediaType(
          'This file is a document, not a JPEG or PNG image: import it as a document (parseoffice).',
        );
      }
      refuse(detected);
    },

    async parseOffice(base64, fileName) {
      const bytes = decodeBase64(base64, 'file');
      checkSize(bytes);
      const detected = detectFileType(bytes);
      if (detected.kind === 'image') return readImage(bytes);
      if (detected.kind !== 'document') refuse(detected, fileName);
      const extracted = await office.extract(bytes, detected.format);
      const text = cleanImportedText(extracted.text, {
        pages: extracted.pages,
        reflow: detected.format === 'pdf',
      });
      if (!text) {
        throw badRequest(
          detected.format === 'pdf'
            ? 'No text was found in this PDF. If it is a scan, save its pages as JPEG or PNG images and import those instead.'
            : 'No text was found in this file.',
        );
      }
      return answer(text);
    },

    warmUp() {
      ocr.warmUp();
      office.warmUp();
    },

    async close() {
      await Promise.all([ocr.close(), office.close()]);
    },
  };
}
