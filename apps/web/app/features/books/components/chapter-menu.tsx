import { useState } from 'react';
import { Link } from 'react-router';
import { Loading } from '../../../components/ui/loading';
import { useBookChapters } from '../api';

/**
 * "All chapters (N)": a disclosure listing the book's chapters, the current one marked. The
 * list is read when the menu is first opened: a chapter page does not carry the titles of all
 * the others in its data (issue 18), and the book page links every chapter for crawlers.
 */
export function ChapterMenu(props: { bookUrl: string; chapterUrl: string; count: number }) {
  const [open, setOpen] = useState(false);
  const chapters = useBookChapters(props.bookUrl, open);
  const bookPath = `/book/${encodeURIComponent(props.bookUrl)}`;
  return (
    <details className="chapter-menu" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="button button-ghost">{`All chapters (${props.count})`}</summary>
      {!open ? null : chapters.data ? (
        <ol className="chapter-menu-list">
          {chapters.data.map((c) => (
            <li key={c.url}>
              <Link
                to={`${bookPath}/${encodeURIComponent(c.url)}`}
                aria-current={c.url === props.chapterUrl ? 'page' : undefined}
              >
                {c.title}
              </Link>
            </li>
          ))}
        </ol>
      ) : (
        <div className="chapter-menu-list">
          {chapters.isError ? (
            <p role="alert">
              The chapters could not be loaded. <Link to={bookPath}>See them on the book page</Link>
            </p>
          ) : (
            <Loading label="Loading chapters…" />
          )}
        </div>
      )}
    </details>
  );
}
