// The book pages' constants and links, without zod: the directory, book and chapter pages
// import these and do not load the schemas of books.ts (issue 18). books.ts uses them.

/** Sorts of the book directory (spec §2 tabs Random / Popular / Recent). */
export const BOOK_SORTS = ['random', 'download_count', 'createdAt'] as const;
export type BookSort = (typeof BOOK_SORTS)[number];

/** The directory's tabs, in order, with the sort each one asks for. */
export const BOOK_SORT_TABS: ReadonlyArray<{ label: string; sort: BookSort }> = [
  { label: 'Random', sort: 'random' },
  { label: 'Popular', sort: 'download_count' },
  { label: 'Recent', sort: 'createdAt' },
];

/** Longest search term accepted (titles and author names are far shorter). */
export const BOOK_SEARCH_MAX_LENGTH = 200;

/** Books on the home page (spec §9). */
export const HOME_BOOK_COUNT = 8;

/** The material generator's link from a chapter page (the materials feature reads these). */
export function materialGeneratorHref(bookUrl: string, chapterUrl: string): string {
  return `/material-generator?bookUrl=${encodeURIComponent(bookUrl)}&chapterUrl=${encodeURIComponent(chapterUrl)}`;
}
