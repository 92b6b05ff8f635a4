import { STORAGE_KEYS, THEMES, type Theme } from '@chapterwise/shared';

/**
 * Runs in <head> before the first paint so a dark-mode reader never sees a white flash.
 * It reads the stored choice (or the system preference when there is none).
 */
export const THEME_BOOT_SCRIPT = `(function(){try{var t=localStorage.getItem(${JSON.stringify(
  STORAGE_KEYS.theme,
)});var d=t===${JSON.stringify(THEMES.dark)}||(t===null&&window.matchMedia&&matchMedia('(prefers-color-scheme: dark)').matches);document.documentElement.dataset.theme=d?'dark':'light';}catch(e){document.documentElement.dataset.theme='light';}})();`;

export function readTheme(): Theme {
  if (typeof document === 'undefined') return THEMES.light;
  return document.documentElement.dataset.theme === 'dark' ? THEMES.dark : THEMES.light;
}

/** Applies and stores the theme ('dark-mode' or 'default', spec §2). */
export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme === THEMES.dark ? 'dark' : 'light';
  try {
    window.localStorage.setItem(STORAGE_KEYS.theme, theme);
  } catch {
    // Storage refused: the choice lasts for this page.
  }
}
