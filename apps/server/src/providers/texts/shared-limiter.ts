import type { ExecuteSql } from '../../db/client.js';

/** Runs tasks within a rate and a number at once (the in-process and the shared limiter). */
export interface Limiter {
  run<T>(task: () => Promise<T>): Promise<T>;
}

export interface SharedLimiterOptions {
  /** What is limited, e.g. the mirror's host: rows `texts:{key}:slot:{n}` and `texts:{key}:next`. */
  key: string;
  ratePerSecond: number;
  concurrency: number;
  /** A slot held by a process that stopped is free again after this long (renewed while held). */
  leaseMs?: number;
  /** How often a full house is asked again. */
  pollMs?: number;
}

// A slot is a lease: taken when free (expired), renewed while the request runs, given back at
// the end. `count` numbers the leases of a slot, so a late release cannot free a newer lease.
const TAKE_SLOT = `
INSERT INTO rate_limits AS r (key, count, expires_at)
VALUES ($1, 1, now() + make_interval(secs => $2::double precision / 1000))
ON CONFLICT (key) DO UPDATE SET count = r.count + 1, expires_at = excluded.expires_at
WHERE r.expires_at <= now()
RETURNING count`;

const RENEW_SLOT = `
UPDATE rate_limits SET expires_at = now() + make_interval(secs => $3::double precision / 1000)
WHERE key = $1 AND count = $2`;

const FREE_SLOT = `UPDATE rate_limits SET expires_at = now() WHERE key = $1 AND count = $2`;

// The next start: `expires_at` holds the earliest time the next request may start. Each
// caller books the later of that and now, moves it one interval on, and waits until its turn.
const BOOK_START = `
INSERT INTO rate_limits AS r (key, count, expires_at)
VALUES ($1, 1, clock_timestamp() + make_interval(secs => $2::double precision / 1000))
ON CONFLICT (key) DO UPDATE SET count = r.count + 1,
  expires_at = greatest(r.expires_at, clock_timestamp())
    + make_interval(secs => $2::double precision / 1000)
RETURNING greatest(0, extract(epoch FROM (expires_at - clock_timestamp())) * 1000 - $2)::float8
  AS wait_ms`;

/**
 * A rate limit and a number of requests at once shared by every process of one database
 * (decision 014): web instances, workers and the bulk CLI together send at most
 * `ratePerSecond` requests a second and `concurrency` at once to a mirror. Rows of
 * `rate_limits` (migration 0011) hold the leases of the slots and the next start time; the
 * database's clock is the only clock. A process that stops holding a slot frees it after
 * `leaseMs`.
 */
export class SharedRateLimiter implements Limiter {
  private readonly intervalMs: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;

  constructor(
    private readonly executeSql: ExecuteSql,
    private readonly options: SharedLimiterOptions,
  ) {
    this.intervalMs = options.ratePerSecond > 0 ? 1000 / options.ratePerSecond : 0;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.pollMs = options.pollMs ?? 250;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    const lease = await this.takeSlot();
    const renew = setInterval(
      () =>
        void this.executeSql(RENEW_SLOT, [lease.key, lease.count, this.leaseMs]).catch(() => {}),
      this.leaseMs / 3,
    );
    renew.unref?.();
    try {
      if (this.intervalMs > 0) {
        const { rows } = await this.executeSql(BOOK_START, [
          `texts:${this.options.key}:next`,
          this.intervalMs,
        ]);
        const wait = Number((rows[0] as { wait_ms: number | string }).wait_ms);
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
      return await task();
    } finally {
      clearInterval(renew);
      await this.executeSql(FREE_SLOT, [lease.key, lease.count]).catch(() => {});
    }
  }

  /** Waits for a free slot (trying them from a random one, so processes spread out). */
  private async takeSlot(): Promise<{ key: string; count: number }> {
    const n = Math.max(1, this.options.concurrency);
    for (;;) {
      const first = Math.floor(Math.random() * n);
      for (let i = 0; i < n; i++) {
        const key = `texts:${this.options.key}:slot:${(first + i) % n}`;
        const { rows } = await this.executeSql(TAKE_SLOT, [key, this.leaseMs]);
        const row = rows[0] as { count: number | string } | undefined;
        if (row) return { key, count: Number(row.count) };
      }
      const pause = this.pollMs * (0.5 + Math.random());
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/** Runs tasks through each limiter in turn (this process's first, then the shared one). */
export function chainLimiters(outer: Limiter, inner: Limiter): Limiter {
  return { run: (task) => outer.run(() => inner.run(task)) };
}
