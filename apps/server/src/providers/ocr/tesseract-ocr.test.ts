import { readFileSync } from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { TesseractOcr } from './tesseract-ocr.js';

const fixture = (name: string) =>
  readFileSync(path.join(import.meta.dirname, '../../modules/imports/fixtures', name));
const logger = Fastify({ logger: false }).log;

describe('Tesseract OCR', () => {
  it('stops an image that runs past its time limit, then reads with fresh engines', async () => {
    const ocr = new TesseractOcr({ logger, timeoutMs: 1, engines: 1 });
    try {
      await expect(ocr.transcribe(fixture('scan.png'))).rejects.toMatchObject({
        status: 400,
        message:
          'Reading this image took longer than 1 second, so it was stopped. Try a smaller or clearer photo.',
      });
    } finally {
      await ocr.close();
    }
    const patient = new TesseractOcr({ logger, engines: 1 });
    try {
      const result = await patient.transcribe(fixture('scan.png'));
      expect(result.text).toContain('One half is the same as two quarters.');
      expect(result.confidence).toBeGreaterThan(80);
      // Kept warm: the second image does not start an engine again.
      const again = await patient.transcribe(fixture('scan.png'));
      expect(again.text).toBe(result.text);
    } finally {
      await patient.close();
    }
  }, 60_000);
});
