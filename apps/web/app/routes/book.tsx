import { formatAuthorName } from '@chapterwise/shared';
import { data, Link } from 'react-router';
import {
  authorWithYears,
  fetchBook,
  fetchBooks,
  formatGrade,
  formatReadingTime,
  numberFormat,
  toBookCard,
} from '../features/books/api';
import { JsonLd } from '../features/books/components/json-ld';
import { PreparingChapters } from '../features/books/components/preparing-chapters';
import { RelatedSlider } from '../features/books/components/related-slider';
import { ApiClientError } from '../lib/api';
import { seo } from '../lib/seo';
import booksCss from '../styles/books.css?url';
import type { Route } from './+types/book';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: booksCss }];

export async function loader({ params, request, context }: Route.LoaderArgs) {
  try {
    const { data: book } = await fetchBook(params.url, context.apiFetch);
    const primary = book.categories[0]?.slug;
    const related = primary
      ? await fetchBooks({ subject: primary, sort: 'download_count', limit: 24 }, context.apiFetch)
      : { data: [], count: 0 };
    return {
      book,
      related: distinctWorks(related.data, book).slice(0, 12).map(toBookCard),
      publicUrl: context.publicConfig.publicUrl,
      // A chapter opened before the chapters existed (see the chapter page).
      wantedChapter: new URL(request.url).searchParams.get('chapter'),
    };
  } catch (error) {
    if (error instanceof ApiClientError && (error.status === 404 || error.status === 400)) {
      throw data(null, { status: 404 });
    }
    throw error;
  }
}

/** Other books of the subject, one edition of each work, never another edition of this one. */
function distinctWorks<T extends { title: string; authors: { name: string }[] }>(
  books: T[],
  current: T,
): T[] {
  const key = (b: T) =>
    `${b.title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim()}|${b.authors[0]?.name ?? ''}`;
  const seen = new Set([key(current)]);
  return books.filter((b) => {
    const k = key(b);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

export function meta({ data: loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: 'Page not found | Chapterwise' }];
  const { book, publicUrl } = loaderData;
  const author = book.authors[0] ? formatAuthorName(book.authors[0].name) : '';
  return seo({
    title: `${book.title}${author ? ` by ${author}` : ''}`,
    description: `${book.title}${author ? ` by ${author}` : ''}: read it free, chapter by chapter${book.chapterCount ? ` (${book.chapterCount} chapters)` : ''}, and make quizzes, lessons and worksheets from any chapter.`,
    path: `/book/${book.url}`,
    publicUrl,
    image: book.formats['image/jpeg'],
    type: 'book',
  });
}

export default function BookPage({ loaderData }: Route.ComponentProps) {
  const { book, related, publicUrl, wantedChapter } = loaderData;
  const bookPath = `/book/${encodeURIComponent(book.url)}`;
  return (
    <article className="container page book-page">
      <JsonLd
        data={{
          '@context': 'https://schema.org',
          '@type': 'Book',
          name: book.title,
          url: `${publicUrl}${bookPath}`,
          image: `${publicUrl}${book.formats['image/jpeg']}`,
          inLanguage: book.languages[0] ?? 'en',
          genre: book.subject,
          about: book.subjects.slice(0, 5),
          isAccessibleForFree: true,
          ...(book.wordCount ? { wordCount: book.wordCount } : {}),
          author: book.authors.map((a) => ({
            '@type': 'Person',
            name: formatAuthorName(a.name),
            ...(a.birthYear ? { birthDate: String(a.birthYear) } : {}),
            ...(a.deathYear ? { deathDate: String(a.deathYear) } : {}),
          })),
        }}
      />
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to="/books">Books</Link>
        {book.categories[0] ? (
          <>
            <span aria-hidden="true"> / </span>
            <Link to={`/books/${book.categories[0].slug}`}>{book.categories[0].name}</Link>
          </>
        ) : null}
      </nav>
      <div className="book-hero">
        <img
          className="book-cover"
          src={book.formats['image/jpeg']}
          alt={`Cover of ${book.title}`}
          width={240}
          height={360}
        />
        <div className="book-info">
          <h1>{book.title}</h1>
          {book.subtitle ? <p className="book-subtitle">{book.subtitle}</p> : null}
          <p className="book-authors">
            {book.authors.length === 0
              ? 'Unknown author'
              : book.authors.map((a, i) => (
                  <span key={a.slug || a.name}>
                    {i > 0 ? ', ' : 'by '}
                    <Link to={`/books/${a.slug}`}>{authorWithYears(a)}</Link>
                  </span>
                ))}
          </p>
          <dl className="book-facts">
            {book.chapterCount ? (
              <div>
                <dt>Length</dt>
                <dd>
                  {numberFormat.format(book.wordCount ?? 0)} words, {book.chapterCount}{' '}
                  {book.chapterCount === 1 ? 'part' : 'chapters'}
                </dd>
              </div>
            ) : null}
            {book.readingMinutes ? (
              <div>
                <dt>Reading time</dt>
                <dd>{formatReadingTime(book.readingMinutes)}</dd>
              </div>
            ) : null}
            {book.readingGrade !== null ? (
              <div>
                <dt>Reading level</dt>
                <dd title="Flesch–Kincaid grade level">{formatGrade(book.readingGrade)}</dd>
              </div>
            ) : null}
            {book.issued ? (
              <div>
                <dt>Released</dt>
                <dd>{book.issued.slice(0, 4)}</dd>
              </div>
            ) : null}
          </dl>
          <ul className="book-categories" aria-label="Subjects">
            {book.categories.map((c) => (
              <li key={c.slug}>
                <Link className="badge" to={`/books/${c.slug}`}>
                  {c.name}
                </Link>
              </li>
            ))}
          </ul>
          {book.subjects.length ? (
            <p className="muted book-lcsh">{book.subjects.slice(0, 6).join(' · ')}</p>
          ) : null}
        </div>
      </div>

      <section id="chapters" className="chapter-list-section" aria-labelledby="chapters-title">
        <h2 id="chapters-title">Chapters</h2>
        {book.chapters.length ? (
          <ol className="chapter-list">
            {book.chapters.map((c) => (
              <li key={c.url}>
                <Link to={`${bookPath}/${encodeURIComponent(c.url)}`}>{c.title}</Link>
                <span className="muted">{numberFormat.format(c.wordCount)} words</span>
              </li>
            ))}
          </ol>
        ) : (
          <PreparingChapters
            bookUrl={book.url}
            gutenbergHref={book.formats['text/html']}
            wantedChapter={wantedChapter}
          />
        )}
      </section>

      <RelatedSlider books={related} title={`More ${book.subject} books`} />
      <p className="muted source-note">Source: Project Gutenberg. Public domain in the USA.</p>
    </article>
  );
}
