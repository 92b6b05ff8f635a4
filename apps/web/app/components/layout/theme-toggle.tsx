import { THEMES } from '@chapterwise/shared';
import { useEffect, useState } from 'react';
import { applyTheme, readTheme } from '../../lib/theme';

/** Switches between light and dark; the choice is stored and applied before first paint. */
export function ThemeToggle() {
  // The server cannot know the stored theme; the button settles after hydration.
  const [dark, setDark] = useState<boolean | null>(null);
  useEffect(() => setDark(readTheme() === THEMES.dark), []);

  return (
    <button
      type="button"
      className="icon-button theme-toggle"
      aria-label={dark ? 'Switch to light mode' : 'Switch to dark mode'}
      aria-pressed={dark ?? false}
      onClick={() => {
        const next = !dark;
        applyTheme(next ? THEMES.dark : THEMES.light);
        setDark(next);
      }}
    >
      {/* One drawing with both icons; the stylesheet shows the one of the current theme. */}
      <svg
        viewBox="0 0 24 24"
        width="20"
        height="20"
        aria-hidden="true"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      >
        <path
          className="theme-icon-moon"
          d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z"
          strokeLinejoin="round"
        />
        <g className="theme-icon-sun" strokeLinecap="round">
          <circle cx="12" cy="12" r="4.5" />
          <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
        </g>
      </svg>
    </button>
  );
}
