import {
  formatAuthorName,
  type Book,
  type BookAnswer,
  type BookAuthor,
  type BookSort,
  type BooksAnswer,
  type BookSubjectsAnswer,
  type BookTextAnswer,
  type ChapterAnswer,
} from '@chapterwise/shared';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';

type Fetch = typeof fetch;

export interface BooksParams {
  sort?: BookSort;
  searchTerm?: string;
  subject?: string;
  author?: string;
  limit?: number;
  page?: number;
  seed?: number;
}

/** `GET /getgutenbergbooks`. Public: never sends the session token (answers are shared). */
export function fetchBooks(params: BooksParams, fetch?: Fetch): Promise<BooksAnswer> {
  return apiRequest<BooksAnswer>('/getgutenbergbooks', {
    query: { ...params },
    auth: false,
    ...(fetch ? { fetch } : {}),
  });
}

export function fetchBook(url: string, fetch?: Fetch): Promise<BookAnswer> {
  return apiRequest<BookAnswer>('/getgutenbergbook', {
    query: { url },
    auth: false,
    ...(fetch ? { fetch } : {}),
  });
}

export const bookKeys = {
  chapters: (url: string) => ['books', 'chapters', url] as const,
};

/**
 * A book's chapter list (titles and links), read when `enabled`: the chapter page's "All
 * chapters" menu asks for it when opened instead of carrying it in every chapter page.
 */
export function useBookChapters(url: string, enabled: boolean) {
  return useQuery({
    queryKey: bookKeys.chapters(url),
    queryFn: async () =>
      (await fetchBook(url)).data.chapters.map((c) => ({ title: c.title, url: c.url })),
    enabled,
    staleTime: 10 * 60_000,
  });
}

export function fetchChapter(
  url: string,
  chapterUrl: string,
  fetch?: Fetch,
): Promise<ChapterAnswer> {
  return apiRequest<ChapterAnswer>('/getgutenbergbookchapter', {
    query: { url, chapterUrl },
    auth: false,
    ...(fetch ? { fetch } : {}),
  });
}

export function fetchSubjects(fetch?: Fetch): Promise<BookSubjectsAnswer> {
  return apiRequest<BookSubjectsAnswer>('/getbooksubjects', {
    auth: false,
    ...(fetch ? { fetch } : {}),
  });
}

/**
 * What a book card shows (cover, title, first author, link): pages put only this in their
 * data, not the whole catalogue entry (subjects, languages, categories…), so the hydration
 * data of a grid stays small (issue 18).
 */
export interface BookCardData {
  title: string;
  url: string;
  /** The first author as cards show it (`firstAuthorName`). */
  author: string;
  /** The cover image (the `image/jpeg` format), when the book has one. */
  cover?: string;
}

export function toBookCard(book: Book): BookCardData {
  const cover = book.formats['image/jpeg'];
  return {
    title: book.title,
    url: book.url,
    author: firstAuthorName(book),
    ...(cover ? { cover } : {}),
  };
}

/** The first author as cards show it: "Shelley, Mary (Wollstonecraft)" → "Mary Shelley". */
export function firstAuthorName(book: { authors: Array<Pick<BookAuthor, 'name'>> }): string {
  const first = book.authors[0];
  return first ? formatAuthorName(first.name) : 'Unknown author';
}

/** "Mary Wollstonecraft Shelley (1797–1851)". */
export function authorWithYears(author: BookAuthor): string {
  const name = formatAuthorName(author.name);
  const born = author.birthYear ?? null;
  const died = author.deathYear ?? null;
  if (born === null && died === null) return name;
  const year = (y: number | null) => (y === null ? '?' : y < 0 ? `${-y} BCE` : String(y));
  return `${name} (${year(born)}–${died === null ? '' : year(died)})`;
}

/** "About 2 h 15 min" from minutes. */
export function formatReadingTime(minutes: number | null | undefined): string {
  if (!minutes) return '';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}

/** "Grade 7" from a Flesch–Kincaid grade (rounded; college level above 12). */
export function formatGrade(grade: number | null | undefined): string {
  if (grade === null || grade === undefined) return '';
  const rounded = Math.round(grade);
  if (rounded > 12) return 'College level';
  if (rounded < 1) return 'Kindergarten';
  return `Grade ${rounded}`;
}

export const numberFormat = new Intl.NumberFormat('en-US');

/**
 * `GET /getgutenbergbooktext`: where the book's text stands; asks for it when the book has no
 * chapters yet (called from the browser only, so crawlers reading the page fetch nothing).
 */
export function fetchBookText(url: string, signal?: AbortSignal): Promise<BookTextAnswer> {
  return apiRequest<BookTextAnswer>('/getgutenbergbooktext', {
    query: { url },
    auth: false,
    ...(signal ? { signal } : {}),
  });
}

/** `POST /fetchgutenbergbooktext`: "Try again" after a failure. */
export function retryBookText(url: string): Promise<BookTextAnswer> {
  return apiRequest<BookTextAnswer>('/fetchgutenbergbooktext', {
    method: 'POST',
    body: { url },
    auth: false,
  });
}
