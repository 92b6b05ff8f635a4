import { PRODUCT_NAME } from '@chapterwise/shared';
import { Link } from 'react-router';

const MARK_ID = 'logo-mark';

/**
 * The product mark: an open book with a check, linking home. The header draws the mark once
 * as a `<symbol>` (`defineMark`) and every other logo on the page (the footer's) reuses it
 * with `<use>`: a page carries the drawing once (issue 18). Its colours are the theme's
 * custom properties, which `<use>` inherits, so it follows dark mode.
 */
export function Logo({ defineMark = false }: { defineMark?: boolean }) {
  return (
    <Link to="/" className="logo" aria-label={`${PRODUCT_NAME} home`}>
      <svg width="32" height="32" aria-hidden="true" focusable="false">
        {defineMark ? (
          <symbol id={MARK_ID} viewBox="0 0 32 32">
            <rect width="32" height="32" rx="8" fill="var(--color-primary)" />
            <path
              d="M7 10.5c3-1.2 6-1 9 .8 3-1.8 6-2 9-.8v12c-3-1.2-6-1-9 .8-3-1.8-6-2-9-.8zM16 11.3v12"
              fill="none"
              stroke="#fff"
              strokeWidth="1.8"
              strokeLinejoin="round"
            />
            <path
              d="M18.8 16.6l1.8 1.8 3.4-3.6"
              fill="none"
              stroke="var(--color-accent)"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </symbol>
        ) : null}
        <use href={`#${MARK_ID}`} />
      </svg>
      <span className="logo-text">{PRODUCT_NAME}</span>
    </Link>
  );
}
