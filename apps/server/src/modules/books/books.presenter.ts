import { createHash } from 'node:crypto';
import { SUBJECTS, type Book } from '@chapterwise/shared';
import type { BookListRow } from './books.repository.js';

const SUBJECT_NAMES = new Map(SUBJECTS.map((s) => [s.slug, s.name]));

/** Bumped when the look of generated covers changes, so browsers fetch the new ones. */
export const GENERATED_COVER_VERSION = 1;

/** The cover URL: `v` changes with the image, so the image itself may be cached for a year. */
export function coverUrl(
  row: Pick<BookListRow, 'id' | 'title' | 'authors' | 'subject' | 'coverEtag'>,
): string {
  const version =
    row.coverEtag ??
    `g${GENERATED_COVER_VERSION}-${createHash('sha1')
      .update(`${row.title}|${row.authors[0]?.name ?? ''}|${row.subject}`)
      .digest('hex')
      .slice(0, 8)}`;
  return `/api/v1/books/${row.id}/cover.jpg?v=${version}`;
}

/** A catalogue row in the API's wire names (api-shapes: Books). */
export function presentBook(row: BookListRow): Book {
  return {
    _id: String(row.id),
    gutenbergId: row.id,
    title: row.title,
    subtitle: row.subtitle,
    url: row.url,
    authors: row.authors.map((a) => ({
      name: a.name,
      birthYear: a.birthYear,
      deathYear: a.deathYear,
      slug: a.slug,
    })),
    formats: {
      'image/jpeg': coverUrl(row),
      'text/plain': `https://www.gutenberg.org/ebooks/${row.id}.txt.utf-8`,
      'text/html': `https://www.gutenberg.org/ebooks/${row.id}`,
    },
    download_count: row.downloadCount,
    subject: row.subject,
    categories: row.subjectSlugs.map((slug) => ({ slug, name: SUBJECT_NAMES.get(slug) ?? slug })),
    subjects: row.lcsh,
    languages: row.languages,
    createdAt: new Date(row.createdAt).toISOString(),
    issued: row.issued ?? null,
    chapterCount: row.chapterCount,
    wordCount: row.wordCount,
    readingMinutes: row.readingMinutes,
    readingGrade: row.readingGrade === null ? null : Math.round(row.readingGrade * 10) / 10,
  };
}
