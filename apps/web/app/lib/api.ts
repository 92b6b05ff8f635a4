import { FALLBACK_ERROR_MESSAGE, STORAGE_KEYS } from '@chapterwise/shared';

/** An API answer that was not 2xx, with the server's message and code. */
export class ApiClientError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
    this.name = 'ApiClientError';
  }
}

export interface ApiRequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  /** The fetch to use: the loader context's `apiFetch` on the server, window.fetch in the browser. */
  fetch?: typeof fetch;
  /** Send the stored bearer token (browser only). Defaults to true. */
  auth?: boolean;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/** The stored session token, if any (browser only). */
export function readStoredToken(): string | null {
  if (typeof window === 'undefined') return null;
  try {
    return window.localStorage.getItem(STORAGE_KEYS.auth);
  } catch {
    return null;
  }
}

/** Builds `/api/v1/...` with a query string, leaving out empty values. */
export function apiPath(path: string, query?: ApiRequestOptions['query']): string {
  const url = `/api/v1${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

/**
 * The one HTTP client of the web app. Throws ApiClientError carrying the server's
 * `errors.message`, or the spec's fallback sentence when there is none.
 */
export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.auth !== false) {
    const token = readStoredToken();
    if (token) headers.authorization = `Bearer ${token}`;
  }
  const doFetch = options.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(apiPath(path, options.query), {
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
      cache: 'no-store',
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiClientError(
      'Could not reach the server. Check your connection and try again.',
      0,
      'NETWORK',
    );
  }
  const text = await response.text();
  let json: unknown = undefined;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  if (!response.ok) {
    const errors = (json as { errors?: { message?: unknown; code?: unknown } } | undefined)?.errors;
    throw new ApiClientError(
      typeof errors?.message === 'string' && errors.message
        ? errors.message
        : FALLBACK_ERROR_MESSAGE,
      response.status,
      typeof errors?.code === 'string' ? errors.code : 'UNKNOWN',
    );
  }
  return json as T;
}

/** The message to show for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return FALLBACK_ERROR_MESSAGE;
}
