// The parsing thread: reads one document at a time, sent by worker-office-provider.ts. Kept
// apart from the main thread so a slow or hostile file cannot stall the server; the main
// thread ends this thread when a parse runs past its time limit or memory cap.
import { parentPort } from 'node:worker_threads';
import {
  ExtractError,
  extractText,
  type ExtractLimits,
  type ParsableFormat,
} from './extract-text.js';

export interface ParseRequest {
  id: number;
  format: ParsableFormat;
  bytes: Uint8Array;
  limits: ExtractLimits;
}

export type ParseReply =
  | { id: number; ok: true; text: string; pages?: string[][] }
  | { id: number; ok: false; status: 400 | 413 | 500; message: string };

const port = parentPort;
if (!port) throw new Error('office.worker.ts must run as a worker thread');

port.on('message', async (request: ParseRequest) => {
  let reply: ParseReply;
  try {
    const bytes = Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.bytes.length);
    const result = await extractText(bytes, request.format, request.limits);
    reply = { id: request.id, ok: true, text: result.text, pages: result.pages };
  } catch (error) {
    reply =
      error instanceof ExtractError
        ? { id: request.id, ok: false, status: error.status, message: error.message }
        : { id: request.id, ok: false, status: 500, message: String(error) };
  }
  port.postMessage(reply);
});

port.postMessage({ ready: true });
