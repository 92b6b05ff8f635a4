import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

export interface BookAuthorJson {
  name: string;
  birthYear: number | null;
  deathYear: number | null;
  slug: string;
}

/** The book catalogue: one row per Project Gutenberg ebook (the id is PG's ebook number). */
export const books = pgTable(
  'books',
  {
    id: integer('id').primaryKey(),
    url: text('url').notNull(),
    title: text('title').notNull(),
    subtitle: text('subtitle').notNull().default(''),
    authors: jsonb('authors').$type<BookAuthorJson[]>().notNull().default([]),
    authorSlugs: text('author_slugs')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Primary teacher-facing subject (name). */
    subject: text('subject').notNull(),
    /** Every teacher-facing subject (slugs), primary first. */
    subjectSlugs: text('subject_slugs')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Library of Congress subject headings. */
    lcsh: text('lcsh')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    lcc: text('lcc')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    bookshelves: text('bookshelves')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    languages: text('languages')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    downloadCount: integer('download_count').notNull().default(0),
    issued: date('issued'),
    chapterCount: integer('chapter_count').notNull().default(0),
    wordCount: integer('word_count'),
    readingMinutes: integer('reading_minutes'),
    readingGrade: real('reading_grade'),
    /** Whether the book has chapters: kept by a trigger on book_chapters (migration 0012). */
    hasText: boolean('has_text').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('books_url_key').on(t.url),
    index('books_popular_idx').on(t.downloadCount.desc(), t.id),
    index('books_recent_idx').on(t.createdAt.desc(), t.id.desc()),
    index('books_subject_slugs_idx').using('gin', t.subjectSlugs),
    index('books_author_slugs_idx').using('gin', t.authorSlugs),
  ],
);

/**
 * What search reads, one narrow row per book (a tenth of a `books` row: a search that matches
 * thousands of titles reads a tenth of the pages). `search` is generated from the normalised
 * title and author columns (accents folded and lowercased by the importer), with a GIN index;
 * `search_all` carries a trigram index for typo-tolerant matches.
 */
export const bookSearch = pgTable(
  'book_search',
  {
    bookId: integer('book_id')
      .primaryKey()
      .references(() => books.id, { onDelete: 'cascade' }),
    downloadCount: integer('download_count').notNull().default(0),
    subjectSlugs: text('subject_slugs')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    authorSlugs: text('author_slugs')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    searchTitle: text('search_title').notNull().default(''),
    searchAuthors: text('search_authors').notNull().default(''),
    /** The title alone, normalised, without a leading The/A/An: exact title matches. */
    titleKey: text('title_key').notNull().default(''),
    /** The title before its first ';' or ':' ("Frankenstein; Or, …" → "frankenstein"). */
    shortKey: text('short_key').notNull().default(''),
    /** Editions of one work share it: the short title and the first author's slug. */
    workKey: text('work_key').notNull().default(''),
    /** A copy of books.has_text (same trigger), so ranking reads this table only. */
    hasText: boolean('has_text').notNull().default(false),
    /**
     * What the book is about, from its subject headings (LCSH) without the subdivisions that
     * say what kind of book it is ("-- Fiction", "-- History", "-- 19th century"): written by
     * `book_subject_text(lcsh)` (migration 0016), searched by the lowest tier.
     */
    searchSubjects: text('search_subjects').notNull().default(''),
    search: tsvector('search').generatedAlwaysAs(
      sql`setweight(to_tsvector('english'::regconfig, search_title), 'A') || setweight(to_tsvector('simple'::regconfig, search_authors), 'B')`,
    ),
    searchAll: text('search_all').generatedAlwaysAs(sql`search_title || ' ' || search_authors`),
    /** Apart from `search`, so the title and author tiers read and recheck no subject words. */
    subjects: tsvector('subjects').generatedAlwaysAs(
      sql`to_tsvector('english'::regconfig, search_subjects)`,
    ),
  },
  (t) => [
    index('book_search_search_idx').using('gin', t.search),
    index('book_search_trgm_idx').using('gin', sql`${t.searchAll} gin_trgm_ops`),
    index('book_search_title_key_idx').on(t.titleKey),
    index('book_search_short_key_idx').on(t.shortKey),
    index('book_search_subjects_idx').using('gin', t.subjects),
  ],
);

