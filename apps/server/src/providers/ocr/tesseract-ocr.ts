import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { AppError, badRequest } from '../../lib/errors.js';
import { describeSeconds, SerialQueue } from '../../lib/serial-queue.js';
import type { OcrProvider, OcrResult } from './ocr-provider.js';
import { prepareImageForOcr, splitIntoStrips, toPgm } from './prepare-image.js';

/** How long one image may take to read before the engines are restarted. */
export const OCR_TIMEOUT_MS = 30_000;

/**
 * Engines reading one page side by side, a strip each. Recognition is the cost (about 4 s of
 * CPU for a full printed page here), so two engines on two cores halve the wait.
 */
export const OCR_ENGINES = Math.max(1, Math.min(2, availableParallelism()));

/** The English model shipped in @tesseract.js-data/eng ("best_int": accurate, integer-quantised). */
const LANG_PATH = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json')),
  '4.0.0_best_int',
);

/**
 * Tesseract.js, its engines created once and kept warm (loading the model takes about a
 * second), reading one image at a time. Nothing is downloaded: the model comes from the npm
 * package, and nothing is cached to disk.
 */
export class TesseractOcr implements OcrProvider {
  private readonly queue = new SerialQueue(
    8,
    'The server is busy reading other images. Please try again in a minute.',
  );
  private engines: Promise<Worker[]> | null = null;
  private closed = false;
  private readonly logger: FastifyBaseLogger;
  private readonly timeoutMs: number;
  private readonly engineCount: number;

  constructor(options: { logger: FastifyBaseLogger; timeoutMs?: number; engines?: number }) {
    this.logger = options.logger;
    this.timeoutMs = options.timeoutMs ?? OCR_TIMEOUT_MS;
    this.engineCount = options.engines ?? OCR_ENGINES;
  }

  warmUp(): void {
    if (!this.closed) void this.startEngines().catch(() => undefined);
  }

  private startEngines(): Promise<Worker[]> {
    if (this.engines) return this.engines;
    const starting = Promise.all(
      Array.from({ length: this.engineCount }, async () => {
        const worker = await createWorker('eng', OEM.LSTM_ONLY, {
          langPath: LANG_PATH,
          cacheMethod: 'none',
          gzip: true,
          errorHandler: (error: unknown) => this.logger.error({ err: error }, 'OCR engine error'),
        });
        // debug_file: Tesseract's notes ("Estimating resolution as 374") go nowhere, not to stderr.
        await worker.setParameters({ tessedit_pageseg_mode: PSM.AUTO, debug_file: '/dev/null' });
        return worker;
      }),
    );
    this.engines = starting;
    starting.catch(() => {
      if (this.engines === starting) this.engines = null;
    });
    return starting;
  }

  private async stopEngines(): Promise<void> {
    const engines = this.engines;
    this.engines = null;
    const workers = await engines?.catch(() => null);
    await Promise.all((workers ?? []).map((worker) => worker.terminate().catch(() => undefined)));
  }

  async transcribe(image: Buffer): Promise<OcrResult> {
    return this.queue.run(async () => {
      if (this.closed) throw new AppError('UNAVAILABLE', 'The server is shutting down.');
      // Inside the queue: a decoded photo can take ~100 MB, so only one is held at a time.
      const prepared = await prepareImageForOcr(image);
      const workers = await this.startEngines();
      const strips = splitIntoStrips(prepared, workers.length);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          reject(
            badRequest(
              `Reading this image took longer than ${describeSeconds(this.timeoutMs)}, so it was stopped. Try a smaller or clearer photo.`,
            ),
          );
        }, this.timeoutMs);
      });
      try {
        const results = await Promise.race([
          Promise.all(
            strips.map((strip, i) => workers[i]!.recognize(toPgm(strip), {}, { text: true })),
          ),
          timeout,
        ]);
        const texts = results.map((result) => result.data.text);
        const letters = texts.reduce((sum, text) => sum + text.length, 0);
        const confidence = letters
          ? results.reduce((sum, r) => sum + r.data.confidence * r.data.text.length, 0) / letters
          : 0;
        return { text: texts.join('\n'), confidence };
      } catch (error) {
        // Whatever happened, an engine may be mid-job: start fresh ones next time.
        await this.stopEngines();
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
    await this.stopEngines();
  }
}
