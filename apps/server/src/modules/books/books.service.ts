import {
  SUBJECTS,
  type BookAnswer,
  type BooksAnswer,
  type BooksQuery,
  type BookSubjectsAnswer,
  type ChapterAnswer,
} from '@chapterwise/shared';
import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { CatalogueCache, type CachedAnswer } from './books.cache.js';
import { generatedCover } from './books.covers.js';
import { presentBook } from './books.presenter.js';
import {
  countBooks,
  countBooksBySubject,
  listBookUrls,
  listChapterUrlsOfBooks,
  findBookById,
  findBookByUrl,
  findChapter,
  findCover,
  listBooks,
  listChapterSummaries,
  readCatalogueVersion,
  listBooksWithTextsSince,
  latestTextFinishedAt,
  searchBooks,
  searchBooksFuzzy,
  similarWords,
  wordsMatching,
  warmSearch,
  type BookListRow,
} from './books.repository.js';
import { bestCorrection, MAX_SEARCH_WORDS, planSearch, STOP_WORDS } from './search/plan.js';
import { normalizeForSearch } from './text/normalize.js';
import { readingMinutes } from './text/readability.js';

/** How often a server checks whether an import elsewhere changed the catalogue. */
const VERSION_CHECK_MS = 15_000;
/** The default order of `sort=random` changes this often (the same order meanwhile). */
const RANDOM_PERIOD_MS = 10 * 60_000;
const SITEMAP_BOOKS_PER_PAGE = 5000;

/**
 * A search word used by at least this many books is taken as spelt right: a correction must
 * be ten times as common, and hardly any word of the catalogue is (decision 015).
 */
const RARE_WORD_BOOKS = 100;

/**
 * The book catalogue: lists, search, books, chapters, subjects and covers. Every answer is
 * cached in memory as serialised JSON with its ETag until the catalogue version changes
 * (an import finished), which a timer checks every few seconds.
 */
