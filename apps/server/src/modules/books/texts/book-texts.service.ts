import { EventEmitter } from 'node:events';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { BookTextStage, BookTextState } from '@chapterwise/shared';
import type { Db } from '../../../db/client.js';
import type { JobQueue } from '../../../jobs/queue.js';
import {
  DisabledTextSource,
  TextFetchError,
  type TextSource,
} from '../../../providers/texts/index.js';
import { notFound } from '../../../lib/errors.js';
import { findBookByUrl, queryRows, writeChapters, type BookChapters } from '../books.repository.js';
import { inProcessPreparer, type TextPreparer } from '../text/prepare-pool.js';
import { BatchWriter, type PreparedBook } from './batch-writer.js';

export const BOOK_TEXT_QUEUE = 'book-text';

/** A failure asked for again by a page view only after this long (no fetch storms). */
export const AUTOMATIC_RETRY_MS = 6 * 60 * 60_000;
/** "Try again" is honoured this long after the last failure. */
export const MANUAL_RETRY_MS = 10_000;
/** A fetch that has not moved for this long is taken for dead (its process stopped). */
const STALE_MS = 5 * 60_000;
/** More texts than this waiting: page views queue no more (a crawler walking the catalogue). */
const MAX_QUEUED = 200;
const PROGRESS_WRITE_MS = 300;

/** What the reader is told, by failure code. */
const PLAIN_WORDS: Record<string, string> = {
  disabled: 'Fetching book texts is switched off on this server.',
  not_found: 'Project Gutenberg has no plain text of this book.',
  offline: 'We could not reach Project Gutenberg just now.',
  timeout: 'Project Gutenberg took too long to answer.',
  rate_limited: 'Project Gutenberg asked us to slow down.',
  server_error: 'Project Gutenberg had a problem sending this book.',
  not_text: 'Project Gutenberg answered with something that is not the book’s text.',
  too_large: 'This book’s text is too large for us to prepare.',
  bad_encoding: 'This book’s text is in a form we cannot read.',
  bad_redirect: 'Project Gutenberg sent us to another site, and we did not follow.',
  no_chapters: 'We fetched the text but found nothing to read in it.',
  error: 'Something went wrong while preparing the chapters.',
};

class NoChaptersError extends Error {}

/** How one book of a bulk run ended. */
export type BulkResult =
  { status: 'ready'; chapterCount: number } | { status: 'failed'; code: string; message: string };

export interface ChaptersChanged {
  bookId: number;
  url: string;
}

interface StateRow extends Record<string, unknown> {
  id: number;
  url: string;
  title: string;
  chapter_count: number;
  first_chapter: string | null;
  status: 'queued' | 'running' | 'done' | 'failed' | null;
  stage: BookTextStage | null;
  progress: number | null;
  error_code: string | null;
  error_message: string | null;
  failed_at: string | Date | null;
  updated_at: string | Date | null;
}

/**
 * Texts on demand (decision 014). Opening a book without chapters asks for its text: one row
 * per book in `book_texts` is claimed atomically (so one fetch per book across every
 * instance), then a pg-boss job (singleton per book) downloads, cleans, splits and stores it,
 * writing its stage and progress as it goes. Failures stay with their time: page views do not
 * ask again for hours; "Try again" does at once. `events` emits `chapters-changed` when a
 * book's chapters were stored (caches hook there).
 */
