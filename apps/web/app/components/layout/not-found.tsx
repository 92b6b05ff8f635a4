import { useId, type ReactNode } from 'react';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

export interface NotFoundProps {
  /** What could not be found, lower case: "post" → "Post not found", "We couldn't find that post". */
  thing?: string;
  /** Why it may be missing. */
  explanation?: ReactNode;
  /** Where to go instead: the first is the primary button. */
  actions?: ReadonlyArray<{ to: string; label: string }>;
}

const BROWSE_OR_HOME = [
  { to: '/books', label: 'Browse books' },
  { to: '/', label: 'Go home' },
] as const;

/** The 404 page (served with HTTP 404): the site's, or a missing post, profile, artwork… */
export function NotFound({
  thing = 'page',
  explanation = 'The link may be old, or the page may have moved. Try the book directory or head back home.',
  actions = BROWSE_OR_HOME,
}: NotFoundProps) {
  const titleId = useId();
  const title = `${thing.charAt(0).toUpperCase()}${thing.slice(1)} not found`;
  return (
    <section className="container page-narrow error-page" aria-labelledby={titleId}>
      <title>{`${title} | Chapterwise`}</title>
      <meta name="robots" content="noindex" />
      <p className="eyebrow">404</p>
      <h1 id={titleId}>We couldn't find that {thing}</h1>
      <p>{explanation}</p>
      <div className="button-row">
        {actions.map((action, i) => (
          <Link
            key={action.to}
            className={`button ${i === 0 ? 'button-primary' : 'button-ghost'}`}
            to={action.to}
          >
            {action.label}
          </Link>
        ))}
      </div>
    </section>
  );
}

/**
 * A route's `ErrorBoundary` for a loader's 404 ("no such post"): the 404 page saying what is
 * missing. Any other error goes on to the root's boundary.
 */
export function notFoundBoundary(props: NotFoundProps) {
  return function NotFoundBoundary() {
    const error = useRouteError();
    if (!isRouteErrorResponse(error) || error.status !== 404) throw error;
    return <NotFound {...props} />;
  };
}
