import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { ExecuteSql } from '../db/client.js';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

const INCREMENT = `
INSERT INTO rate_limits AS r (key, count, expires_at)
VALUES ($1, 1, now() + make_interval(secs => $2::double precision / 1000))
ON CONFLICT (key) DO UPDATE SET
  count = CASE WHEN r.expires_at <= now() THEN 1 ELSE r.count + 1 END,
  expires_at = CASE WHEN r.expires_at <= now() THEN excluded.expires_at ELSE r.expires_at END
RETURNING count, greatest(0, ceil(extract(epoch FROM (expires_at - now())) * 1000))::bigint AS ttl`;

const READ = `
SELECT count, greatest(0, ceil(extract(epoch FROM (expires_at - now())) * 1000))::bigint AS ttl
FROM rate_limits WHERE key = $1 AND expires_at > now()`;

/**
 * A store for @fastify/rate-limit that counts in PostgreSQL (`rate_limits`), so every instance
 * shares one budget (decision 023). One atomic upsert per counted request: a window starts
 * with the first request and ends `timeWindow` later. Route limits get their own key prefix
 * (method and path), as the in-memory store keeps one map per route.
 */
export function postgresRateLimitStore(executeSql: ExecuteSql): FastifyRateLimitStoreCtor {
  return class PostgresRateLimitStore {
    readonly prefix: string;

    constructor(prefix?: unknown) {
      this.prefix = typeof prefix === 'string' ? prefix : '';
    }

    incr(key: string, callback: Callback, timeWindow: number): void {
      executeSql(INCREMENT, [this.prefix + key, timeWindow]).then(
        ({ rows }) => {
          const row = rows[0] as { count: number | string; ttl: number | string };
          callback(null, { current: Number(row.count), ttl: Number(row.ttl) });
        },
        (error: Error) => callback(error),
      );
    }

    read(key: string, callback: Callback): void {
      executeSql(READ, [this.prefix + key]).then(
        ({ rows }) => {
          const row = rows[0] as { count: number | string; ttl: number | string } | undefined;
          callback(
            null,
            row ? { current: Number(row.count), ttl: Number(row.ttl) } : { current: 0, ttl: 0 },
          );
        },
        (error: Error) => callback(error),
      );
    }

    child(routeOptions: object) {
      const route =
        (routeOptions as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo ??
        {};
      const method = Array.isArray(route.method) ? route.method.join(',') : (route.method ?? '');
      return new PostgresRateLimitStore(route.url ? `${method} ${route.url}|` : this.prefix);
    }
  };
}

/** Deletes counters whose window ended more than an hour ago (any instance may run it). */
export async function pruneRateLimits(executeSql: ExecuteSql): Promise<void> {
  await executeSql(`DELETE FROM rate_limits WHERE expires_at < now() - interval '1 hour'`, []);
}
