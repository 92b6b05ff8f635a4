import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../../../lib/worker-thread.js';
import { prepareText, type PreparedText } from './prepare.js';
import type { PrepareMessage, PrepareReply } from './prepare.worker.js';

/** Heap of one preparation thread: a 15 MB text (the size cap) splits well within it. */
const THREAD_HEAP_MB = 1024;

/** Cleans, splits and measures a raw PG text (`prepareText`), here or in another thread. */
export interface TextPreparer {
  prepare(
    text: string,
    title: string,
    onStage?: (stage: 'splitting') => void,
  ): Promise<PreparedText>;
  close(): Promise<void>;
}

/** `prepareText` on the calling thread (tests, one-off tools). */
export const inProcessPreparer: TextPreparer = {
  prepare: (text, title, onStage) =>
    Promise.resolve().then(() => prepareText(text, title, onStage)),
  close: () => Promise.resolve(),
};

interface Task {
  id: number;
  message: PrepareMessage;
  onStage: ((stage: 'splitting') => void) | undefined;
  resolve(prepared: PreparedText): void;
  reject(error: unknown): void;
}

interface Slot {
  thread: Worker;
  task: Task | null;
  idleTimer: NodeJS.Timeout | undefined;
}

/**
 * `prepareText` in a pool of worker threads (decision 014): the bulk CLI prepares one text per
 * core while its main thread stores the finished ones; the server prepares on-demand texts
 * without blocking its event loop. Threads start on first use and, given `idleMs`, end after
 * that long without work. A thread that dies fails its text and is replaced on the next one.
 */
export class PreparePool implements TextPreparer {
  private readonly slots: Array<Slot | null>;
  private readonly waiting: Task[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    options: {
      /** Threads at most (default: one per core). */
      threads?: number;
      /** End a thread after this long without a text (default: keep it). */
      idleMs?: number;
    } = {},
  ) {
    this.slots = Array.from(
      { length: Math.max(1, options.threads ?? availableParallelism()) },
      () => null,
    );
    this.idleMs = options.idleMs;
  }

  private readonly idleMs: number | undefined;

  get size(): number {
    return this.slots.length;
  }

  prepare(
    text: string,
    title: string,
    onStage?: (stage: 'splitting') => void,
  ): Promise<PreparedText> {
    return new Promise<PreparedText>((resolve, reject) => {
      if (this.closed) {
        reject(new Error('The text preparation threads are shutting down.'));
        return;
      }
      const id = this.nextId++;
      this.waiting.push({ id, message: { id, text, title }, onStage, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.waiting.splice(0))
      task.reject(new Error('The text preparation threads are shutting down.'));
    await Promise.all(
      this.slots.map(async (slot, index) => {
        if (!slot) return;
        this.slots[index] = null;
        clearTimeout(slot.idleTimer);
        slot.task?.reject(new Error('The text preparation threads are shutting down.'));
        await slot.thread.terminate();
      }),
    );
  }

  private dispatch(): void {
    for (let index = 0; index < this.slots.length && this.waiting.length > 0; index++) {
      const slot = this.slots[index] ?? this.start(index);
      if (slot.task) continue;
      clearTimeout(slot.idleTimer);
      const task = this.waiting.shift()!;
      slot.task = task;
      slot.thread.postMessage(task.message);
    }
  }

  private start(index: number): Slot {
    const thread = startWorkerThread(import.meta.url, 'prepare.worker', {
      resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
    });
    thread.unref();
    const slot: Slot = { thread, task: null, idleTimer: undefined };
    this.slots[index] = slot;
    thread.on('message', (reply: PrepareReply) => {
      const task = slot.task;
      if (!task || reply.id !== task.id) return;
      if ('stage' in reply) {
        task.onStage?.(reply.stage);
        return;
      }
      slot.task = null;
      if (reply.ok) task.resolve(reply.prepared);
      else task.reject(new Error(reply.message));
      if (this.idleMs !== undefined && this.waiting.length === 0) {
        slot.idleTimer = setTimeout(() => {
          if (this.slots[index] !== slot || slot.task) return;
          this.slots[index] = null;
          void slot.thread.terminate();
        }, this.idleMs);
        slot.idleTimer.unref();
      }
      this.dispatch();
    });
    const lost = (error: unknown) => {
      if (this.slots[index] !== slot) return;
      this.slots[index] = null;
      clearTimeout(slot.idleTimer);
      slot.task?.reject(
        new Error('The text preparation thread stopped unexpectedly.', { cause: error }),
      );
      slot.task = null;
      if (!this.closed) this.dispatch();
    };
    thread.on('error', lost);
    thread.on('exit', (code) =>
      lost(new Error(`text preparation thread exited with code ${code}`)),
    );
    return slot;
  }
}
