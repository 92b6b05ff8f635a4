import { Link } from 'react-router';
import { firstAuthorName, type BookCardData } from '../api';

/** A book in a grid: cover, title, first author, and links to the book (spec §2 cards). */
export function BookCard({ book, headingLevel = 3 }: { book: BookCardData; headingLevel?: 2 | 3 }) {
  const Heading = `h${headingLevel}` as const;
  const href = `/book/${encodeURIComponent(book.url)}`;
  return (
    <article className="book-card">
      <Link to={href} className="book-card-cover" tabIndex={-1} aria-hidden="true">
        <img
          src={book.formats['image/jpeg']}
          alt=""
          width={200}
          height={300}
          loading="lazy"
          decoding="async"
        />
      </Link>
      <div className="book-card-body">
        <Heading className="book-card-title">
          <Link to={href}>{book.title}</Link>
        </Heading>
        <p className="book-card-author">{firstAuthorName(book)}</p>
        <Link
          className="button button-ghost button-sm"
          to={`${href}#chapters`}
          aria-label={`View Materials for ${book.title}`}
        >
          View Materials
        </Link>
      </div>
    </article>
  );
}

export function BookGrid({ books, headingLevel }: { books: BookCardData[]; headingLevel?: 2 | 3 }) {
  return (
    <ul className="book-grid">
      {books.map((book) => (
        <li key={book._id}>
          <BookCard book={book} {...(headingLevel ? { headingLevel } : {})} />
        </li>
      ))}
    </ul>
  );
}
