import './zod-setup.js';
import { z } from 'zod';
import { BOOK_SEARCH_MAX_LENGTH, BOOK_SORTS } from './books-constants.js';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './constants.js';

/** A slug as the spec's slug rule makes it: lowercase letters, digits and single hyphens. */
const SlugSchema = z
  .string()
  .max(120)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be a slug (lowercase letters, digits, hyphens)');

/** `GET /getgutenbergbooks` query. Unknown parameters are ignored. */
export const BooksQuerySchema = z.object({
  sort: z.enum(BOOK_SORTS).default('download_count'),
  searchTerm: z.string().trim().max(BOOK_SEARCH_MAX_LENGTH).optional(),
  subject: SlugSchema.optional(),
  author: SlugSchema.optional(),
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  /** Order of `sort=random`: the same seed gives the same order, so paging is stable. */
  seed: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
});
export type BooksQuery = z.infer<typeof BooksQuerySchema>;

export const BookUrlQuerySchema = z.object({ url: z.string().trim().min(1).max(200) });
export const ChapterQuerySchema = BookUrlQuerySchema.extend({
  chapterUrl: z.string().trim().min(1).max(200),
});

export const BookAuthorSchema = z.object({
  /** As the catalogue has it: "Last, First". */
  name: z.string(),
  birthYear: z.number().int().nullable().optional(),
  deathYear: z.number().int().nullable().optional(),
  /** Slug of the display name ("First Last"), for /books/{authorName}. */
  slug: z.string(),
});
export type BookAuthor = z.infer<typeof BookAuthorSchema>;

/** A book as list cards and the detail page get it (api-shapes: Books). */
export const BookSchema = z.object({
  _id: z.string(),
  gutenbergId: z.number().int(),
  title: z.string(),
  subtitle: z.string(),
  url: z.string(),
  authors: z.array(BookAuthorSchema),
  formats: z.record(z.string(), z.string()),
  download_count: z.number().int(),
  /** The primary teacher-facing subject. */
  subject: z.string(),
  /** Every teacher-facing subject the book belongs to, primary first. */
  categories: z.array(z.object({ name: z.string(), slug: z.string() })),
  /** Library of Congress subject headings from the catalogue. */
  subjects: z.array(z.string()),
  languages: z.array(z.string()),
  /** When the book joined this catalogue. */
  createdAt: z.string(),
  /** First release on Project Gutenberg, when the catalogue knows it (YYYY-MM-DD). */
  issued: z.string().nullable(),
  chapterCount: z.number().int(),
  wordCount: z.number().int().nullable(),
  readingMinutes: z.number().int().nullable(),
  readingGrade: z.number().nullable(),
});
export type Book = z.infer<typeof BookSchema>;

export const ChapterSummarySchema = z.object({
  index: z.number().int(),
  title: z.string(),
  url: z.string(),
  wordCount: z.number().int(),
});
export type ChapterSummary = z.infer<typeof ChapterSummarySchema>;

export const BookDetailSchema = BookSchema.extend({ chapters: z.array(ChapterSummarySchema) });
export type BookDetail = z.infer<typeof BookDetailSchema>;

const ChapterLinkSchema = z.object({ title: z.string(), url: z.string() });

export const ChapterSchema = ChapterSummarySchema.extend({
  text: z.string(),
  readingMinutes: z.number().int(),
  readingGrade: z.number(),
  previous: ChapterLinkSchema.optional(),
  next: ChapterLinkSchema.optional(),
});
export type Chapter = z.infer<typeof ChapterSchema>;

export const BooksAnswerSchema = z.object({
  data: z.array(BookSchema),
  count: z.number().int().nonnegative(),
});
export type BooksAnswer = z.infer<typeof BooksAnswerSchema>;
export const BookAnswerSchema = z.object({ data: BookDetailSchema });
export type BookAnswer = z.infer<typeof BookAnswerSchema>;
export const ChapterAnswerSchema = z.object({
  data: z.object({ book: BookSchema, chapter: ChapterSchema }),
});
export type ChapterAnswer = z.infer<typeof ChapterAnswerSchema>;

export const BookSubjectSchema = z.object({
  name: z.string(),
  slug: z.string(),
  count: z.number().int().nonnegative(),
});
export type BookSubject = z.infer<typeof BookSubjectSchema>;
export const BookSubjectsAnswerSchema = z.object({ data: z.array(BookSubjectSchema) });
export type BookSubjectsAnswer = z.infer<typeof BookSubjectsAnswerSchema>;

/** Where a book's text stands (decision 014): fetched on demand when a reader opens the book. */
export const BOOK_TEXT_STATUSES = [
  'ready',
  'missing',
  'queued',
  'running',
  'failed',
  'unavailable',
] as const;
export type BookTextStatus = (typeof BOOK_TEXT_STATUSES)[number];
export const BOOK_TEXT_STAGES = ['download', 'cleaning', 'splitting', 'saving'] as const;
export type BookTextStage = (typeof BOOK_TEXT_STAGES)[number];

export const BookTextStateSchema = z.object({
  bookId: z.number().int(),
  /**
   * ready: chapters are there; queued/running: being prepared; failed: the last try failed
   * (`error`), "Try again" may be offered; unavailable: fetching is switched off here.
   */
  status: z.enum(BOOK_TEXT_STATUSES),
  stage: z.enum(BOOK_TEXT_STAGES).nullable(),
  /** 0…1 over the whole preparation. */
  progress: z.number().min(0).max(1),
  chapterCount: z.number().int(),
  /** The first chapter's url once ready (a reader may go straight to it). */
  firstChapterUrl: z.string().nullable(),
  error: z
    .object({
      code: z.string(),
      /** A plain sentence for the reader. */
      message: z.string(),
      at: z.string(),
    })
    .nullable(),
  /** When "Try again" may be pressed (a failure is not retried at once). */
  retryAfter: z.string().nullable(),
});
export type BookTextState = z.infer<typeof BookTextStateSchema>;
export const BookTextAnswerSchema = z.object({ data: BookTextStateSchema });
export type BookTextAnswer = z.infer<typeof BookTextAnswerSchema>;
