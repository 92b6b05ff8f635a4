import { formatAuthorName, materialGeneratorHref } from '@chapterwise/shared';
import { data, Link, redirect } from 'react-router';
import {
  fetchBook,
  fetchChapter,
  formatGrade,
  formatReadingTime,
  numberFormat,
} from '../features/books/api';
import { ChapterMenu } from '../features/books/components/chapter-menu';
import { ChapterText } from '../features/books/components/chapter-text';
import { JsonLd } from '../features/books/components/json-ld';
import { ChapterPackOffer } from '../features/billing';
import {
  ChapterMaterials,
  fetchChapterMaterials,
  toChapterMaterialCardData,
} from '../features/materials';
import { ApiClientError } from '../lib/api';
import { seo } from '../lib/seo';
import billingCss from '../styles/billing.css?url';
import booksCss from '../styles/books.css?url';
import materialsCss from '../styles/materials.css?url';
import type { Route } from './+types/chapter';

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: booksCss },
  { rel: 'stylesheet', href: materialsCss },
  { rel: 'stylesheet', href: billingCss },
];

export async function loader({ params, context }: Route.LoaderArgs) {
  try {
    const [chapter, book, materials] = await Promise.all([
      fetchChapter(params.url, params.chapterUrl, context.apiFetch),
      fetchBook(params.url, context.apiFetch),
      // Ready-made materials are extra: the chapter still shows when they cannot be read.
      fetchChapterMaterials(params.url, params.chapterUrl, context.apiFetch).catch(() => ({
        data: [],
        count: 0,
      })),
    ]);
    // A whole document shows the text in its markup: it is rendered from `renderData` and left
    // out of the hydration data, so the page carries it once (issue 18).
    const { text, ...rest } = chapter.data.chapter;
    let shown: typeof rest & { text?: string } = chapter.data.chapter;
    if (context.documentRequest) {
      context.renderData.chapterText = text;
      shown = rest;
    }
    const { title, url, authors, formats } = chapter.data.book;
    const cover = formats['image/jpeg'];
    return {
      // What the page shows of the book, not the whole catalogue entry.
      book: {
        title,
        url,
        authors: authors.slice(0, 1).map((a) => ({ name: a.name })),
        formats: cover ? { 'image/jpeg': cover } : ({} as { 'image/jpeg'?: string }),
      },
      chapter: shown,
      // The "All chapters" menu reads the list when opened (issue 18).
      chapterCount: book.data.chapters.length,
      materials: materials.data.map(toChapterMaterialCardData),
      publicUrl: context.publicConfig.publicUrl,
    };
  } catch (error) {
    if (error instanceof ApiClientError && error.status === 404) {
      // The book's chapters are not there yet: its page prepares them, then opens this one.
      const book = await fetchBook(params.url, context.apiFetch).catch(() => null);
      if (book && book.data.chapters.length === 0) {
        throw redirect(
          `/book/${encodeURIComponent(params.url)}?chapter=${encodeURIComponent(params.chapterUrl)}`,
        );
      }
    }
    if (error instanceof ApiClientError && (error.status === 404 || error.status === 400)) {
      throw data(null, { status: 404 });
    }
    throw error;
  }
}

export function meta({ data: loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: 'Page not found | Chapterwise' }];
  const { book, chapter, publicUrl } = loaderData;
  const author = book.authors[0] ? formatAuthorName(book.authors[0].name) : '';
  return seo({
    title: `${chapter.title} – ${book.title}`,
    description: `Read ${chapter.title} of ${book.title}${author ? ` by ${author}` : ''} (${numberFormat.format(chapter.wordCount)} words, ${formatReadingTime(chapter.readingMinutes)}) and make a quiz, lesson or worksheet from it.`,
    path: `/book/${book.url}/${chapter.url}`,
    publicUrl,
    image: book.formats['image/jpeg'],
    type: 'article',
  });
}

export default function ChapterPage({ loaderData }: Route.ComponentProps) {
  const { book, chapter, chapterCount, materials, publicUrl } = loaderData;
  const bookPath = `/book/${encodeURIComponent(book.url)}`;
  const chapterHref = (url: string) => `${bookPath}/${encodeURIComponent(url)}`;
  const author = book.authors[0] ? formatAuthorName(book.authors[0].name) : '';
  const pager = (
    <nav className="chapter-pager" aria-label="Chapters">
      {chapter.previous ? (
        <Link to={chapterHref(chapter.previous.url)} rel="prev" className="button button-ghost">
          ← <span className="pager-label">Previous: {chapter.previous.title}</span>
        </Link>
      ) : (
        <span />
      )}
      {chapter.next ? (
        <Link to={chapterHref(chapter.next.url)} rel="next" className="button button-ghost">
          <span className="pager-label">Next: {chapter.next.title}</span> →
        </Link>
      ) : null}
    </nav>
  );
  return (
    <article className="container page chapter-page">
      <JsonLd
        data={{
          '@context': 'https://schema.org',
          '@type': 'Chapter',
          name: chapter.title,
          position: chapter.index + 1,
          url: `${publicUrl}${chapterHref(chapter.url)}`,
          isPartOf: {
            '@type': 'Book',
            name: book.title,
            url: `${publicUrl}${bookPath}`,
            ...(author ? { author: { '@type': 'Person', name: author } } : {}),
          },
        }}
      />
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to="/books">Books</Link>
        <span aria-hidden="true"> / </span>
        <Link to={bookPath}>{book.title}</Link>
      </nav>
      <header className="chapter-head">
        {/* One text per element: no React text separators in the markup. */}
        <p className="eyebrow">{author ? `${book.title} · ${author}` : book.title}</p>
        <h1>{chapter.title}</h1>
        <p className="muted chapter-facts">
          {`${numberFormat.format(chapter.wordCount)} words · ${formatReadingTime(chapter.readingMinutes)} read · `}
          <span title="Flesch–Kincaid grade level">{formatGrade(chapter.readingGrade)}</span>
        </p>
        <div className="chapter-actions">
          <Link className="button button-primary" to={materialGeneratorHref(book.url, chapter.url)}>
            Create materials from this chapter
          </Link>
          <ChapterMenu bookUrl={book.url} chapterUrl={chapter.url} count={chapterCount} />
        </div>
      </header>
      <ChapterMaterials
        materials={materials}
        offer={
          <ChapterPackOffer bookUrl={book.url} chapterUrl={chapter.url} count={materials.length} />
        }
      />
      <ChapterText key={chapter.url} text={chapter.text} />
      {pager}
      <p className="muted source-note">Source: Project Gutenberg. Public domain in the USA.</p>
    </article>
  );
}
