import { Link } from 'react-router';
import type { BookCardData } from '../api';

/**
 * A book in a grid (spec §2 cards): cover, title, first author and 'View Materials'. The card
 * is one link, the title's, stretched over the whole card by CSS: every part of the card
 * opens the book, a screen reader hears one link named by the title, the keyboard stops once
 * per card, and a grid of 24 cards does not carry 72 links (issue 18).
 */
export function BookCard({ book, headingLevel = 3 }: { book: BookCardData; headingLevel?: 2 | 3 }) {
  const Heading = `h${headingLevel}` as const;
  return (
    <article className="book-card">
      <img
        className="book-card-cover"
        src={book.cover}
        alt=""
        width={200}
        height={300}
        loading="lazy"
        decoding="async"
      />
      <Heading className="book-card-title">
        <Link to={`/book/${encodeURIComponent(book.url)}`}>{book.title}</Link>
      </Heading>
      <p className="book-card-author">{book.author}</p>
      {/* Part of the card's link: shown as its call to action, not a second link. */}
      <span className="button button-ghost button-sm" aria-hidden="true">
        View Materials
      </span>
    </article>
  );
}

export function BookGrid({ books, headingLevel }: { books: BookCardData[]; headingLevel?: 2 | 3 }) {
  return (
    <ul className="book-grid">
      {books.map((book) => (
        <li key={book.url}>
          <BookCard book={book} {...(headingLevel ? { headingLevel } : {})} />
        </li>
      ))}
    </ul>
  );
}
