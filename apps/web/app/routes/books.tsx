import {
  BOOK_SORTS,
  PAGE_SIZE_DEFAULT,
  SUBJECTS,
  formatAuthorName,
  type BookSort,
} from '@chapterwise/shared';
import { data } from 'react-router';
import { fetchBooks, fetchSubjects, toBookCard } from '../features/books/api';
import { Directory } from '../features/books/components/directory';
import { seo } from '../lib/seo';
import booksCss from '../styles/books.css?url';
import type { Route } from './+types/books';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: booksCss }];

/**
 * /books, /books/{subject} and /books/{authorName}: the same directory, filtered by a subject
 * slug, or else by an author slug (a slug that names no subject and no author is a 404).
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const sortParam = url.searchParams.get('sort');
  const sort: BookSort = BOOK_SORTS.includes(sortParam as BookSort)
    ? (sortParam as BookSort)
    : 'download_count';
  const query = (url.searchParams.get('query') ?? '').trim().slice(0, 200);
  const page = Math.min(10_000, Math.max(1, Number(url.searchParams.get('page')) || 1));
  const seedParam = Number(url.searchParams.get('seed'));
  const seed =
    sort === 'random' && Number.isInteger(seedParam) && seedParam >= 0 ? seedParam : undefined;
  const slug = params.slug;
  const subject = slug ? SUBJECTS.find((s) => s.slug === slug) : undefined;
  if (slug && !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug)) throw data(null, { status: 404 });

  const [list, subjects] = await Promise.all([
    fetchBooks(
      {
        sort,
        page,
        limit: PAGE_SIZE_DEFAULT,
        ...(query ? { searchTerm: query } : {}),
        ...(subject ? { subject: subject.slug } : slug ? { author: slug } : {}),
        ...(seed !== undefined ? { seed } : {}),
      },
      context.apiFetch,
    ),
    fetchSubjects(context.apiFetch),
  ]);
  let authorName: string | undefined;
  if (slug && !subject) {
    const author = list.data.flatMap((b) => b.authors).find((a) => a.slug === slug);
    if (!author && !query) throw data(null, { status: 404 });
    authorName = author ? formatAuthorName(author.name) : slug;
  }
  // The subjects' names and slugs are a shared constant the page already has: only the
  // counts travel in the page's data, in SUBJECTS order (issue 18).
  const countBySlug = new Map(subjects.data.map((s) => [s.slug, s.count]));
  return {
    list: { count: list.count, data: list.data.map(toBookCard) },
    subjectCounts: SUBJECTS.map((s) => countBySlug.get(s.slug) ?? 0),
    sort,
    query,
    page,
    seed,
    subject: subject ?? null,
    authorName: authorName ?? null,
    basePath: slug ? `/books/${slug}` : '/books',
    publicUrl: context.publicConfig.publicUrl,
  };
}

export function meta({ data: loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: 'Page not found | Chapterwise' }];
  const { subject, authorName, basePath, publicUrl, query, page } = loaderData;
  const title = subject
    ? `${subject.name} books for teachers`
    : authorName
      ? `Books by ${authorName}`
      : 'Public-domain books for teachers';
  const description = subject
    ? `Free public-domain ${subject.name.toLowerCase()} books, chapter by chapter, with quizzes, lessons and worksheets you can make from any chapter.`
    : authorName
      ? `Read ${authorName}'s public-domain books chapter by chapter and make teaching materials from any chapter.`
      : 'Browse tens of thousands of public-domain books by subject, read them chapter by chapter, and turn any chapter into a quiz, lesson or worksheet.';
  return seo({
    title,
    description,
    path: basePath,
    publicUrl,
    ...(query || page > 1 ? { noindex: true } : {}),
  });
}

export default function BooksPage({ loaderData }: Route.ComponentProps) {
  const { list, subjectCounts, sort, query, page, seed, subject, authorName, basePath } =
    loaderData;
  const heading = subject
    ? `${subject.name} Books`
    : authorName
      ? `Books by ${authorName}`
      : 'Book Directory';
  return (
    <Directory
      heading={heading}
      intro={
        subject || authorName
          ? undefined
          : 'Public-domain books with a page per chapter. Pick a chapter to read it or to make a quiz, lesson or worksheet from it.'
      }
      basePath={basePath}
      books={list.data}
      count={list.count}
      page={page}
      pageCount={Math.min(10_000, Math.ceil(list.count / PAGE_SIZE_DEFAULT))}
      sort={sort}
      query={query}
      seed={seed}
      subjectCounts={subjectCounts}
      currentSubject={subject?.slug}
    />
  );
}
