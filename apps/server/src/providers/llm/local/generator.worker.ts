// The generation thread: runs the built-in generator (NLP analysis, question writers and the
// quality gate, all CPU-bound) for threaded-generator.ts, so a generation never holds up the
// server's event loop. One request at a time; the main thread ends this thread on a time-out.
import { parentPort } from 'node:worker_threads';
import type { MaterialDocument } from '@chapterwise/shared';
import { createInProcessLocalGenerator } from '../index.js';
import { GenerationError, type GenerationRequest } from '../types.js';

export interface GenerateMessage {
  id: number;
  request: GenerationRequest;
}

export type GenerateReply =
  | { id: number; ok: true; document: MaterialDocument; ms: number }
  | { id: number; ok: false; message: string; transient: boolean; known: boolean };

const port = parentPort;
if (!port) throw new Error('generator.worker.ts must run as a worker thread');
const generator = createInProcessLocalGenerator();

port.on('message', async ({ id, request }: GenerateMessage) => {
  const started = performance.now();
  let reply: GenerateReply;
  try {
    const document = await generator.generate(request);
    reply = { id, ok: true, document, ms: performance.now() - started };
  } catch (error) {
    reply =
      error instanceof GenerationError
        ? { id, ok: false, message: error.message, transient: error.transient, known: true }
        : {
            id,
            ok: false,
            message: error instanceof Error ? (error.stack ?? error.message) : String(error),
            transient: false,
            known: false,
          };
  }
  port.postMessage(reply);
});

port.postMessage({ ready: true });