export class BookTextsService {
  readonly events = new EventEmitter<{ 'chapters-changed': [ChaptersChanged] }>();
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly deps: {
      db: Db;
      source: TextSource;
      jobs: JobQueue;
      log: FastifyBaseLogger;
      /** Where texts are cleaned, split and measured (default: this thread). */
      preparer?: TextPreparer;
    },
  ) {
    this.preparer = deps.preparer ?? inProcessPreparer;
  }

  private readonly preparer: TextPreparer;

  get enabled(): boolean {
    return !(this.deps.source instanceof DisabledTextSource);
  }

  /** The state of a book's text, for the book page. */
  async state(bookId: number): Promise<BookTextState | null> {
    const result = await queryRows<StateRow>(
      this.deps.db,
      sql`
      SELECT b.id, b.url, b.title, b.chapter_count,
        (SELECT c.url FROM book_chapters c WHERE c.book_id = b.id ORDER BY c.index LIMIT 1)
          AS first_chapter,
        t.status, t.stage, t.progress, t.error_code, t.error_message, t.failed_at, t.updated_at
      FROM books b LEFT JOIN book_texts t ON t.book_id = b.id
      WHERE b.id = ${bookId}`,
    );
    const row = result[0];
    return row ? this.present(row) : null;
  }

  /** `request` for the book at this url; 404 when there is none. */
  async requestByUrl(url: string, options: { manual?: boolean } = {}): Promise<BookTextState> {
    const book = await findBookByUrl(this.deps.db, url);
    const state = book ? await this.request(book.id, options) : null;
    if (!state) throw notFound('We could not find that book.');
    return state;
  }

  /**
   * Asks for a book's text: queues a fetch unless the chapters are there, one is under way,
   * or the last one failed too recently (`manual`: "Try again", a short wait; otherwise hours).
   */
  async request(bookId: number, options: { manual?: boolean } = {}): Promise<BookTextState | null> {
    const before = await this.state(bookId);
    if (!before || before.status === 'ready' || !this.enabled) return before;
    if (!options.manual && before.status === 'missing' && (await this.queuedCount()) >= MAX_QUEUED)
      return before;
    const cooldown = options.manual ? MANUAL_RETRY_MS : AUTOMATIC_RETRY_MS;
    const claimed = await queryRows<{ book_id: number }>(
      this.deps.db,
      sql`
      INSERT INTO book_texts (book_id, status, requested_at, updated_at)
      VALUES (${bookId}, 'queued', now(), now())
      ON CONFLICT (book_id) DO UPDATE SET status = 'queued', stage = NULL, progress = 0,
        error_code = NULL, error_message = NULL, requested_at = now(), updated_at = now()
      WHERE (book_texts.status = 'failed'
          AND book_texts.failed_at < now() - make_interval(secs => ${cooldown / 1000}))
        OR (book_texts.status IN ('queued', 'running')
          AND book_texts.updated_at < now() - make_interval(secs => ${STALE_MS / 1000}))
        OR book_texts.status = 'done'
      RETURNING book_id`,
    );
    if (claimed.length > 0) await this.enqueue(bookId);
    return this.state(bookId);
  }

  private async queuedCount(): Promise<number> {
    const result = await queryRows<{ n: number }>(
      this.deps.db,
      sql`SELECT count(*)::int AS n FROM book_texts WHERE status IN ('queued', 'running')`,
    );
    return result[0]?.n ?? 0;
  }

  private async enqueue(bookId: number): Promise<void> {
    if (this.deps.jobs.isStarted) {
      await this.deps.jobs.send(
        BOOK_TEXT_QUEUE,
        { bookId },
        { singletonKey: String(bookId), retryLimit: 0, expireInSeconds: 15 * 60 },
      );
      return;
    }
    // No job workers in this process (JOBS_ENABLED=false, tests, the CLI): run it here.
    const run = this.run(bookId).finally(() => this.running.delete(run));
    this.running.add(run);
  }

  /**
   * Fetches a book's text now, in this process, whatever its state (the bulk CLI): skips only
   * a fetch under way elsewhere. Returns the state after it.
   */
  async fetchNow(bookId: number): Promise<BookTextState | null> {
    const claimed = await queryRows<{ book_id: number }>(
      this.deps.db,
      sql`
      INSERT INTO book_texts (book_id, status, requested_at, updated_at)
      SELECT id, 'queued', now(), now() FROM books WHERE id = ${bookId}
      ON CONFLICT (book_id) DO UPDATE SET status = 'queued', stage = NULL, progress = 0,
        requested_at = now(), updated_at = now()
      WHERE book_texts.status NOT IN ('queued', 'running')
        OR book_texts.updated_at < now() - make_interval(secs => ${STALE_MS / 1000})
      RETURNING book_id`,
    );
    if (claimed.length > 0) await this.run(bookId);
    return this.state(bookId);
  }

  /** Waits for fetches running in this process (shutdown and tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** The job: fetch, clean, split, store; every failure becomes the book's failed state. */
  async run(bookId: number): Promise<void> {
    const { db, log } = this.deps;
    const claimed = await queryRows<{ title: string; url: string }>(
      db,
      sql`
      UPDATE book_texts t SET status = 'running', stage = 'download', progress = 0,
        started_at = now(), updated_at = now(), attempts = t.attempts + 1
      FROM books b
      WHERE t.book_id = ${bookId} AND b.id = t.book_id AND (t.status = 'queued'
        OR (t.status = 'running'
          AND t.updated_at < now() - make_interval(secs => ${STALE_MS / 1000})))
      RETURNING b.title, b.url`,
    );
    const book = claimed[0];
    if (!book) return;
    let lastWrite = 0;
    const progress = async (stage: BookTextStage, value: number, force = true) => {
      const now = Date.now();
      if (!force && now - lastWrite < PROGRESS_WRITE_MS) return;
      lastWrite = now;
      await db.execute(sql`
        UPDATE book_texts SET stage = ${stage}, progress = ${Math.min(1, value)}, updated_at = now()
        WHERE book_id = ${bookId} AND status = 'running'`);
    };
    try {
      let writing = Promise.resolve();
      const fetched = await this.deps.source.fetchText(bookId, {
        onProgress: (received, total) => {
          if (total)
            writing = writing.then(() => progress('download', (0.7 * received) / total, false));
        },
      });
      await writing;
      await progress('cleaning', 0.75);
      let splitting: Promise<void> = Promise.resolve();
      const prepared = await this.preparer.prepare(fetched.text, book.title, () => {
        splitting = progress('splitting', 0.85);
      });
      await splitting;
      if (prepared.chapters.length === 0) throw new NoChaptersError('The text holds no words.');
      await progress('saving', 0.95);
      await this.store([{ bookId, prepared, source: fetched.source, bytes: fetched.bytes }]);
      log.info(
        { bookId, chapters: prepared.chapters.length, bytes: fetched.bytes },
        'book text prepared',
      );
      this.events.emit('chapters-changed', { bookId, url: book.url });
    } catch (error) {
      await this.fail(bookId, error);
    }
  }

  /**
   * The bulk loader (`npm run books:texts`): fetches, prepares and stores many books, `concurrency`
   * at once. Texts are prepared by the service's preparer (the CLI gives it one thread per
   * core) while this thread stores finished books in batches: one transaction and a few
   * multi-row statements for every few books, instead of a dozen round trips per book. A book
   * being fetched elsewhere is skipped; every failure becomes the book's failed state, as in
   * `run`. `onResult` hears about each book as it is settled.
   */
  async fetchMany(
    ids: number[],
    options: { concurrency?: number; onResult?: (bookId: number, result: BulkResult) => void } = {},
  ): Promise<void> {
    const writer = new BatchWriter((items) => this.store(items));
    let next = 0;
    const lane = async () => {
      while (next < ids.length) {
        const bookId = ids[next++]!;
        const result = await this.fetchOne(bookId, writer).catch((error: unknown): BulkResult => ({
          status: 'failed',
          code: 'error',
          message: error instanceof Error ? error.message : String(error),
        }));
        options.onResult?.(bookId, result);
      }
    };
    const lanes = Math.max(1, Math.min(options.concurrency ?? 4, ids.length));
    await Promise.all(Array.from({ length: lanes }, lane));
  }

  private async fetchOne(bookId: number, writer: BatchWriter): Promise<BulkResult> {
    // Claimed and started in one statement (the on-demand path takes two, through a job).
    const claimed = await queryRows<{ title: string; url: string }>(
      this.deps.db,
      sql`
      WITH claimed AS (
        INSERT INTO book_texts (book_id, status, stage, progress, requested_at, started_at,
          updated_at, attempts)
        SELECT id, 'running', 'download', 0, now(), now(), now(), 1 FROM books WHERE id = ${bookId}
        ON CONFLICT (book_id) DO UPDATE SET status = 'running', stage = 'download', progress = 0,
          requested_at = now(), started_at = now(), updated_at = now(),
          attempts = book_texts.attempts + 1
        WHERE book_texts.status NOT IN ('queued', 'running')
          OR book_texts.updated_at < now() - make_interval(secs => ${STALE_MS / 1000})
        RETURNING book_id)
      SELECT b.title, b.url FROM claimed c JOIN books b ON b.id = c.book_id`,
    );
    const book = claimed[0];
    if (!book) {
      const state = await this.state(bookId);
      if (state?.status === 'ready') return { status: 'ready', chapterCount: state.chapterCount };
      const code = state?.status ?? 'unknown';
      return { status: 'failed', code, message: code };
    }
    try {
      const fetched = await this.deps.source.fetchText(bookId);
      const prepared = await this.preparer.prepare(fetched.text, book.title);
      if (prepared.chapters.length === 0) throw new NoChaptersError('The text holds no words.');
      await writer.add({ bookId, prepared, source: fetched.source, bytes: fetched.bytes });
      this.events.emit('chapters-changed', { bookId, url: book.url });
      return { status: 'ready', chapterCount: prepared.chapters.length };
    } catch (error) {
      const code = await this.fail(bookId, error);
      return { status: 'failed', code, message: PLAIN_WORDS[code] ?? PLAIN_WORDS.error! };
    }
  }

  /** Stores prepared texts and marks their fetches done, all in one transaction. */
  private async store(items: PreparedBook[]): Promise<void> {
    const chapters: BookChapters[] = items.map((b) => ({
      bookId: b.bookId,
      chapters: b.prepared.chapters,
      totals: b.prepared.totals,
    }));
    const done = sql.join(
      items.map((b) => sql`(${b.bookId}::int, ${b.source}::text, ${b.bytes}::int)`),
      sql`, `,
    );
    await this.deps.db.transaction(async (tx) => {
      await writeChapters(tx as unknown as Db, chapters);
      await tx.execute(sql`
        UPDATE book_texts t SET status = 'done', stage = NULL, progress = 1, finished_at = now(),
          updated_at = now(), source = v.source, bytes = v.bytes, error_code = NULL,
          error_message = NULL
        FROM (VALUES ${done}) AS v(book_id, source, bytes)
        WHERE t.book_id = v.book_id`);
    });
  }

  /** Keeps a failure as the book's state (with its code and time); returns the code. */
  private async fail(bookId: number, error: unknown): Promise<string> {
    const { db, log } = this.deps;
    const code =
      error instanceof TextFetchError
        ? error.code
        : error instanceof NoChaptersError
          ? 'no_chapters'
          : 'error';
    const message = error instanceof Error ? error.message : String(error);
    if (code === 'error') log.error({ err: error, bookId }, 'book text failed');
    else log.warn({ bookId, code, reason: message }, 'book text failed');
    await db.execute(sql`
      UPDATE book_texts SET status = 'failed', stage = NULL, progress = 0, failed_at = now(),
        updated_at = now(), error_code = ${code}, error_message = ${message}
      WHERE book_id = ${bookId}`);
    return code;
  }

  private present(row: StateRow): BookTextState {
    const chapterCount = Number(row.chapter_count);
    const base = {
      bookId: Number(row.id),
      chapterCount,
      firstChapterUrl: row.first_chapter,
      stage: null,
      progress: 0,
      error: null,
      retryAfter: null,
    };
    if (chapterCount > 0) return { ...base, status: 'ready', progress: 1 };
    if (row.status === 'queued' || row.status === 'running') {
      const stale = Date.now() - new Date(row.updated_at!).getTime() > STALE_MS;
      if (!stale) {
        return {
          ...base,
          status: row.status,
          stage: row.stage,
          progress: Number(row.progress ?? 0),
        };
      }
    }
    if (row.status === 'failed') {
      const at = new Date(row.failed_at!);
      const code = row.error_code ?? 'error';
      return {
        ...base,
        status: 'failed',
        error: { code, message: PLAIN_WORDS[code] ?? PLAIN_WORDS.error!, at: at.toISOString() },
        retryAfter: new Date(at.getTime() + MANUAL_RETRY_MS).toISOString(),
      };
    }
    return { ...base, status: this.enabled ? 'missing' : 'unavailable' };
  }
}
