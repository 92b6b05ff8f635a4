import type { Worker } from 'node:worker_threads';
import type { MaterialDocument } from '@chapterwise/shared';
import { startWorkerThread } from '../../../lib/worker-thread.js';
import { GenerationError, type GenerationRequest, type MaterialGenerator } from '../types.js';
import type { GenerateMessage, GenerateReply } from './generator.worker.js';

/** Heap one generation thread may use (the language models take about 150 MB). */
export const GENERATOR_HEAP_MB = 1024;
/** Generations that may wait for a thread; more are refused as busy (and retried by the queue). */
const MAX_WAITING = 200;

interface Task {
  id: number;
  request: GenerationRequest;
  resolve(document: MaterialDocument): void;
  reject(error: unknown): void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

interface Slot {
  thread: Worker;
  task: Task | null;
}

/**
 * The built-in generator in worker threads: the NLP and the quality gate are CPU work (a few
 * hundred milliseconds on a long chapter), so they run off the main thread and HTTP answers
 * never wait for a generation. `threads` warm threads (loading the language models once each)
 * take generations in arrival order. A generation past its time limit (the caller's signal)
 * ends its thread; a thread that dies fails its generation as transient (the job is retried);
 * the next generation gets a fresh thread.
 */
export class ThreadedLocalGenerator implements MaterialGenerator {
  readonly engine = 'local';
  private readonly slots: Array<Slot | null>;
  private readonly waiting: Task[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    readonly minimumWords: number,
    threads: number,
    private readonly onCrash: (error: unknown) => void = () => undefined,
  ) {
    this.slots = Array.from({ length: Math.max(1, threads) }, () => null);
  }

  /** Starts the threads now, so the first teacher's generation does not pay for loading. */
  warmUp(request: GenerationRequest): void {
    for (let i = 0; i < this.slots.length; i++) {
      this.generate(request).catch(() => undefined);
    }
  }

  generate(request: GenerationRequest, signal?: AbortSignal): Promise<MaterialDocument> {
    return new Promise<MaterialDocument>((resolve, reject) => {
      if (this.closed) {
        reject(new GenerationError('The generator is shutting down.', true));
        return;
      }
      if (signal?.aborted) {
        reject(timedOut());
        return;
      }
      if (this.waiting.length >= MAX_WAITING) {
        reject(
          new GenerationError('The generator is busy; the generation will be tried again.', true),
        );
        return;
      }
      const task: Task = {
        id: this.nextId++,
        request,
        resolve,
        reject,
        signal,
        onAbort: undefined,
      };
      if (signal) {
        task.onAbort = () => this.abort(task);
        signal.addEventListener('abort', task.onAbort, { once: true });
      }
      this.waiting.push(task);
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.waiting.splice(0))
      this.settle(task, new GenerationError('The generator is shutting down.', true));
    await Promise.all(
      this.slots.map(async (slot, index) => {
        if (!slot) return;
        this.slots[index] = null;
        if (slot.task)
          this.settle(slot.task, new GenerationError('The generator is shutting down.', true));
        await slot.thread.terminate();
      }),
    );
  }

  /** Hands waiting generations to idle threads, starting threads as needed. */
  private dispatch(): void {
    for (let index = 0; index < this.slots.length && this.waiting.length > 0; index++) {
      const slot = this.slots[index] ?? this.start(index);
      if (slot.task) continue;
      const task = this.waiting.shift()!;
      slot.task = task;
      const message: GenerateMessage = { id: task.id, request: task.request };
      slot.thread.postMessage(message);
    }
  }

  private start(index: number): Slot {
    const thread = startWorkerThread(import.meta.url, 'generator.worker', {
      resourceLimits: { maxOldGenerationSizeMb: GENERATOR_HEAP_MB },
    });
    thread.unref();
    const slot: Slot = { thread, task: null };
    this.slots[index] = slot;
    thread.on('message', (reply: GenerateReply | { ready: true }) => {
      if (!('id' in reply) || reply.id !== slot.task?.id) return;
      const task = slot.task;
      slot.task = null;
      if (reply.ok) this.settle(task, null, reply.document);
      else if (reply.known) this.settle(task, new GenerationError(reply.message, reply.transient));
      else this.settle(task, new Error(reply.message));
      this.dispatch();
    });
    const lost = (error: unknown) => {
      if (this.slots[index] !== slot) return;
      this.slots[index] = null;
      this.onCrash(error);
      if (slot.task)
        this.settle(
          slot.task,
          new GenerationError(
            'The generator stopped unexpectedly; the generation will be tried again.',
            true,
            {
              cause: error,
            },
          ),
        );
      slot.task = null;
      if (!this.closed) this.dispatch();
    };
    thread.on('error', lost);
    thread.on('exit', (code) => lost(new Error(`generation thread exited with code ${code}`)));
    return slot;
  }

  private abort(task: Task): void {
    const waitingAt = this.waiting.indexOf(task);
    if (waitingAt !== -1) {
      this.waiting.splice(waitingAt, 1);
      this.settle(task, timedOut());
      return;
    }
    const index = this.slots.findIndex((slot) => slot?.task === task);
    const slot = index === -1 ? null : this.slots[index];
    if (!slot) return;
    // A generation cannot be interrupted inside its thread: end the thread, start afresh later.
    this.slots[index] = null;
    slot.task = null;
    void slot.thread.terminate();
    this.settle(task, timedOut());
    this.dispatch();
  }

  private settle(task: Task, error: unknown, document?: MaterialDocument): void {
    if (task.onAbort) task.signal?.removeEventListener('abort', task.onAbort);
    if (error) task.reject(error);
    else task.resolve(document!);
  }
}

function timedOut(): GenerationError {
  return new GenerationError('The generation took too long and was stopped.');
}
