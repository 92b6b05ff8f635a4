import { Link } from 'react-router';

export interface PaginationProps {
  page: number;
  pageCount: number;
  /** Builds the link of a page, keeping the other query parameters. */
  hrefFor: (page: number) => string;
  label?: string;
}

/** Numbered pages with previous/next, as links (so they work without JavaScript and for crawlers). */
export function Pagination({ page, pageCount, hrefFor, label = 'Pages' }: PaginationProps) {
  if (pageCount <= 1) return null;
  const pages = new Set<number>([1, pageCount, page - 1, page, page + 1]);
  const shown = [...pages].filter((p) => p >= 1 && p <= pageCount).sort((a, b) => a - b);
  const items: Array<number | 'gap'> = [];
  shown.forEach((p, i) => {
    if (i > 0 && p - shown[i - 1]! > 1) items.push('gap');
    items.push(p);
  });
  return (
    <nav aria-label={label}>
      <ul className="pagination">
        {page > 1 ? (
          <li>
            <Link to={hrefFor(page - 1)} rel="prev">
              ← Previous
            </Link>
          </li>
        ) : null}
        {items.map((item, i) =>
          item === 'gap' ? (
            <li key={`gap-${i}`} aria-hidden="true">
              <span>…</span>
            </li>
          ) : (
            <li key={item}>
              <Link to={hrefFor(item)} aria-current={item === page ? 'page' : undefined}>
                {item}
              </Link>
            </li>
          ),
        )}
        {page < pageCount ? (
          <li>
            <Link to={hrefFor(page + 1)} rel="next">
              Next →
            </Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