/**
 * Every word of the catalogue's titles and authors with the number of books that use it:
 * search corrects a misspelt word to the closest one here (trigram index, then edit distance).
 * Rebuilt by the importer after the books stage.
 */
export const bookWords = pgTable(
  'book_words',
  {
    word: text('word').primaryKey(),
    books: integer('books').notNull(),
    /** The highest download count of those books: "hamlit" means "hamlet", not "hamlin". */
    downloads: integer('downloads').notNull(),
  },
  (t) => [index('book_words_trgm_idx').using('gin', sql`${t.word} gin_trgm_ops`)],
);

/** The chapters of the books whose text the catalogue holds, without any PG boilerplate. */
export const bookChapters = pgTable(
  'book_chapters',
  {
    bookId: integer('book_id')
      .notNull()
      .references(() => books.id, { onDelete: 'cascade' }),
    index: integer('index').notNull(),
    title: text('title').notNull(),
    url: text('url').notNull(),
    text: text('text').notNull(),
    wordCount: integer('word_count').notNull(),
    readingMinutes: integer('reading_minutes').notNull(),
    readingGrade: real('reading_grade').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.bookId, t.index] }),
    uniqueIndex('book_chapters_url_key').on(t.bookId, t.url),
  ],
);

/** Public-domain cover images (JPEG), imported with the catalogue. */
export const bookCovers = pgTable('book_covers', {
  bookId: integer('book_id')
    .primaryKey()
    .references(() => books.id, { onDelete: 'cascade' }),
  jpeg: bytea('jpeg').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  /** A short hash of the bytes: part of the cover URL, so browsers may cache it for good. */
  etag: text('etag').notNull(),
  licence: text('licence').notNull(),
});

/**
 * One row per run of the importer (CLI or first-start seeder). A run that stops midway is
 * resumed from `stage`/`position` when the same sources are imported again. The id of the
 * newest finished run is the catalogue version that server caches check.
 */
export const bookImports = pgTable('book_imports', {
  id: serial('id').primaryKey(),
  source: text('source').notNull(),
  fingerprint: text('fingerprint').notNull(),
  status: text('status', { enum: ['running', 'done'] })
    .notNull()
    .default('running'),
  stage: text('stage').notNull().default('books'),
  position: integer('position').notNull().default(0),
  stats: jsonb('stats').$type<Record<string, unknown>>().notNull().default({}),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
});

export type BookRow = typeof books.$inferSelect;
export type NewBookRow = typeof books.$inferInsert;
export type BookChapterRow = typeof bookChapters.$inferSelect;

/**
 * Texts fetched on demand (decision 014): one row per book whose text was asked for, with the
 * state of its fetch (queued, running with a stage and progress, done, or failed with the
 * reason and its time). Bundled and bulk-loaded books have a row too once fetched.
 */
export const bookTexts = pgTable(
  'book_texts',
  {
    bookId: integer('book_id')
      .primaryKey()
      .references(() => books.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['queued', 'running', 'done', 'failed'] }).notNull(),
    stage: text('stage', { enum: ['download', 'cleaning', 'splitting', 'saving'] }),
    /** 0…1 over the whole fetch (download, cleaning, splitting, saving). */
    progress: real('progress').notNull().default(0),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    attempts: integer('attempts').notNull().default(0),
    /** Where the text came from (a URL or a file), and its size. */
    source: text('source'),
    bytes: integer('bytes'),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
  },
  (t) => [
    index('book_texts_finished_idx').on(t.finishedAt),
    index('book_texts_status_idx').on(t.status),
  ],
);

export type BookTextRow = typeof bookTexts.$inferSelect;
