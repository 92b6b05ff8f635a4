import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BOOKS_SEED_DIR } from '../../modules/books/books.seed.js';
import { CHAPTER_EVAL_DIR } from '../../modules/books/text/chapter-eval.js';
import { loadConfig } from '../../config.js';
import { openDatabase, type Database } from '../../db/client.js';
import { createTestDatabase } from '../../test/helpers.js';
import {
  createTextSource,
  FolderTextSource,
  HttpTextSource,
  RateLimiter,
  SharedRateLimiter,
  TextFetchError,
  type TextSource,
} from './index.js';

/** Real PG texts from the sample catalogue, exactly as PG serves them. */
const FRANKENSTEIN = gunzipSync(readFileSync(path.join(BOOKS_SEED_DIR, 'texts', 'pg84.txt.gz')));
const ALICE = gunzipSync(readFileSync(path.join(BOOKS_SEED_DIR, 'texts', 'pg11.txt.gz')));

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A local mirror: each test sets how it answers. Every request is recorded. */
let server: Server;
let other: Server;
let base: string;
let otherBase: string;
let handler: Handler;
const requests: Array<{ url: string; at: number; userAgent: string | undefined }> = [];

function listen(s: Server): Promise<string> {
  return new Promise((resolve) =>
    s.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(s.address() as AddressInfo).port}`),
    ),
  );
}

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push({ url: req.url!, at: Date.now(), userAgent: req.headers['user-agent'] });
    handler(req, res);
  });
  other = createServer((req, res) => {
    requests.push({ url: `other${req.url}`, at: Date.now(), userAgent: undefined });
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(ALICE);
  });
  base = await listen(server);
  otherBase = (await listen(other)).replace('127.0.0.1', 'localhost');
});

afterAll(async () => {
  server.closeAllConnections();
  other.closeAllConnections();
  await new Promise((r) => server.close(r));
  await new Promise((r) => other.close(r));
});

beforeEach(() => {
  requests.length = 0;
  handler = (req, res) => {
    if (req.url === '/cache/epub/84/pg84.txt') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(FRANKENSTEIN);
    } else {
      res
        .writeHead(404, { 'content-type': 'text/html' })
        .end('<html><body>Not found</body></html>');
    }
  };
});

function source(options: Partial<ConstructorParameters<typeof HttpTextSource>[0]> = {}) {
  return new HttpTextSource({
    baseUrl: base,
    userAgent: 'Chapterwise-test/1 (+http://localhost)',
    ratePerSecond: 100,
    concurrency: 2,
    timeoutMs: 2000,
    maxBytes: 15 * 1024 * 1024,
    retries: 3,
    retryBaseMs: 20,
    ...options,
  });
}

async function failure(promise: Promise<unknown>): Promise<TextFetchError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(TextFetchError);
    return error as TextFetchError;
  }
  throw new Error('expected the fetch to fail');
}

describe('HttpTextSource against a local mirror', () => {
  it('fetches a real text from {base}/cache/epub/{id}/pg{id}.txt with our User-Agent', async () => {
    const progress: number[] = [];
    const got = await source().fetchText(84, { onProgress: (received) => progress.push(received) });
    expect(got.text).toBe(FRANKENSTEIN.toString('utf8'));
    expect(got.text).toContain('*** START OF THE PROJECT GUTENBERG EBOOK');
    expect(got.bytes).toBe(FRANKENSTEIN.length);
    expect(requests.map((r) => r.url)).toEqual(['/cache/epub/84/pg84.txt']);
    expect(requests[0]!.userAgent).toBe('Chapterwise-test/1 (+http://localhost)');
    expect(progress.at(-1)).toBe(FRANKENSTEIN.length);
  });

  it('brings every real PG text of the repository through intact, in chunks', async () => {
    // The 34 samples and the 37 chapter-evaluation texts, as PG serves them, in 64 kB writes.
    const dirs = [path.join(BOOKS_SEED_DIR, 'texts'), CHAPTER_EVAL_DIR];
    const texts = new Map<number, Buffer>();
    for (const dir of dirs) {
      for (const f of readdirSync(dir).filter((f) => /^pg\d+\.txt\.gz$/.test(f))) {
        texts.set(Number(f.replace(/\D/g, '')), gunzipSync(readFileSync(path.join(dir, f))));
      }
    }
    handler = (req, res) => {
      const body = texts.get(Number(/pg(\d+)\.txt$/.exec(req.url!)?.[1]));
      if (!body) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      for (let at = 0; at < body.length; at += 65_536) res.write(body.subarray(at, at + 65_536));
      res.end();
    };
    expect(texts.size).toBeGreaterThanOrEqual(70);
    const s = source({ ratePerSecond: 1000, concurrency: 4 });
    for (const [id, body] of texts) {
      const got = await s.fetchText(id);
      expect(got.bytes, `pg${id}`).toBe(body.length);
      // The byte-order mark some files start with is not part of the text.
      expect(got.text, `pg${id}`).toBe(body.toString('utf8').replace(/^\uFEFF/, ''));
    }
  });

  it('gives up on a slow answer after retrying, as a timeout', async () => {
    handler = (_req, res) => {
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('late'), 1500);
    };
    const error = await failure(source({ timeoutMs: 200, retries: 1 }).fetchText(84));
    expect(error.code).toBe('timeout');
    expect(requests).toHaveLength(2);
  });

  it('waits and retries after a 429, then succeeds', async () => {
    let calls = 0;
    handler = (_req, res) => {
      calls++;
      if (calls === 1) {
        res.writeHead(429, { 'retry-after': '1', 'content-type': 'text/plain' }).end('slow down');
      } else {
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(FRANKENSTEIN);
      }
    };
    const got = await source().fetchText(84);
    expect(got.text).toContain('Frankenstein');
    expect(requests).toHaveLength(2);
    // Retry-After: 1 second was honoured.
    expect(requests[1]!.at - requests[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('retries a 503 and a 500 with backoff', async () => {
    let calls = 0;
    handler = (_req, res) => {
      calls++;
      if (calls <= 2) res.writeHead(calls === 1 ? 503 : 500).end();
      else res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(FRANKENSTEIN);
    };
    expect((await source().fetchText(84)).bytes).toBe(FRANKENSTEIN.length);
    expect(requests).toHaveLength(3);
  });

  it('reports a 404 as not found, without retrying', async () => {
    const error = await failure(source().fetchText(99999));
    expect(error.code).toBe('not_found');
    expect(requests).toHaveLength(1);
  });

  it('refuses an HTML error page, even one sent as text/plain', async () => {
    handler = (_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!DOCTYPE html><html><body>Service unavailable</body></html>');
    expect((await failure(source().fetchText(84))).code).toBe('not_text');
    handler = (_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end('<!DOCTYPE html><html><head><title>Error</title></head></html>');
    expect((await failure(source().fetchText(84))).code).toBe('not_text');
  });

  it('stops reading a 20 MB body at the size cap, announced or not', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    handler = (req, res) => {
      const headers: Record<string, string | number> = { 'content-type': 'text/plain' };
      if (req.url!.includes('/84/')) headers['content-length'] = 20 * chunk.length;
      res.writeHead(200, headers);
      let sent = 0;
      const more = () => {
        while (sent < 20) {
          sent++;
          if (!res.write(chunk)) return res.once('drain', more);
        }
        res.end();
      };
      more();
    };
    expect((await failure(source().fetchText(84))).code).toBe('too_large');
    expect((await failure(source().fetchText(11))).code).toBe('too_large');
  });

  it('does not follow a redirect to another host, and follows one on the same host', async () => {
    handler = (req, res) => {
      if (req.url === '/cache/epub/84/pg84.txt') {
        res.writeHead(302, { location: `${otherBase}/cache/epub/84/pg84.txt` }).end();
      } else if (req.url === '/cache/epub/11/pg11.txt') {
        res.writeHead(301, { location: '/files/11/11-0.txt' }).end();
      } else {
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(ALICE);
      }
    };
    const error = await failure(source().fetchText(84));
    expect(error.code).toBe('bad_redirect');
    expect(requests.some((r) => r.url.startsWith('other'))).toBe(false);
    const alice = await source().fetchText(11);
    expect(alice.text).toContain('Alice');
    expect(alice.source).toBe(`${base}/files/11/11-0.txt`);
  });

  it('refuses text that is not UTF-8 unless the server names its charset', async () => {
    const latin1 = Buffer.from('Caf\xe9 au lait, ' + 'word '.repeat(50), 'latin1');
    handler = (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(latin1);
    expect((await failure(source().fetchText(84))).code).toBe('bad_encoding');
    handler = (_req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain; charset=ISO-8859-1' }).end(latin1);
    expect((await source().fetchText(84)).text.startsWith('Café au lait')).toBe(true);
  });

  it('reports a mirror that is down as offline', async () => {
    const down = source({ baseUrl: 'http://127.0.0.1:9', retries: 1 });
    expect((await failure(down.fetchText(84))).code).toBe('offline');
  });

  it('only ever asks for an integer ebook number under the base path', async () => {
    const s = source({ baseUrl: `${base}/mirror/` });
    for (const id of [0, -1, 1.5, NaN, 1e12]) {
      expect((await failure(s.fetchText(id))).code).toBe('not_found');
    }
    expect(requests).toEqual([]);
    await failure(s.fetchText(84));
    expect(requests.map((r) => r.url)).toEqual(['/mirror/cache/epub/84/pg84.txt']);
  });

  it('keeps to the rate and to two requests at once', async () => {
    let open = 0;
    let most = 0;
    handler = (_req, res) => {
      open++;
      most = Math.max(most, open);
      setTimeout(() => {
        open--;
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(ALICE);
      }, 100);
    };
    const s = source({ ratePerSecond: 10, concurrency: 2 });
    const started = performance.now();
    await Promise.all([1, 2, 3, 4, 5].map(() => s.fetchText(11)));
    expect(most).toBe(2);
    // Five starts at 10 a second cannot all begin in less than 0.4 s. (Gaps between the
    // server's arrival times are not checked: on a busy machine two requests sent 100 ms
    // apart can be read in one turn of the event loop.)
    expect(requests).toHaveLength(5);
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
  });
});

describe('RateLimiter', () => {
  it('spaces starts by the interval of the rate', async () => {
    const limiter = new RateLimiter(20, 5);
    const starts: number[] = [];
    await Promise.all(
      [1, 2, 3, 4].map(() => limiter.run(async () => void starts.push(Date.now()))),
    );
    expect(starts.at(-1)! - starts[0]!).toBeGreaterThanOrEqual(140);
  });
});

describe('SharedRateLimiter: one rate for every process of a database', () => {
  let first: Database;
  let second: Database;
  beforeAll(async () => {
    first = await createTestDatabase();
    // On PostgreSQL a second pool, as another instance has; PGlite has one process.
    second =
      first.kind === 'postgres'
        ? await openDatabase({ databaseUrl: first.connectionString, poolSize: 2 })
        : first;
  }, 60_000);
  afterAll(async () => {
    if (second !== first) await second?.close();
    await first?.close();
  });

  const shared = (db: Database, key: string, leaseMs?: number) =>
    new SharedRateLimiter(db.executeSql, {
      key,
      ratePerSecond: 5,
      concurrency: 2,
      pollMs: 20,
      ...(leaseMs ? { leaseMs } : {}),
    });

  it('keeps two instances together to the rate and to two requests at once', async () => {
    let open = 0;
    let most = 0;
    handler = (_req, res) => {
      open++;
      most = Math.max(most, open);
      setTimeout(() => {
        open--;
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(ALICE);
      }, 150);
    };
    // Each instance alone would allow 20 a second and two at once: four at once together.
    const instances = [first, second].map((db) =>
      source({ ratePerSecond: 20, concurrency: 2, shared: shared(db, 'mirror-a') }),
    );
    const started = performance.now();
    await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map((i) => instances[i % 2]!.fetchText(11)));
    expect(requests).toHaveLength(8);
    expect(most).toBeLessThanOrEqual(2);
    // Eight starts at 5 a second, whichever instance sends them: at least 1.4 s.
    expect(performance.now() - started).toBeGreaterThanOrEqual(1400);
  }, 30_000);

  it('frees the slots of a process that stopped once their leases end', async () => {
    // Both slots left held by an instance that stopped without giving them back.
    await first.executeSql(
      `INSERT INTO rate_limits (key, count, expires_at) VALUES
        ('texts:mirror-b:slot:0', 7, now() + interval '600 milliseconds'),
        ('texts:mirror-b:slot:1', 3, now() + interval '600 milliseconds')`,
    );
    const started = performance.now();
    let ran = 0;
    await shared(second, 'mirror-b').run(async () => void ran++);
    expect(ran).toBe(1);
    expect(performance.now() - started).toBeGreaterThanOrEqual(450);
    // Given back at the end: the next request does not wait for a lease.
    const again = performance.now();
    await shared(first, 'mirror-b').run(async () => void ran++);
    expect(performance.now() - again).toBeLessThan(450);
  });
});

describe('FolderTextSource and GUTENBERG_MIRROR', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'mirror-'));
    mkdirSync(path.join(dir, 'cache/epub/84'), { recursive: true });
    writeFileSync(path.join(dir, 'cache/epub/84/pg84.txt'), FRANKENSTEIN);
    mkdirSync(path.join(dir, 'cache/epub/7'), { recursive: true });
    writeFileSync(path.join(dir, 'cache/epub/7/pg7.txt'), Buffer.from([0, 1, 2, 3, 0xff, 0xfe]));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a folder laid out like PG’s cache', async () => {
    const folder: TextSource = new FolderTextSource(dir, 15 * 1024 * 1024);
    expect((await folder.fetchText(84)).text).toBe(FRANKENSTEIN.toString('utf8'));
    expect((await failure(folder.fetchText(11))).code).toBe('not_found');
    expect((await failure(folder.fetchText(7))).code).toBe('bad_encoding');
    expect((await failure(new FolderTextSource(dir, 1000).fetchText(84))).code).toBe('too_large');
  });

  it('chooses the source from GUTENBERG_MIRROR, and refuses bad values', async () => {
    const config = (mirror?: string) =>
      loadConfig({ DATA_DIR: dir, ...(mirror ? { GUTENBERG_MIRROR: mirror } : {}) });
    expect(config().texts.mirror).toEqual({ kind: 'http', baseUrl: 'https://www.gutenberg.org' });
    expect(config().texts.ratePerSecond).toBe(1);
    expect(config().texts.concurrency).toBe(2);
    expect(config('http://mirror.local/pg/').texts).toMatchObject({
      mirror: { kind: 'http', baseUrl: 'http://mirror.local/pg' },
      ratePerSecond: 20,
    });
    expect(config(dir).texts.mirror).toEqual({ kind: 'folder', dir });
    expect(createTextSource(config(dir)).description).toBe(`folder ${dir}`);
    const off = createTextSource(config('off'));
    expect((await failure(off.fetchText(84))).code).toBe('disabled');
    expect(() => config('ftp://example.org')).toThrow(/GUTENBERG_MIRROR/);
    expect(() => config('/no/such/folder')).toThrow(/GUTENBERG_MIRROR: no folder/);
    expect(() => config('http://user:pw@example.org')).toThrow(/GUTENBERG_MIRROR/);
  });
});
