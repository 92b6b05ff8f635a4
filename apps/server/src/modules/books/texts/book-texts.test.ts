import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BookAnswer, BookTextAnswer, ChapterAnswer } from '@chapterwise/shared';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { BOOKS_SEED_DIR } from '../books.seed.js';
import { queryRows } from '../books.repository.js';
import { importCatalogue } from '../import/importer.js';
import type { ChaptersChanged } from './book-texts.service.js';

/** Frankenstein as PG serves it; the test mirror serves it for the other Frankenstein editions. */
const FRANKENSTEIN = gunzipSync(readFileSync(path.join(BOOKS_SEED_DIR, 'texts', 'pg84.txt.gz')));
const EDITIONS = [20038, 41445, 42324];
const OTHERS = [1, 2, 3, 4, 5];

let server: Server;
let mirror: string;
let answer: (id: number, req: IncomingMessage, res: ServerResponse) => void;
const requests: number[] = [];

const serveFrankenstein = (_id: number, _req: IncomingMessage, res: ServerResponse) =>
  res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(FRANKENSTEIN);

async function startMirror() {
  server = createServer((req, res) => {
    const id = Number(/^\/cache\/epub\/(\d+)\/pg\d+\.txt$/.exec(req.url ?? '')?.[1]);
    requests.push(id);
    answer(id, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  mirror = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function importBooks(t: TestApp) {
  const report = await importCatalogue(t.app.db, {
    source: BOOKS_SEED_DIR,
    languages: ['en'],
    onlyIds: new Set([84, ...EDITIONS, ...OTHERS]),
  });
  expect(report.status).toBe('imported');
  await t.app.books.refreshVersion();
}

async function urlOf(t: TestApp, id: number): Promise<string> {
  const [row] = await queryRows<{ url: string }>(
    t.app.db,
    sql`SELECT url FROM books WHERE id = ${id}`,
  );
  return row!.url;
}

describe('texts on demand (in-process fetch)', () => {
  let t: TestApp;
  const changed: ChaptersChanged[] = [];

  beforeAll(async () => {
    await startMirror();
    t = await createTestApp({ GUTENBERG_MIRROR: mirror, GUTENBERG_RATE: '50' });
    await importBooks(t);
    t.app.bookTexts.events.on('chapters-changed', (event) => changed.push(event));
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  beforeEach(() => {
    requests.length = 0;
    answer = serveFrankenstein;
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });
  const textState = async (url: string) =>
    (
      await get(`/api/v1/getgutenbergbooktext?url=${encodeURIComponent(url)}`)
    ).json<BookTextAnswer>().data;

  it('fetches, cleans and splits a book without chapters when it is opened, once', async () => {
    const url = await urlOf(t, 20038);
    const before = (await get(`/api/v1/getgutenbergbook?url=${url}`)).json<BookAnswer>();
    expect(before.data.chapters).toEqual([]);

    // Five readers open it at once: one fetch.
    const states = await Promise.all([1, 2, 3, 4, 5].map(() => textState(url)));
    for (const state of states) expect(['queued', 'running']).toContain(state.status);
    await t.app.bookTexts.idle();
    expect(requests).toEqual([20038]);

    const ready = await textState(url);
    expect(ready).toMatchObject({ status: 'ready', progress: 1, error: null });
    expect(ready.chapterCount).toBe(28);
    expect(ready.firstChapterUrl).toBe('letter-1');
    expect(changed).toContainEqual({ bookId: 20038, url });

    // The cached book answer was forgotten: the chapters show without a restart.
    const book = (await get(`/api/v1/getgutenbergbook?url=${url}`)).json<BookAnswer>().data;
    expect(book.chapters.map((c) => c.title).slice(0, 5)).toEqual([
      'Letter 1',
      'Letter 2',
      'Letter 3',
      'Letter 4',
      'Chapter 1',
    ]);
    expect(book.wordCount).toBeGreaterThan(70_000);
    expect(book.readingMinutes).toBeGreaterThan(300);
    expect(book.readingGrade).toBeGreaterThan(5);
    const chapter = (
      await get(`/api/v1/getgutenbergbookchapter?url=${url}&chapterUrl=chapter-1`)
    ).json<ChapterAnswer>().data.chapter;
    expect(chapter.text).toMatch(/^I am by birth a Genevese/);
    expect(chapter.text).not.toMatch(/Project Gutenberg/i);
    expect(chapter.wordCount).toBeGreaterThan(1000);
    expect(chapter.readingGrade).toBeGreaterThan(0);

    // Opening it again fetches nothing.
    expect((await textState(url)).status).toBe('ready');
    expect(requests).toEqual([20038]);
  });

  it('keeps a failure with its time, does not ask again on page views, and tries again on request', async () => {
    answer = (_id, _req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<html>');
    const url = await urlOf(t, 41445);
    await textState(url);
    await t.app.bookTexts.idle();
    const failed = await textState(url);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({
      code: 'not_found',
      message: 'Project Gutenberg has no plain text of this book.',
    });
    expect(Date.now() - Date.parse(failed.error!.at)).toBeLessThan(60_000);
    expect(Date.parse(failed.retryAfter!)).toBeGreaterThan(Date.parse(failed.error!.at));

    // Crawlers and readers opening the page again: no new fetch.
    await Promise.all([1, 2, 3].map(() => textState(url)));
    await t.app.bookTexts.idle();
    expect(requests).toEqual([41445]);

    // "Try again" right away is too soon; a little later it fetches again.
    answer = serveFrankenstein;
    const tryAgain = () =>
      t.app.inject({ method: 'POST', url: '/api/v1/fetchgutenbergbooktext', payload: { url } });
    expect((await tryAgain()).json<BookTextAnswer>().data.status).toBe('failed');
    await t.app.db.execute(
      sql`UPDATE book_texts SET failed_at = now() - interval '1 minute' WHERE book_id = 41445`,
    );
    const retried = (await tryAgain()).json<BookTextAnswer>().data;
    expect(['queued', 'running']).toContain(retried.status);
    await t.app.bookTexts.idle();
    expect((await textState(url)).status).toBe('ready');
    expect(requests).toEqual([41445, 41445]);
  });

  it('says in plain words when the mirror answers with a web page', async () => {
    answer = (_id, _req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html></html>');
    const url = await urlOf(t, 42324);
    await textState(url);
    await t.app.bookTexts.idle();
    expect((await textState(url)).error?.message).toBe(
      'Project Gutenberg answered with something that is not the book’s text.',
    );
  });

  it('answers 404 for an unknown book and 400 for bad input, fetching nothing', async () => {
    expect((await get('/api/v1/getgutenbergbooktext?url=no-such-book')).statusCode).toBe(404);
    expect((await get('/api/v1/getgutenbergbooktext')).statusCode).toBe(400);
    const post = await t.app.inject({
      method: 'POST',
      url: '/api/v1/fetchgutenbergbooktext',
      payload: { url: 'x'.repeat(500) },
    });
    expect(post.statusCode).toBe(400);
    expect(requests).toEqual([]);
  });

  it('answers ready for a bundled book without fetching', async () => {
    const state = await textState(await urlOf(t, 84));
    expect(state).toMatchObject({ status: 'ready', firstChapterUrl: 'letter-1' });
    expect(requests).toEqual([]);
  });
});

describe('texts on demand through the pg-boss queue', () => {
  let t: TestApp;

  beforeAll(async () => {
    await startMirror();
    answer = serveFrankenstein;
    t = await createTestApp({
      GUTENBERG_MIRROR: mirror,
      GUTENBERG_RATE: '50',
      JOBS_ENABLED: 'true',
    });
    await importBooks(t);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('prepares the chapters in a job and reports progress until ready', async () => {
    requests.length = 0;
    const url = await urlOf(t, 20038);
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const state = (
        await t.app.inject({ method: 'GET', url: `/api/v1/getgutenbergbooktext?url=${url}` })
      ).json<BookTextAnswer>().data;
      seen.add(state.status);
      if (state.status === 'ready') break;
      expect(state.status).not.toBe('failed');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen.has('ready')).toBe(true);
    expect(requests).toEqual([20038]);
  }, 60_000);
});

describe('with GUTENBERG_MIRROR=off', () => {
  it('says fetching is unavailable and asks nothing', async () => {
    const t = await createTestApp({ GUTENBERG_MIRROR: 'off' });
    try {
      await importBooks(t);
      const state = (
        await t.app.inject({
          method: 'GET',
          url: `/api/v1/getgutenbergbooktext?url=${await urlOf(t, 20038)}`,
        })
      ).json<BookTextAnswer>().data;
      expect(state.status).toBe('unavailable');
    } finally {
      await t.close();
    }
  }, 120_000);
});
