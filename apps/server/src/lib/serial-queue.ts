import { AppError } from './errors.js';

/**
 * Runs tasks one at a time, in arrival order, with a bound on how many may wait. Used where
 * one expensive resource (an OCR engine, a parsing thread, LibreOffice) must not be asked to do
 * two things at once; the bound turns a flood into quick 503 answers instead of a queue that
 * holds every caller's upload in memory.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private pending = 0;

  constructor(
    private readonly maxWaiting: number,
    private readonly busyMessage: string,
  ) {}

  /** How many tasks are running or waiting. */
  get size(): number {
    return this.pending;
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    if (this.pending > this.maxWaiting) {
      return Promise.reject(new AppError('UNAVAILABLE', this.busyMessage));
    }
    this.pending += 1;
    const result = this.tail.then(task);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result.finally(() => {
      this.pending -= 1;
    });
  }
}

/** "1 second", "20 seconds": a time limit as the messages state it. */
export function describeSeconds(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
}
