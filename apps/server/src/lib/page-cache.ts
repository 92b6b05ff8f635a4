import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { ChangeTopic } from './changes.js';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** One rendered page, kept with its compressed copies (made once, not per request). */
export interface PageEntry {
  status: number;
  /** Headers of the page itself (content type, CSP…), without caching headers. */
  headers: Record<string, string>;
  body: Buffer;
  br: Buffer;
  gzip: Buffer;
  /** Strong ETags, one per representation (identity, br, gzip). */
  etag: string;
  etagBr: string;
  etagGzip: string;
  /** What the page shows (see `tagsOfApiCall`): a change of one of these drops the entry. */
  tags: ReadonlySet<string>;
  expiresAt: number;
  bytes: number;
}

export interface PageCacheOptions {
  /** Most entries kept (least recently used go first). */
  maxEntries?: number;
  /** Most bytes kept, all copies counted. */
  maxBytes?: number;
  /** Longest an entry lives even when nothing says it changed. */
  ttlMs?: number;
}

/**
 * Rendered guest pages in memory, keyed by path + query (decision 022). Entries are dropped
 * by topic (`invalidate`), at a tag's expiry (`expireTagAt`: a scheduled blog post becomes
 * visible), after `ttlMs`, or least recently used beyond the bounds. A render that began before
 * an invalidation is not stored (it may show the old data).
 */
export class PageCache {
  private readonly entries = new Map<string, PageEntry>();
  private readonly pending = new Map<string, Promise<PageEntry>>();
  private readonly tagExpiry = new Map<string, number>();
  private bytes = 0;
  private epoch = 0;
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly ttlMs: number;
  hits = 0;
  misses = 0;

  constructor(options: PageCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 2000;
    this.maxBytes = options.maxBytes ?? 128 * 1024 * 1024;
    this.ttlMs = options.ttlMs ?? 10 * 60_000;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entry of `key` when it is still valid. */
  get(key: string, now = Date.now()): PageEntry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.remove(key, entry);
      return undefined;
    }
    return entry;
  }

  /**
   * The entry of `key`, or the one `render` makes (one render however many ask at once).
   * A page `render` marks not `storable` (not a 200, a cookie…) is answered, not kept.
   */
  async getOrRender(
    key: string,
    render: () => Promise<Omit<PageEntry, 'expiresAt' | 'bytes'> & { storable: boolean }>,
  ): Promise<PageEntry> {
    const hit = this.get(key);
    if (hit) {
      this.hits++;
      return hit;
    }
    this.misses++;
    let waiting = this.pending.get(key);
    if (!waiting) {
      const epoch = this.epoch;
      waiting = render()
        .then(({ storable, ...made }) => {
          let expiresAt = Date.now() + this.ttlMs;
          for (const tag of made.tags) {
            const at = this.tagExpiry.get(tag);
            if (at !== undefined && at < expiresAt) expiresAt = at;
          }
          const entry: PageEntry = {
            ...made,
            expiresAt,
            bytes: made.body.length + made.br.length + made.gzip.length,
          };
          // Something changed while it rendered: serve it this once, do not keep it.
          if (storable && epoch === this.epoch) this.store(key, entry);
          return entry;
        })
        .finally(() => this.pending.delete(key));
      this.pending.set(key, waiting);
    }
    return waiting;
  }

  /** Drops the entries that show `topic` (`*`: all of them). */
  invalidate(topic: ChangeTopic | string): number {
    this.epoch++;
    if (topic === '*') {
      const count = this.entries.size;
      this.entries.clear();
      this.bytes = 0;
      return count;
    }
    let count = 0;
    for (const [key, entry] of this.entries) {
      if (entry.tags.has(topic)) {
        this.remove(key, entry);
        count++;
      }
    }
    return count;
  }

  /**
   * Entries with `tag` live until `at` at the latest (null: no limit): what they show changes
   * then by itself (a scheduled blog post).
   */
  expireTagAt(tag: string, at: Date | null): void {
    if (!at) {
      this.tagExpiry.delete(tag);
      return;
    }
    const time = at.getTime();
    this.tagExpiry.set(tag, time);
    for (const entry of this.entries.values()) {
      if (entry.tags.has(tag) && entry.expiresAt > time) entry.expiresAt = time;
    }
  }

  private store(key: string, entry: PageEntry): void {
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    if (entry.bytes > this.maxBytes / 4) return;
    this.entries.set(key, entry);
    this.bytes += entry.bytes;
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const [oldestKey, oldest] = this.entries.entries().next().value!;
      this.remove(oldestKey, oldest);
    }
  }

  private remove(key: string, entry: PageEntry): void {
    if (this.entries.get(key) !== entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}

/** Strong ETag of bytes. */
export function strongEtag(body: Buffer | string, suffix = ''): string {
  return `"${createHash('sha1').update(body).digest('base64url')}${suffix}"`;
}

/**
 * Brotli quality of the cached copies. 6, not 9: on our pages (17–33 KB of HTML) 9 took about
 * a hundred times as long (130–535 ms a page against 1–5 ms, on this 2-core machine under load)
 * for 0.1–0.5% fewer bytes, and a cold render waits for it (decision 022).
 */
export const PAGE_BROTLI_QUALITY = 6;
/** Gzip level of the cached copies: 9 made the same bytes as 6, slower. */
export const PAGE_GZIP_LEVEL = 6;

/** The compressed copies and ETags of a page body (brotli and gzip in libuv's threads). */
export async function compressedCopies(body: Buffer) {
  const [br, gz] = await Promise.all([
    brotli(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: PAGE_BROTLI_QUALITY,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gzip(body, { level: PAGE_GZIP_LEVEL }),
  ]);
  const etag = strongEtag(body);
  return {
    br,
    gzip: gz,
    etag,
    etagBr: `${etag.slice(0, -1)}-br"`,
    etagGzip: `${etag.slice(0, -1)}-gz"`,
  };
}

/** True when an If-None-Match header names one of `etags` (or is `*`). */
export function etagMatches(header: string | undefined, ...etags: string[]): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  for (const part of header.split(',')) {
    const tag = part.trim().replace(/^W\//, '');
    if (etags.includes(tag)) return true;
  }
  return false;
}

/**
 * What a page shows, from the API calls its loaders made: the topics whose change drops it
 * (see ChangeTopic). Calls this does not know tag the page `other` (dropped by `*` and by the
 * entry's time to live only).
 */
export function tagsOfApiCall(url: URL): string[] {
  const path = url.pathname.replace(/^\/api\/v1/, '');
  const param = (name: string) => url.searchParams.get(name) ?? '';
  if (path.startsWith('/blog/')) return ['blog'];
  if (path === '/getgutenbergbook' || path === '/getgutenbergbookchapter') {
    return ['catalogue', `book:${param('url')}`];
  }
  if (path === '/materials/getavailablechaptermaterials') return [`book:${param('bookUrl')}`];
  if (path.startsWith('/getgutenberg') || path === '/getbooksubjects') return ['catalogue'];
  if (path.startsWith('/users/getuserinfobyusername/')) return ['users'];
  return ['other'];
}
