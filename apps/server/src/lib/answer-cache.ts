/** An answer as its JSON bytes, with the time (ms since the epoch) it stops being true, if any. */
export interface ExpiringAnswer {
  body: Buffer | string;
  expiresAt?: number;
}

/**
 * Answers kept in memory until their module says what they show changed (`clear`), they
 * expire, or they are the least recently used beyond `maxEntries`. Concurrent asks for one key
 * make the answer once; an answer being made when `clear` runs is given to its askers but not
 * kept (it may show what changed).
 */
export class AnswerCache {
  private readonly entries = new Map<string, { body: Buffer | string; expiresAt: number }>();
  private readonly pending = new Map<string, Promise<Buffer | string>>();
  private generation = 0;

  constructor(
    private readonly options: { maxEntries: number; maxAgeMs: number },
    private readonly now: () => number = Date.now,
  ) {}

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.pending.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  async get(key: string, produce: () => Promise<ExpiringAnswer>): Promise<Buffer | string> {
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > this.now()) {
      // Re-inserted: Map keeps insertion order, so the first key is the least recently used.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.body;
    }
    if (hit) this.entries.delete(key);
    const waiting = this.pending.get(key);
    if (waiting) return waiting;
    const generation = this.generation;
    const made = produce().then(({ body, expiresAt }) => {
      if (this.pending.get(key) === made) this.pending.delete(key);
      if (generation === this.generation) {
        const limit = this.now() + this.options.maxAgeMs;
        this.entries.set(key, { body, expiresAt: Math.min(limit, expiresAt ?? limit) });
        if (this.entries.size > this.options.maxEntries) {
          this.entries.delete(this.entries.keys().next().value!);
        }
      }
      return body;
    });
    made.catch(() => {
      if (this.pending.get(key) === made) this.pending.delete(key);
    });
    this.pending.set(key, made);
    return made;
  }
}
