import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { AppError, badRequest } from '../../lib/errors.js';
import { SerialQueue } from '../../lib/serial-queue.js';
import type { OcrProvider, OcrResult } from './ocr-provider.js';
import { prepareImageForOcr } from './prepare-image.js';

/** How long one image may take to read before the engine is restarted. */
export const OCR_TIMEOUT_MS = 30_000;

/** The English model shipped in @tesseract.js-data/eng ("best_int": accurate, integer-quantised). */
const LANG_PATH = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json')),
  '4.0.0_best_int',
);

/**
 * Tesseract.js in its own worker thread, created once and kept warm (loading the model takes
 * about a second), reading one image at a time. Nothing is downloaded: the model comes from
 * the npm package and nothing is cached to disk.
 */
export class TesseractOcr implements OcrProvider {
  private readonly queue = new SerialQueue(
    8,
    'The server is busy reading other images. Please try again in a minute.',
  );
  private engine: Promise<Worker> | null = null;
  private closed = false;
  private readonly logger: FastifyBaseLogger;
  private readonly timeoutMs: number;

  constructor(options: { logger: FastifyBaseLogger; timeoutMs?: number }) {
    this.logger = options.logger;
    this.timeoutMs = options.timeoutMs ?? OCR_TIMEOUT_MS;
  }

  warmUp(): void {
    if (!this.closed) void this.startEngine().catch(() => undefined);
  }

  private startEngine(): Promise<Worker> {
    this.engine ??= (async () => {
      const worker = await createWorker('eng', OEM.LSTM_ONLY, {
        langPath: LANG_PATH,
        cacheMethod: 'none',
        gzip: true,
        errorHandler: (error: unknown) => this.logger.error({ err: error }, 'OCR engine error'),
      });
      await worker.setParameters({ tessedit_pageseg_mode: PSM.AUTO });
      return worker;
    })();
    this.engine.catch(() => {
      this.engine = null;
    });
    return this.engine;
  }

  private async restartEngine(): Promise<void> {
    const engine = this.engine;
    this.engine = null;
    const worker = await engine?.catch(() => null);
    await worker?.terminate().catch(() => undefined);
  }

  async transcribe(image: Buffer): Promise<OcrResult> {
    return this.queue.run(async () => {
      if (this.closed) throw new AppError('UNAVAILABLE', 'The server is shutting down.');
      // Inside the queue: a decoded photo can take ~100 MB, so only one is held at a time.
      const prepared = await prepareImageForOcr(image);
      const worker = await this.startEngine();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          reject(
            badRequest(
              `Reading this image took longer than ${Math.round(this.timeoutMs / 1000)} seconds, so it was stopped. Try a smaller or clearer photo.`,
            ),
          );
        }, this.timeoutMs);
      });
      try {
        const result = await Promise.race([worker.recognize(prepared), timeout]);
        return { text: result.data.text, confidence: result.data.confidence };
      } catch (error) {
        // Whatever happened, the engine may be mid-job: start a fresh one next time.
        await this.restartEngine();
        if (error instanceof AppError) throw error;
        this.logger.warn({ err: error }, 'OCR failed');
        throw badRequest('This image could not be read. It may be damaged; try another photo.');
      } finally {
        clearTimeout(timer);
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.restartEngine();
  }
}
