/**
 * At most `concurrency` requests at once and one start every `1 / ratePerSecond` seconds:
 * the politeness PG asks of robots. One limiter per text source, shared by every fetch of
 * this process (the job workers and the bulk CLI alike).
 */
export class RateLimiter {
  private active = 0;
  private nextStart = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly intervalMs: number;

  constructor(
    ratePerSecond: number,
    private readonly concurrency: number,
    private readonly now: () => number = Date.now,
  ) {
    this.intervalMs = ratePerSecond > 0 ? 1000 / ratePerSecond : 0;
  }

  /** Runs `task` when a slot is free and the rate allows it. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }

  private async acquire(): Promise<void> {
    while (this.active >= this.concurrency) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.active++;
    const at = Math.max(this.now(), this.nextStart);
    this.nextStart = at + this.intervalMs;
    const wait = at - this.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}
