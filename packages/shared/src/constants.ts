// Constants only, no zod: the page shell (header, footer, API client) imports these, and
// every page loads what the shell imports (issue 18).

/** What the client shows when a failed call carries no message (spec §8). */
export const FALLBACK_ERROR_MESSAGE = 'Ooops, something went wrong';

/**
 * After Google's consent page the server sends the teacher back to `returnTo` with these query
 * parameters: `googleForms=created&formId=…&questions=N`, or `googleForms=error&reason=…`
 * (google-forms.ts).
 */
export const GOOGLE_FORMS_RESULT_PARAM = 'googleForms';

/** Local-storage keys (spec §9: one for the auth token, one for the theme). */
export const STORAGE_KEYS = {
  auth: 'token',
  theme: 'theme',
} as const;

/** Theme values stored under STORAGE_KEYS.theme. */
export const THEMES = { dark: 'dark-mode', light: 'default' } as const;
export type Theme = (typeof THEMES)[keyof typeof THEMES];

/** Width at or below which the header collapses into the mobile menu. */
export const MOBILE_BREAKPOINT_PX = 992;

/** Paging of every list answer. */
export const PAGE_SIZE_DEFAULT = 24;
export const PAGE_SIZE_MAX = 100;

/** Largest JSON body the API accepts on ordinary routes. */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

/** Where the AI Teaching Assistant lives: an external chat site, opened with `?a=<chat token>`. */
export const DEFAULT_CHAT_URL = 'https://chat.chapterwise.app';

/** Product name shown in titles and the header. */
export const PRODUCT_NAME = 'Chapterwise';
