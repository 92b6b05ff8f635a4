import {
  BOOK_SORT_TABS,
  BOOK_SEARCH_MAX_LENGTH,
  SUBJECTS,
  type BookSort,
} from '@chapterwise/shared';
import { Form, Link, useNavigation } from 'react-router';
import { Pagination } from '../../../components/ui/pagination';
import { numberFormat, type BookCardData } from '../api';
import { BookGrid } from './book-card';

export interface DirectoryProps {
  heading: string;
  intro?: string | undefined;
  /** The page's own path: /books or /books/{slug}. */
  basePath: string;
  books: BookCardData[];
  count: number;
  page: number;
  pageCount: number;
  sort: BookSort;
  query: string;
  seed?: number | undefined;
  /** Books per subject, in `SUBJECTS` order. */
  subjectCounts: readonly number[];
  currentSubject?: string | undefined;
}

/** Builds a directory link keeping the other parameters. */
export function directoryHref(
  basePath: string,
  params: { sort?: BookSort; query?: string; page?: number; seed?: number | undefined },
): string {
  const search = new URLSearchParams();
  if (params.query) search.set('query', params.query);
  if (params.sort && params.sort !== 'download_count') search.set('sort', params.sort);
  if (params.sort === 'random' && params.seed !== undefined)
    search.set('seed', String(params.seed));
  if (params.page && params.page > 1) search.set('page', String(params.page));
  const qs = search.toString();
  return qs ? `${basePath}?${qs}` : basePath;
}

/**
 * The book directory (spec §2): search box (Enter or the button; `query` prefills it), sort
 * tabs Random / Popular / Recent, the collapsible category list with 'All Categories', the
 * card grid and paging.
 */
export function Directory(props: DirectoryProps) {
  const navigation = useNavigation();
  const busy = navigation.state === 'loading' && navigation.location?.pathname.startsWith('/books');
  const newSeed = () => Math.floor(Math.random() * 1_000_000);
  return (
    <div className="container page directory">
      <header className="directory-head">
        <h1>{props.heading}</h1>
        {props.intro ? <p className="lead">{props.intro}</p> : null}
        <Form method="get" action={props.basePath} className="search-form" role="search">
          <label htmlFor="book-search" className="visually-hidden">
            Search books by title or author
          </label>
          <input
            id="book-search"
            type="search"
            name="query"
            defaultValue={props.query}
            key={props.query}
            maxLength={BOOK_SEARCH_MAX_LENGTH}
            placeholder="Search by title or author"
            autoComplete="off"
          />
          {props.sort !== 'download_count' ? (
            <input type="hidden" name="sort" value={props.sort} />
          ) : null}
          <button type="submit" className="button button-primary">
            Search
          </button>
        </Form>
      </header>

      <div className="directory-layout">
        <aside className="directory-aside">
          <details className="category-list" open>
            <summary>Categories</summary>
            <nav aria-label="Book categories">
              <ul>
                <li>
                  <Link to="/books" aria-current={props.currentSubject ? undefined : 'page'}>
                    All Categories
                  </Link>
                </li>
                {SUBJECTS.map((s, i) => (
                  <li key={s.slug}>
                    <Link
                      to={`/books/${s.slug}`}
                      aria-current={props.currentSubject === s.slug ? 'page' : undefined}
                    >
                      {s.name}
                      <span className="category-count">
                        {numberFormat.format(props.subjectCounts[i] ?? 0)}
                      </span>
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          </details>
        </aside>

        <section className="directory-main" aria-labelledby="results-heading" aria-busy={busy}>
          <nav className="tabs" aria-label="Sort books">
            {BOOK_SORT_TABS.map((tab) => (
              <Link
                key={tab.sort}
                className="tab"
                to={directoryHref(props.basePath, {
                  sort: tab.sort,
                  query: props.query,
                  ...(tab.sort === 'random' ? { seed: newSeed() } : {}),
                })}
                aria-current={props.sort === tab.sort ? 'page' : undefined}
                preventScrollReset
              >
                {tab.label}
              </Link>
            ))}
          </nav>
          <h2 id="results-heading" className="results-count">
            {props.query
              ? `${numberFormat.format(props.count)} ${props.count === 1 ? 'book matches' : 'books match'} “${props.query}”`
              : `${numberFormat.format(props.count)} ${props.count === 1 ? 'book' : 'books'}`}
          </h2>
          {props.books.length > 0 ? (
            <BookGrid books={props.books} />
          ) : (
            <div className="empty-state">
              <p>
                {props.query
                  ? `No books match “${props.query}”. Try fewer words, or check the spelling of the title or author.`
                  : 'No books here yet.'}
              </p>
              <Link to="/books">Browse all books</Link>
            </div>
          )}
          <Pagination
            page={props.page}
            pageCount={props.pageCount}
            label="Pages of books"
            hrefFor={(page) =>
              directoryHref(props.basePath, {
                sort: props.sort,
                query: props.query,
                page,
                seed: props.seed,
              })
            }
          />
        </section>
      </div>
    </div>
  );
}
