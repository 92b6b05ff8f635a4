import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { z } from 'zod';
import { AppError } from './errors.js';

/** One public read that server rendering may call without a request: the route's own parts. */
export interface PageRead<Schema extends z.ZodType> {
  /** The route's querystring schema (the same validation as the API). */
  query: Schema;
  /** The route's answer as JSON bytes, exactly as the API sends it. */
  answer: (query: z.output<Schema>) => Promise<Buffer | string>;
}

/** What a direct read gives the page's loader: the API's status and JSON. */
export interface PageReadAnswer {
  status: number;
  body: Buffer | string;
}

/**
 * Public API reads that server rendering calls directly (decision 022, "Cold renders"). A page's
 * loaders reach the API through `app.inject`: a whole Fastify request (routing, hooks, logging,
 * serialisation, a fake socket) per call, three per chapter page. The module that owns a public
 * GET route registers here the route's query schema and the function that makes its answer's
 * bytes, and `plugins/web.ts` calls them for guests' pages: the same validation, the same JSON.
 * Anything else — another route, a request with a session, an invalid or repeated query
 * parameter, an error that is not an `AppError` — still goes through the API, so its answer is
 * the API's own.
 */
export class PageReads {
  private readonly reads = new Map<string, PageRead<z.ZodType>>();

  /** Registers the direct read of `path` (the route's full path, `/api/v1/...`). */
  add<Schema extends z.ZodType>(path: string, read: PageRead<Schema>): void {
    if (this.reads.has(path)) throw new Error(`A page read for ${path} is already registered.`);
    this.reads.set(path, read as unknown as PageRead<z.ZodType>);
  }

  has(path: string): boolean {
    return this.reads.has(path);
  }

  /**
   * The answer of a GET of `url`, or undefined when it is not a direct read (the caller asks
   * the API). An `AppError` becomes the API's error answer (`{ errors: { message, code } }`).
   */
  async read(url: URL): Promise<PageReadAnswer | undefined> {
    const read = this.reads.get(url.pathname);
    if (!read) return undefined;
    const raw: Record<string, string> = {};
    for (const [key, value] of url.searchParams) {
      // Fastify reads a repeated parameter as an array: leave that to the API.
      if (Object.hasOwn(raw, key)) return undefined;
      raw[key] = value;
    }
    const parsed = read.query.safeParse(raw);
    if (!parsed.success) return undefined;
    try {
      return { status: 200, body: await read.answer(parsed.data) };
    } catch (error) {
      if (error instanceof AppError && error.status < 500) {
        return {
          status: error.status,
          body: JSON.stringify({ errors: { message: error.message, code: error.code } }),
        };
      }
      return undefined;
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Public reads that server rendering calls directly (`lib/page-reads.ts`). */
    pageReads: PageReads;
  }
}

export const pageReadsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('pageReads', new PageReads());
  },
  { name: 'page-reads' },
);
