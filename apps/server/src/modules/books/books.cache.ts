import { createHash } from 'node:crypto';

/** A serialised answer, ready to send as it is. */
export interface CachedAnswer {
  body: Buffer;
  etag: string;
}

/**
 * Answers of the catalogue calls, kept in memory. The catalogue changes only when an import
 * finishes, so entries stay valid until the catalogue version moves: then everything goes.
 * Least recently used entries are dropped beyond `maxEntries` (search terms are unbounded).
 */
export class CatalogueCache {
  private readonly entries = new Map<string, CachedAnswer>();
  private readonly pending = new Map<string, Promise<CachedAnswer>>();
  /** Answers by the request's raw URL, for the hot path that skips validation (see routes). */
  private readonly byUrl = new Map<string, CachedAnswer>();
  private version = -1;

  constructor(private readonly maxEntries = 2000) {}

  /**
   * Forgets everything when the version differs from the one the entries were made for;
   * true when it did (after the first version read).
   */
  setVersion(version: number): boolean {
    if (version === this.version) return false;
    const first = this.version === -1;
    this.version = version;
    this.clear();
    return !first;
  }

  clear(): void {
    this.entries.clear();
    this.pending.clear();
    this.byUrl.clear();
  }

  /** Forgets the answers whose key passes `test` (one book's page and chapters). */
  forget(test: (key: string) => boolean): void {
    for (const key of [...this.entries.keys()]) if (test(key)) this.entries.delete(key);
    for (const key of [...this.pending.keys()]) if (test(key)) this.pending.delete(key);
  }

  /** The answer already sent for exactly this URL (path and query string), if any. */
  getByUrl(url: string): CachedAnswer | undefined {
    return this.byUrl.get(url);
  }

  /** Remembers the answer of a URL that passed validation (bounded like the main cache). */
  setByUrl(url: string, answer: CachedAnswer): void {
    if (url.length > 512) return;
    if (this.byUrl.size >= this.maxEntries) this.byUrl.delete(this.byUrl.keys().next().value!);
    this.byUrl.set(url, answer);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The cached answer for `key`, or the one `produce` makes (made once however many ask). */
  async get(key: string, produce: () => Promise<unknown>): Promise<CachedAnswer> {
    const hit = this.entries.get(key);
    if (hit) {
      // Re-insert: Map keeps insertion order, so the oldest key is the least recently used.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    let waiting = this.pending.get(key);
    if (!waiting) {
      const version = this.version;
      waiting = produce().then((value) => {
        const answer = serialise(value);
        this.pending.delete(key);
        if (version === this.version) {
          this.entries.set(key, answer);
          if (this.entries.size > this.maxEntries) {
            this.entries.delete(this.entries.keys().next().value!);
          }
        }
        return answer;
      });
      waiting.catch(() => this.pending.delete(key));
      this.pending.set(key, waiting);
    }
    return waiting;
  }
}

export function serialise(value: unknown): CachedAnswer {
  const body = Buffer.from(JSON.stringify(value), 'utf8');
  const etag = `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
  return { body, etag };
}

/** True when an If-None-Match header names this ETag (or `*`). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
