import { Link } from 'react-router';

/** The 404 page (served with HTTP 404). */
export function NotFound() {
  return (
    <section className="container page-narrow error-page" aria-labelledby="not-found-title">
      <title>Page not found | Chapterwise</title>
      <meta name="robots" content="noindex" />
      <p className="eyebrow">404</p>
      <h1 id="not-found-title">We couldn't find that page</h1>
      <p>
        The link may be old, or the page may have moved. Try the book directory or head back home.
      </p>
      <div className="button-row">
        <Link className="button button-primary" to="/books">
          Browse books
        </Link>
        <Link className="button button-ghost" to="/">
          Go home
        </Link>
      </div>
    </section>
  );
}
