import type { FastifyBaseLogger } from 'fastify';
import { TesseractOcr } from './tesseract-ocr.js';

export interface OcrResult {
  text: string;
  /** The engine's mean word confidence, 0-100. */
  confidence: number;
}

/** Reads printed text from a photo or scan (JPEG or PNG bytes). */
export interface OcrProvider {
  /** Throws AppError: 400 damaged or too small, 413 too many pixels, 503 busy. */
  transcribe(image: Buffer): Promise<OcrResult>;
  /** Loads the engine ahead of the first request. */
  warmUp(): void;
  close(): Promise<void>;
}

/** The OCR the server uses: Tesseract (English, data from the npm package, fully offline). */
export function createOcrProvider(logger: FastifyBaseLogger): OcrProvider {
  return new TesseractOcr({ logger });
}
