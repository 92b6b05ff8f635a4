// A text preparation thread (prepare-pool.ts): cleans, splits and measures raw PG texts off
// the main thread, one at a time, so a bulk run uses every core and a server's event loop
// never waits for a 1 MB split.
import { parentPort } from 'node:worker_threads';
import { prepareText, type PreparedText } from './prepare.js';

export interface PrepareMessage {
  id: number;
  text: string;
  title: string;
}

export type PrepareReply =
  | { id: number; stage: 'splitting' }
  | { id: number; ok: true; prepared: PreparedText }
  | { id: number; ok: false; message: string };

const port = parentPort;
if (!port) throw new Error('prepare.worker.ts must run as a worker thread');

port.on('message', ({ id, text, title }: PrepareMessage) => {
  let reply: PrepareReply;
  try {
    const prepared = prepareText(text, title, (stage) => port.postMessage({ id, stage }));
    reply = { id, ok: true, prepared };
  } catch (error) {
    reply = {
      id,
      ok: false,
      message: error instanceof Error ? (error.stack ?? error.message) : String(error),
    };
  }
  port.postMessage(reply);
});
