import type { BookCardData } from '../api';
import { useId, useRef } from 'react';
import { BookCard } from './book-card';

/**
 * Related books in a slider showing 1 to 4 cards by breakpoint (CSS scroll snap). The track
 * scrolls with the arrow keys when focused, and the Previous/Next buttons move one card.
 */
export function RelatedSlider({ books, title }: { books: BookCardData[]; title: string }) {
  const track = useRef<HTMLUListElement>(null);
  const headingId = useId();
  if (books.length === 0) return null;
  const move = (direction: 1 | -1) => {
    const el = track.current;
    if (!el) return;
    const card = el.querySelector('li');
    const step = card ? card.getBoundingClientRect().width + 20 : el.clientWidth;
    el.scrollBy({ left: direction * step, behavior: 'smooth' });
  };
  return (
    <section className="related" aria-labelledby={headingId} aria-roledescription="carousel">
      <div className="section-head">
        <h2 id={headingId}>{title}</h2>
        <div className="slider-buttons">
          <button
            type="button"
            className="icon-button slider-button"
            aria-label="Previous books"
            onClick={() => move(-1)}
          >
            <span aria-hidden="true">‹</span>
          </button>
          <button
            type="button"
            className="icon-button slider-button"
            aria-label="Next books"
            onClick={() => move(1)}
          >
            <span aria-hidden="true">›</span>
          </button>
        </div>
      </div>
      <ul
        className="slider-track"
        ref={track}
        tabIndex={0}
        aria-label={`${title}: use the arrow keys to scroll`}
        onKeyDown={(event) => {
          if (event.key === 'ArrowRight') {
            event.preventDefault();
            move(1);
          } else if (event.key === 'ArrowLeft') {
            event.preventDefault();
            move(-1);
          }
        }}
      >
        {books.map((book, i) => (
          <li
            key={book.url}
            aria-roledescription="slide"
            aria-label={`${i + 1} of ${books.length}`}
          >
            <BookCard book={book} />
          </li>
        ))}
      </ul>
    </section>
  );
}
