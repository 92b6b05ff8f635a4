import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { FolderTextSource } from './folder.js';
import { HttpTextSource } from './http.js';
import { SharedRateLimiter } from './shared-limiter.js';
import { TextFetchError, type TextSource } from './texts.js';

export { FolderTextSource } from './folder.js';
export { HttpTextSource } from './http.js';
export { RateLimiter } from './limiter.js';
export { SharedRateLimiter, type Limiter } from './shared-limiter.js';
export * from './texts.js';

/** `GUTENBERG_MIRROR=off`: every fetch fails at once with a plain reason. */
export class DisabledTextSource implements TextSource {
  readonly description = 'off';
  fetchText(): Promise<never> {
    return Promise.reject(
      new TextFetchError('disabled', 'Fetching texts is switched off on this server.'),
    );
  }
}

/**
 * The text source chosen once from `GUTENBERG_MIRROR` (a URL, a folder, or `off`). Given a
 * PostgreSQL database, the rate and the requests at once to an HTTP mirror are shared by
 * every process using it (web instances, workers, the bulk CLI); PGlite has one process.
 */
export function createTextSource(config: Config, database?: Database): TextSource {
  const t = config.texts;
  switch (t.mirror.kind) {
    case 'off':
      return new DisabledTextSource();
    case 'folder':
      return new FolderTextSource(t.mirror.dir, t.maxBytes);
    case 'http': {
      const shared =
        database?.kind === 'postgres'
          ? new SharedRateLimiter(database.executeSql, {
              key: new URL(t.mirror.baseUrl).host,
              ratePerSecond: t.ratePerSecond,
              concurrency: t.concurrency,
              // Longer than a request may take between two renewals.
              leaseMs: Math.max(60_000, t.timeoutMs * 2),
            })
          : undefined;
      return new HttpTextSource({
        baseUrl: t.mirror.baseUrl,
        userAgent: t.userAgent,
        ratePerSecond: t.ratePerSecond,
        concurrency: t.concurrency,
        timeoutMs: t.timeoutMs,
        maxBytes: t.maxBytes,
        ...(shared ? { shared } : {}),
      });
    }
  }
}