export class BooksService {
  readonly cache = new CatalogueCache();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly dataDir: string,
  ) {}

  /** Reads the catalogue version now and then every VERSION_CHECK_MS. */
  async start(): Promise<void> {
    this.textsSeenAt = await latestTextFinishedAt(this.db);
    await this.refreshVersion();
    // In the background: readiness does not wait for it.
    void warmSearch(this.db).catch(() => {});
    this.timer = setInterval(() => void this.refreshVersion().catch(() => {}), VERSION_CHECK_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Drops the cached answers when the catalogue changed (called after an import too). */
  async refreshVersion(): Promise<void> {
    if (this.cache.setVersion(await readCatalogueVersion(this.db))) this.onCatalogueChange?.();
    // Texts fetched by any instance since the last look: their books' answers go.
    const since = this.textsSeenAt;
    const changed = await listBooksWithTextsSince(this.db, since);
    for (const book of changed) {
      this.forgetBook(book.url);
      if (book.finishedAt > this.textsSeenAt) this.textsSeenAt = book.finishedAt;
    }
  }

  /** The newest text fetch seen (an ISO time from the database's clock). */
  private textsSeenAt = '1970-01-01T00:00:00.000Z';

  /**
   * Forgets the cached answers of one book (its page and chapters) after its chapters changed.
   * List answers carry chapter counts too; they follow at the next catalogue version.
   */
  forgetBook(url: string): void {
    const book = JSON.stringify(['book', url]);
    const chapter = JSON.stringify(['chapter', url]).slice(0, -1) + ',';
    this.cache.forget((key) => key === book || key.startsWith(chapter));
    this.onBookChange?.(url);
  }

  /**
   * Called when one book's chapters changed (its text was fetched here or on another
   * instance): pages showing that book go.
   */
  onBookChange: ((url: string) => void) | undefined;

  /** Called when a version check finds the catalogue changed (pages showing it go). */
  onCatalogueChange: (() => void) | undefined;

  /** The cache key of a list query, or null when it is not cacheable. */
  listKey(query: BooksQuery): string {
    return JSON.stringify([
      'list',
      query.sort,
      query.sort === 'random' ? this.randomSeed(query) : 0,
      query.searchTerm ? normalizeForSearch(query.searchTerm) : '',
      query.subject ?? '',
      query.author ?? '',
      query.limit,
      query.page,
    ]);
  }

  randomSeed(query: BooksQuery): number {
    return query.seed ?? Math.floor(Date.now() / RANDOM_PERIOD_MS) % 1_000_003;
  }

  /** `GET /getgutenbergbooks`, serialised. */
  listBooksCached(query: BooksQuery): Promise<CachedAnswer> {
    return this.cache.get(this.listKey(query), () => this.listBooks(query));
  }

  /**
   * Books for a directory page: by subject and/or author, sorted, or a search over titles and
   * authors (ranked by relevance and popularity, with a typo-tolerant fallback).
   */
  async listBooks(query: BooksQuery): Promise<BooksAnswer> {
    const filter = { subject: query.subject, author: query.author };
    const page = { limit: query.limit, offset: (query.page - 1) * query.limit };
    const words = normalizeForSearch(query.searchTerm ?? '')
      .split(' ')
      .filter(Boolean)
      .slice(0, MAX_SEARCH_WORDS);
    let result: { rows: BookListRow[]; count: number };
    if (words.length > 0) {
      // Relevance tiers first, the chosen sort within them ("random" reads as popularity here).
      const sort = query.sort === 'createdAt' ? 'createdAt' : 'download_count';
      result = await searchBooks(this.db, planSearch(words), filter, sort, page);
      if (result.count === 0) {
        // No book has every word: correct the words that look misspelt (a word of the
        // catalogue one or two edits away and much more common, "moby dik", "treasure
        // iland") and search again: first only the words no title or author has ("wutherng
        // heights" keeps "heights"), then, if that finds nothing, the rare ones too. Words
        // used by RARE_WORD_BOOKS books or more are taken as spelt right. When nothing is
        // corrected and every word is in the catalogue on its own ("whale history"), nothing
        // is the answer; when a word matches nothing, the trigram similarity of whole titles
        // is the last resort.
        const { own, candidates } = await similarWords(
          this.db,
          [...new Set(words.filter((w) => !STOP_WORDS.has(w)))],
          RARE_WORD_BOOKS,
        );
        const tried = new Set([words.join(' ')]);
        for (const unknownOnly of [true, false]) {
          const corrected = words.map((w) => {
            const near = candidates.get(w);
            if (!near || (unknownOnly && own.has(w))) return w;
            return bestCorrection(w, near) ?? w;
          });
          if (tried.has(corrected.join(' '))) continue;
          tried.add(corrected.join(' '));
          result = await searchBooks(this.db, planSearch(corrected), filter, sort, page);
          if (result.count > 0) break;
        }
        if (result.count === 0) {
          const matching = await wordsMatching(this.db, words);
          if (words.length === 1 || matching.includes(false)) {
            result = await searchBooksFuzzy(this.db, words.join(' '), filter, page);
          }
        }
      }
    } else {
      result = await listBooks(
        this.db,
        filter,
        { sort: query.sort, seed: this.randomSeed(query) },
        page,
      );
    }
    return { data: result.rows.map(presentBook), count: result.count };
  }

  getBookCached(url: string): Promise<CachedAnswer> {
    return this.cache.get(JSON.stringify(['book', url]), () => this.getBook(url));
  }

  /** `GET /getgutenbergbook`: the book and its chapter list; 404 when unknown. */
  async getBook(url: string): Promise<BookAnswer> {
    const row = await findBookByUrl(this.db, url);
    if (!row) throw notFound('We could not find that book.');
    const chapters = await listChapterSummaries(this.db, row.id);
    return { data: { ...presentBook(row), chapters } };
  }

  getChapterCached(url: string, chapterUrl: string): Promise<CachedAnswer> {
    return this.cache.get(JSON.stringify(['chapter', url, chapterUrl]), () =>
      this.getChapter(url, chapterUrl),
    );
  }

  /** `GET /getgutenbergbookchapter`: one chapter's text with its neighbours; 404 when unknown. */
  async getChapter(url: string, chapterUrl: string): Promise<ChapterAnswer> {
    // The book and its chapter list come from the book's cached answer (its page and every
    // chapter page read it too): a chapter not asked for before costs one query, not three.
    const { data: bookDetail } = JSON.parse(
      (await this.getBookCached(url)).body.toString('utf8'),
    ) as BookAnswer;
    const { chapters: list, ...book } = bookDetail;
    const chapter = await findChapter(this.db, book.gutenbergId, chapterUrl);
    if (!chapter) throw notFound('We could not find that chapter.');
    const previous = list.find((c) => c.index === chapter.index - 1);
    const next = list.find((c) => c.index === chapter.index + 1);
    return {
      data: {
        book,
        chapter: {
          index: chapter.index,
          title: chapter.title,
          url: chapter.url,
          text: chapter.text,
          wordCount: chapter.wordCount,
          readingMinutes: chapter.readingMinutes || readingMinutes(chapter.wordCount),
          readingGrade: Math.round(chapter.readingGrade * 10) / 10,
          ...(previous ? { previous: { title: previous.title, url: previous.url } } : {}),
          ...(next ? { next: { title: next.title, url: next.url } } : {}),
        },
      },
    };
  }

  subjectsCached(): Promise<CachedAnswer> {
    return this.cache.get('subjects', () => this.listSubjects());
  }

  /** `GET /getbooksubjects`: every teacher-facing subject with its number of books. */
  async listSubjects(): Promise<BookSubjectsAnswer> {
    const counts = await countBooksBySubject(this.db);
    return { data: SUBJECTS.map((s) => ({ ...s, count: counts.get(s.slug) ?? 0 })) };
  }

  /** Pages of the books sitemap: the directory and subjects, then 5,000 books a page. */
  async sitemapPageCount(): Promise<number> {
    const answer = await this.cache.get('sitemap-count', async () => ({
      count: await countBooks(this.db),
    }));
    const { count } = JSON.parse(answer.body.toString()) as { count: number };
    return 1 + Math.ceil(count / SITEMAP_BOOKS_PER_PAGE);
  }

  async sitemapPaths(page: number): Promise<Array<{ path: string }>> {
    if (page === 1) {
      return [
        { path: '/' },
        { path: '/books' },
        ...SUBJECTS.map((s) => ({ path: `/books/${s.slug}` })),
      ];
    }
    const rows = await listBookUrls(
      this.db,
      (page - 2) * SITEMAP_BOOKS_PER_PAGE,
      SITEMAP_BOOKS_PER_PAGE,
    );
    const chapters = await listChapterUrlsOfBooks(
      this.db,
      rows.filter((r) => r.chapterCount > 0).map((r) => r.id),
    );
    const byBook = new Map<number, string[]>();
    for (const c of chapters) byBook.set(c.bookId, [...(byBook.get(c.bookId) ?? []), c.url]);
    const paths: Array<{ path: string }> = [];
    for (const row of rows) {
      const bookPath = `/book/${encodeURIComponent(row.url)}`;
      paths.push({ path: bookPath });
      for (const url of byBook.get(row.id) ?? []) {
        paths.push({ path: `${bookPath}/${encodeURIComponent(url)}` });
      }
    }
    return paths;
  }

  /**
   * The cover of a book as JPEG: the public-domain cover when the catalogue has one,
   * otherwise a generated typographic cover (made once, kept under DATA_DIR/covers).
   */
  async getCover(id: number): Promise<{ jpeg: Buffer; etag: string }> {
    const row = await findBookById(this.db, id);
    if (!row) throw notFound('We could not find that book.');
    if (row.coverEtag) {
      const cover = await findCover(this.db, id);
      if (cover) return { jpeg: cover.jpeg, etag: `"${cover.etag}"` };
    }
    const jpeg = await generatedCover(this.dataDir, {
      id,
      title: row.title,
      author: row.authors[0]?.name,
      subject: row.subject,
    });
    return { jpeg, etag: `"g-${id}-${jpeg.length}"` };
  }
}
