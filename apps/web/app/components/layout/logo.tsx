import { PRODUCT_NAME } from '@chapterwise/shared';
import { Link } from 'react-router';

/** The product mark: an open book with a check, linking home. */
export function Logo() {
  return (
    <Link to="/" className="logo" aria-label={`${PRODUCT_NAME} home`}>
      <svg width="32" height="32" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" fill="var(--color-primary)" />
        <path
          d="M7 10.5c3-1.2 6-1 9 .8 3-1.8 6-2 9-.8v12c-3-1.2-6-1-9 .8-3-1.8-6-2-9-.8z"
          fill="none"
          stroke="#fff"
          strokeWidth="1.8"
          strokeLinejoin="round"
        />
        <path d="M16 11.3v12" stroke="#fff" strokeWidth="1.8" />
        <path
          d="M18.8 16.6l1.8 1.8 3.4-3.6"
          fill="none"
          stroke="var(--color-accent)"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span className="logo-text">{PRODUCT_NAME}</span>
    </Link>
  );
}
