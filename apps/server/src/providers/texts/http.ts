import { RateLimiter } from './limiter.js';
import { chainLimiters, type Limiter } from './shared-limiter.js';
import {
  decodeText,
  textPath,
  TextFetchError,
  type FetchedText,
  type FetchOptions,
  type TextSource,
} from './texts.js';

export interface HttpTextSourceOptions {
  /** The mirror's base URL (https://www.gutenberg.org). */
  baseUrl: string;
  userAgent: string;
  /** Request starts per second to this host, and requests at once. */
  ratePerSecond: number;
  concurrency: number;
  /** How long the headers, and then each pause in the body, may take. */
  timeoutMs: number;
  maxBytes: number;
  /** Attempts after the first on 429, 5xx, timeouts and network errors. */
  retries?: number;
  /** The first backoff (doubled each time, with jitter); a Retry-After is honoured up to 60 s. */
  retryBaseMs?: number;
  /**
   * The same rate and concurrency shared with other processes (`SharedRateLimiter`, on
   * PostgreSQL); this process keeps its own limit in front of it either way.
   */
  shared?: Limiter;
}

const MAX_REDIRECTS = 5;
const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Project Gutenberg, or any mirror of its cache layout, over HTTP: one rate limiter for the
 * host (shared by every process on PostgreSQL), a clear User-Agent, timeouts, retries with backoff, a size cap, content-type and
 * encoding checks, and redirects followed only within the same host.
 */
export class HttpTextSource implements TextSource {
  readonly description: string;
  private readonly base: URL;
  private readonly limiter: Limiter;

  constructor(private readonly options: HttpTextSourceOptions) {
    this.base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
    this.description = this.base.href.replace(/\/$/, '');
    const local = new RateLimiter(options.ratePerSecond, options.concurrency);
    this.limiter = options.shared ? chainLimiters(local, options.shared) : local;
  }

  async fetchText(id: number, options: FetchOptions = {}): Promise<FetchedText> {
    const url = new URL(textPath(id), this.base);
    const retries = this.options.retries ?? 3;
    const baseDelay = this.options.retryBaseMs ?? 1000;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.limiter.run(() => this.attempt(url, options));
      } catch (error) {
        const failure = asFetchError(error);
        if (!failure.retryable || attempt >= retries || options.signal?.aborted) throw failure;
        const backoff = baseDelay * 2 ** attempt * (0.75 + Math.random() * 0.5);
        const wait = failure instanceof RetryAfterError ? failure.afterMs : backoff;
        await sleep(Math.min(MAX_RETRY_AFTER_MS, Math.max(wait, backoff)), options.signal);
      }
    }
  }

  private async attempt(start: URL, options: FetchOptions): Promise<FetchedText> {
    let url = start;
    for (let hop = 0; ; hop++) {
      const controller = new AbortController();
      const abort = () => controller.abort();
      options.signal?.addEventListener('abort', abort, { once: true });
      let timer = setTimeout(abort, this.options.timeoutMs);
      try {
        const response = await fetch(url, {
          redirect: 'manual',
          signal: controller.signal,
          headers: { 'user-agent': this.options.userAgent, accept: 'text/plain' },
        });
        if (response.status >= 300 && response.status < 400) {
          await response.body?.cancel();
          url = this.sameHostRedirect(url, response.headers.get('location'), hop);
          continue;
        }
        if (!response.ok) {
          await response.body?.cancel();
          throw statusError(response);
        }
        const type = response.headers.get('content-type') ?? '';
        const [mime, ...params] = type.split(';').map((s) => s.trim().toLowerCase());
        if (mime !== 'text/plain') {
          await response.body?.cancel();
          throw new TextFetchError(
            'not_text',
            `The answer was ${mime || 'of no type'}, not a plain text.`,
          );
        }
        const charset = params.find((p) => p.startsWith('charset='))?.slice(8) ?? null;
        const announced = Number(response.headers.get('content-length') ?? NaN);
        const total = Number.isFinite(announced) ? announced : null;
        if (total !== null && total > this.options.maxBytes) {
          await response.body?.cancel();
          throw tooLarge(this.options.maxBytes);
        }
        const chunks: Uint8Array[] = [];
        let received = 0;
        options.onProgress?.(0, total);
        const reader = response.body!.getReader();
        for (;;) {
          clearTimeout(timer);
          timer = setTimeout(abort, this.options.timeoutMs);
          const { done, value } = await reader.read();
          if (done) break;
          received += value.length;
          if (received > this.options.maxBytes) {
            await reader.cancel();
            throw tooLarge(this.options.maxBytes);
          }
          chunks.push(value);
          options.onProgress?.(received, total);
        }
        const bytes = Buffer.concat(chunks);
        return { text: decodeText(bytes, charset), bytes: bytes.length, source: url.href };
      } catch (error) {
        if (error instanceof TextFetchError) throw error;
        if (controller.signal.aborted) {
          if (options.signal?.aborted)
            throw new TextFetchError('timeout', 'The fetch was stopped.');
          throw new TextFetchError('timeout', `${url.host} did not answer in time.`, true);
        }
        throw new TextFetchError('offline', `${url.host} could not be reached.`, true);
      } finally {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', abort);
      }
    }
  }

  /** The next URL of a redirect, when it stays on the mirror's own host (else an error). */
  private sameHostRedirect(from: URL, location: string | null, hop: number): URL {
    if (!location || hop >= MAX_REDIRECTS) {
      throw new TextFetchError('bad_redirect', 'The mirror redirected too often or nowhere.');
    }
    let next: URL;
    try {
      next = new URL(location, from);
    } catch {
      throw new TextFetchError('bad_redirect', 'The mirror redirected to a bad address.');
    }
    const upgrade = from.protocol === 'http:' && next.protocol === 'https:';
    if (
      next.hostname !== this.base.hostname ||
      (next.protocol !== from.protocol && !upgrade) ||
      (next.port !== from.port && !upgrade)
    ) {
      throw new TextFetchError(
        'bad_redirect',
        `The mirror redirected to another host (${next.host}); it was not followed.`,
      );
    }
    return next;
  }
}

class RetryAfterError extends TextFetchError {
  constructor(
    message: string,
    readonly afterMs: number,
  ) {
    super('rate_limited', message, true);
  }
}

function statusError(response: Response): TextFetchError {
  const { status } = response;
  if (status === 404 || status === 410) {
    return new TextFetchError('not_found', 'The mirror has no plain text of this book.');
  }
  if (status === 429 || status === 503) {
    const header = response.headers.get('retry-after');
    const seconds = Number(header);
    const date = header ? Date.parse(header) : NaN;
    const afterMs = Number.isFinite(seconds)
      ? seconds * 1000
      : Number.isFinite(date)
        ? date - Date.now()
        : 0;
    return new RetryAfterError(`The mirror asked us to slow down (HTTP ${status}).`, afterMs);
  }
  if (status >= 500) {
    return new TextFetchError('server_error', `The mirror failed (HTTP ${status}).`, true);
  }
  return new TextFetchError('server_error', `The mirror refused (HTTP ${status}).`);
}

function tooLarge(maxBytes: number): TextFetchError {
  return new TextFetchError(
    'too_large',
    `The text is larger than ${Math.round(maxBytes / 1e6)} MB.`,
  );
}

function asFetchError(error: unknown): TextFetchError {
  if (error instanceof TextFetchError) return error;
  return new TextFetchError(
    'offline',
    error instanceof Error ? error.message : String(error),
    true,
  );
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
