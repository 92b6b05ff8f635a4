/**
 * Where book texts come from: Project Gutenberg (or a mirror of it) over HTTP, or a local
 * folder laid out like PG's cache (`{base}/cache/epub/{id}/pg{id}.txt`). A source is only ever
 * asked for a book by its ebook number, an integer: the URL is built here, never taken from
 * a request, so no other host can be reached through it.
 */
export interface TextSource {
  /** What the source is, for logs and the CLI ("https://www.gutenberg.org", "folder /srv/pg"). */
  readonly description: string;
  /** The raw text (PG header and footer included), decoded; throws TextFetchError. */
  fetchText(id: number, options?: FetchOptions): Promise<FetchedText>;
}

export interface FetchOptions {
  /** Called as bytes arrive: received so far and the announced total (null when unknown). */
  onProgress?: (received: number, total: number | null) => void;
  signal?: AbortSignal;
}

export interface FetchedText {
  text: string;
  bytes: number;
  /** Where it came from (the URL or file). */
  source: string;
}

export type TextFetchErrorCode =
  | 'disabled'
  | 'not_found'
  | 'offline'
  | 'timeout'
  | 'rate_limited'
  | 'server_error'
  | 'not_text'
  | 'too_large'
  | 'bad_encoding'
  | 'bad_redirect';

/** Failures a reader can be told about in plain words; `retryable` ones are retried. */
export class TextFetchError extends Error {
  constructor(
    readonly code: TextFetchErrorCode,
    message: string,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'TextFetchError';
  }
}

/** The largest ebook number we ask for (PG's are about 77,000 today). */
export const MAX_EBOOK_ID = 10_000_000;

export function assertEbookId(id: number): void {
  if (!Number.isSafeInteger(id) || id < 1 || id > MAX_EBOOK_ID) {
    throw new TextFetchError('not_found', `Not an ebook number: ${String(id)}.`);
  }
}

/** `cache/epub/84/pg84.txt`: the path of a text under the mirror's base. */
export function textPath(id: number): string {
  assertEbookId(id);
  return `cache/epub/${id}/pg${id}.txt`;
}

/**
 * Bytes to text: UTF-8 (PG's own files), or Latin-1/Windows-1252 when the server says so.
 * Refuses what is not a plain text: HTML error pages and binary files.
 */
export function decodeText(bytes: Uint8Array, charset: string | null): string {
  const label = (charset ?? 'utf-8').trim().toLowerCase();
  let text: string;
  if (label === 'utf-8' || label === 'utf8' || label === 'us-ascii') {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new TextFetchError('bad_encoding', 'The text is not valid UTF-8.');
    }
  } else if (['iso-8859-1', 'latin1', 'latin-1', 'windows-1252', 'cp1252'].includes(label)) {
    text = new TextDecoder('windows-1252').decode(bytes);
  } else {
    throw new TextFetchError(
      'bad_encoding',
      `The text is in an encoding we do not read (${label}).`,
    );
  }
  const head = text.slice(0, 2000).trimStart().toLowerCase();
  if (head.startsWith('<!doctype') || head.startsWith('<html') || /<(head|body)[\s>]/.test(head)) {
    throw new TextFetchError('not_text', 'The answer was a web page, not a plain text.');
  }
  // eslint-disable-next-line no-control-regex
  const control = text.slice(0, 100_000).match(/[\u0000-\u0008\u000E-\u001A]/g)?.length ?? 0;
  if (control > 10) throw new TextFetchError('not_text', 'The answer was not a plain text.');
  return text;
}
