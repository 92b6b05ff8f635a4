import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, badRequest, payloadTooLarge, unsupportedMediaType } from '../../lib/errors.js';
import { describeSeconds, SerialQueue } from '../../lib/serial-queue.js';
import type { ExtractedText, ExtractLimits, ParsableFormat } from './extract-text.js';
import type { ParseReply, ParseRequest } from './office.worker.js';
import type { OfficeFormat, OfficeProvider } from './office-provider.js';
import type { SofficeConverter } from './soffice.js';

/** How long one document may take to parse before its thread is ended. */
export const PARSE_TIMEOUT_MS = 20_000;
/** Heap the parsing thread may use; past it the thread dies and the file gets a 413. */
export const PARSE_HEAP_MB = 384;
/** What the parser may inflate from one archive, counted on the bytes it really produces. */
export const PARSE_LIMITS: ExtractLimits = {
  maxZipEntries: 4000,
  maxUncompressedBytes: 100 * 1024 * 1024,
};

const runningFromSource = import.meta.url.endsWith('.ts');

function startParseThread(): Worker {
  const entry = new URL(`./office.worker.${runningFromSource ? 'ts' : 'js'}`, import.meta.url);
  const resourceLimits = { maxOldGenerationSizeMb: PARSE_HEAP_MB, maxYoungGenerationSizeMb: 32 };
  if (!runningFromSource) return new Worker(entry, { resourceLimits });
  // From TypeScript source (tests, `npm run dev`), the thread loads its entry through tsx;
  // the built server runs the compiled .js directly.
  const tsxApi = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  return new Worker(
    `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`,
    { eval: true, resourceLimits },
  );
}

interface Job {
  id: number;
  /** The thread parsing it: events of an older, ended thread must not touch this job. */
  thread: Worker;
  resolve(result: ExtractedText): void;
  reject(error: unknown): void;
  timer: NodeJS.Timeout;
}

/**
 * Parses documents in one long-lived worker thread (kept warm: loading the parsers costs more
 * than parsing a typical file), one at a time. A parse that runs past its time limit, or a
 * thread that runs out of memory, ends that thread; the next file gets a fresh one.
 */
export class WorkerOfficeProvider implements OfficeProvider {
  private readonly queue = new SerialQueue(
    16,
    'The server is busy reading other files. Please try again in a minute.',
  );
  private thread: Worker | null = null;
  private job: Job | null = null;
  private nextId = 1;
  private closed = false;
  private readonly soffice: SofficeConverter | null;
  private readonly logger: FastifyBaseLogger;
  private readonly timeoutMs: number;

  constructor(options: {
    soffice: SofficeConverter | null;
    logger: FastifyBaseLogger;
    timeoutMs?: number;
  }) {
    this.soffice = options.soffice;
    this.logger = options.logger;
    this.timeoutMs = options.timeoutMs ?? PARSE_TIMEOUT_MS;
  }

  get convertsLegacyFormats(): boolean {
    return this.soffice !== null;
  }

  warmUp(): void {
    if (!this.closed) this.ensureThread();
  }

  async extract(bytes: Buffer, format: OfficeFormat): Promise<ExtractedText> {
    if (format === 'ppt' || format === 'xls') {
      const kind = format === 'ppt' ? 'PowerPoint 97-2003 (.ppt)' : 'Excel 97-2003 (.xls)';
      const modern = format === 'ppt' ? 'pptx' : 'xlsx';
      if (!this.soffice) {
        throw unsupportedMediaType(
          `${kind} files need LibreOffice on the server, which is not installed here. Save the file as .${modern} and import that instead.`,
        );
      }
      const converted = await this.soffice.convert(bytes, format);
      return this.parse(converted, modern);
    }
    return this.parse(bytes, format);
  }

  private parse(bytes: Buffer, format: ParsableFormat): Promise<ExtractedText> {
    return this.queue.run(
      () =>
        new Promise<ExtractedText>((resolve, reject) => {
          if (this.closed) {
            reject(new AppError('UNAVAILABLE', 'The server is shutting down.'));
            return;
          }
          const thread = this.ensureThread();
          const id = this.nextId++;
          const timer = setTimeout(() => {
            this.failJob(
              thread,
              badRequest(
                `Reading this file took longer than ${describeSeconds(this.timeoutMs)}, so it was stopped. It may be damaged or unusually complex: try saving it again, or split it into smaller files.`,
              ),
            );
            this.endThread();
          }, this.timeoutMs);
          this.job = { id, thread, resolve, reject, timer };
          // A copy the thread can own: the request's buffer may share memory with others.
          const copy = new Uint8Array(bytes);
          const request: ParseRequest = { id, format, bytes: copy, limits: PARSE_LIMITS };
          thread.postMessage(request, [copy.buffer]);
        }),
    );
  }

  private ensureThread(): Worker {
    if (this.thread) return this.thread;
    const thread = startParseThread();
    thread.unref();
    thread.on('message', (reply: ParseReply | { ready: true }) => {
      if (!('id' in reply) || reply.id !== this.job?.id) return;
      const job = this.job;
      this.job = null;
      clearTimeout(job.timer);
      if (reply.ok) {
        job.resolve({ text: reply.text, pages: reply.pages });
      } else if (reply.status === 413) {
        job.reject(payloadTooLarge(reply.message));
      } else if (reply.status === 400) {
        job.reject(badRequest(reply.message));
      } else {
        this.logger.error({ detail: reply.message }, 'document parser failed');
        job.reject(
          badRequest('This file could not be read. It may be damaged; try saving it again.'),
        );
      }
    });
    thread.on('error', (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        this.failJob(
          thread,
          payloadTooLarge(
            'This file needs more memory to read than the server allows for one document. Try splitting it into smaller files.',
          ),
        );
      } else {
        this.logger.error({ err: error }, 'document parsing thread crashed');
        this.failJob(
          thread,
          badRequest('This file could not be read. It may be damaged; try saving it again.'),
        );
      }
    });
    thread.on('exit', () => {
      if (this.thread === thread) this.thread = null;
      this.failJob(
        thread,
        badRequest('This file could not be read. It may be damaged; try saving it again.'),
      );
    });
    this.thread = thread;
    return thread;
  }

  private failJob(thread: Worker | null, error: AppError): void {
    const job = this.job;
    if (!job || (thread && job.thread !== thread)) return;
    this.job = null;
    clearTimeout(job.timer);
    job.reject(error);
  }

  private endThread(): void {
    const thread = this.thread;
    this.thread = null;
    void thread?.terminate();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.failJob(null, new AppError('UNAVAILABLE', 'The server is shutting down.'));
    const thread = this.thread;
    this.thread = null;
    await thread?.terminate();
    await this.soffice?.close();
  }
}
