import type { Config } from '../../config.js';
import { FolderTextSource } from './folder.js';
import { HttpTextSource } from './http.js';
import { TextFetchError, type TextSource } from './texts.js';

export { FolderTextSource } from './folder.js';
export { HttpTextSource } from './http.js';
export { RateLimiter } from './limiter.js';
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

/** The text source chosen once from `GUTENBERG_MIRROR` (a URL, a folder, or `off`). */
export function createTextSource(config: Config): TextSource {
  const t = config.texts;
  switch (t.mirror.kind) {
    case 'off':
      return new DisabledTextSource();
    case 'folder':
      return new FolderTextSource(t.mirror.dir, t.maxBytes);
    case 'http':
      return new HttpTextSource({
        baseUrl: t.mirror.baseUrl,
        userAgent: t.userAgent,
        ratePerSecond: t.ratePerSecond,
        concurrency: t.concurrency,
        timeoutMs: t.timeoutMs,
        maxBytes: t.maxBytes,
      });
  }
}
