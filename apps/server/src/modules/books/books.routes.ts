import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BookTextAnswerSchema,
  BookAnswerSchema,
  BooksAnswerSchema,
  BooksQuerySchema,
  BookSubjectsAnswerSchema,
  BookUrlQuerySchema,
  ChapterAnswerSchema,
  ChapterQuerySchema,
} from '@chapterwise/shared';
import { perIp } from '../../lib/rate-limit.js';
import { createTextSource } from '../../providers/texts/index.js';
import { matchesEtag, type CachedAnswer } from './books.cache.js';
import { BooksService } from './books.service.js';
import { PreparePool } from './text/prepare-pool.js';
import { BOOK_TEXT_QUEUE, BookTextsService } from './texts/book-texts.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    books: BooksService;
    /** Texts fetched on demand; `bookTexts.events` emits `chapters-changed` (decision 014). */
    bookTexts: BookTextsService;
  }
}

/** Browsers and proxies may reuse catalogue answers briefly; the ETag makes reuse cheap. */
const CATALOGUE_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=600';

/**
 * Sends a cached answer as it is (bytes serialised once, when the cache entry was made),
 * or 304 when the client already has it. Fastify sends a Buffer without serialising it.
 */
function sendCached(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: CachedAnswer,
  cacheControl = CATALOGUE_CACHE_CONTROL,
) {
  if (matchesEtag(request.headers['if-none-match'], answer.etag)) {
    return reply.code(304).headers({ etag: answer.etag, 'cache-control': cacheControl }).send();
  }
  return reply
    .headers({
      etag: answer.etag,
      'cache-control': cacheControl,
      'content-type': 'application/json; charset=utf-8',
    })
    .send(answer.body);
}

/**
 * The catalogue calls (spec §7): lists and search, one book, one chapter, the subjects,
 * and book covers. All public; all cached in memory until the catalogue changes.
 */
export const booksRoutes = fp(
  async (app: FastifyInstance, options: { prefix?: string }) => {
    // The service is visible app-wide (`app.books`): other modules read chapters through it.
    const service = new BooksService(app.db, app.config.dataDir);
    app.decorate('books', service);
    // A change of the catalogue or of one book (its text fetched, its chapters' materials
    // added), here or on another instance, drops the cached answers; a newer catalogue
    // version found by the periodic check drops this instance's cached pages too.
    app.changes.subscribe((topic) => {
      if (topic === 'catalogue' || topic === '*' || topic.startsWith('book:')) {
        service.cache.clear();
      }
    });
    service.onCatalogueChange = () => app.changes.publishLocal('catalogue');
    app.addHook('onReady', () => service.start());
    app.addHook('onClose', async () => service.stop());

    // A fetched text is cleaned, split and measured in a thread of its own (started on the
    // first text, ended after a minute without one): a 1 MB book takes the better part of a
    // second, which the event loop does not wait for.
    const preparer = new PreparePool({ threads: 1, idleMs: 60_000 });
    const texts = new BookTextsService({
      db: app.db,
      source: createTextSource(app.config, app.database),
      jobs: app.jobs,
      log: app.log,
      preparer,
    });
    app.decorate('bookTexts', texts);
    // A text fetched here: every instance's caches of that book go at once (ChangeBus); the
    // periodic check also finds texts fetched elsewhere, should a notification be lost.
    texts.events.on('chapters-changed', ({ url }) => app.changes.publish(`book:${url}`));
    service.onBookChange = (url) => app.changes.publishLocal(`book:${url}`);
    app.jobs.define<{ bookId: number }>(BOOK_TEXT_QUEUE, (data) => texts.run(data.bookId), {
      batchSize: 1,
    });
    app.addHook('onClose', async () => {
      await texts.idle();
      await preparer.close();
    });
    app.sitemaps.add({
      name: 'books',
      pageCount: () => service.sitemapPageCount(),
      paths: (page) => service.sitemapPaths(page),
    });
    const prefix = options.prefix ?? '/api/v1';
    // Server rendering reads the catalogue directly: the routes' schemas and cached bytes.
    app.pageReads.add(`${prefix}/getgutenbergbooks`, {
      query: BooksQuerySchema,
      answer: async (query) => (await service.listBooksCached(query)).body,
    });
    app.pageReads.add(`${prefix}/getgutenbergbook`, {
      query: BookUrlQuerySchema,
      answer: async (query) => (await service.getBookCached(query.url)).body,
    });
    app.pageReads.add(`${prefix}/getgutenbergbookchapter`, {
      query: ChapterQuerySchema,
      answer: async (query) => (await service.getChapterCached(query.url, query.chapterUrl)).body,
    });
    app.pageReads.add(`${prefix}/getbooksubjects`, {
      query: z.object({}),
      answer: async () => (await service.subjectsCached()).body,
    });
    await app.register(catalogueRoutes(service), { prefix: options.prefix ?? '/api/v1' });
    await app.register(textRoutes(texts), { prefix: options.prefix ?? '/api/v1' });
  },
  { name: 'books', dependencies: ['db', 'sitemap', 'page-reads'] },
);

const catalogueRoutes = (service: BooksService): FastifyPluginAsyncZod =>
  async function catalogue(app) {
    app.get(
      '/getgutenbergbooks',
      {
        schema: {
          tags: ['books'],
          summary: 'Books: sorted, filtered by subject or author slug, or searched (paged)',
          querystring: BooksQuerySchema,
          response: { 200: BooksAnswerSchema },
        },
        // The hot path (the home grid, directory pages): a URL answered before is answered
        // again from memory before validation and the handler run. Only URLs that passed
        // validation are remembered, and the random order without a seed never is.
        onRequest: (request, reply, done) => {
          const hit = service.cache.getByUrl(request.url);
          if (!hit) return done();
          sendCached(request, reply, hit);
        },
      },
      async (request, reply) => {
        const answer = await service.listBooksCached(request.query);
        const unseededRandom = request.query.sort === 'random' && request.query.seed === undefined;
        if (!unseededRandom) service.cache.setByUrl(request.url, answer);
        return sendCached(
          request,
          reply,
          answer,
          unseededRandom ? 'public, max-age=30' : CATALOGUE_CACHE_CONTROL,
        );
      },
    );

    app.get(
      '/getgutenbergbook',
      {
        schema: {
          tags: ['books'],
          summary: 'One book with its chapter list',
          querystring: BookUrlQuerySchema,
          response: { 200: BookAnswerSchema },
        },
      },
      async (request, reply) =>
        sendCached(request, reply, await service.getBookCached(request.query.url)),
    );

    app.get(
      '/getgutenbergbookchapter',
      {
        schema: {
          tags: ['books'],
          summary: 'One chapter of a book, with the previous and next chapters',
          querystring: ChapterQuerySchema,
          response: { 200: ChapterAnswerSchema },
        },
      },
      async (request, reply) =>
        sendCached(
          request,
          reply,
          await service.getChapterCached(request.query.url, request.query.chapterUrl),
        ),
    );

    app.get(
      '/getbooksubjects',
      {
        schema: {
          tags: ['books'],
          summary: 'The teacher-facing subjects with their numbers of books',
          response: { 200: BookSubjectsAnswerSchema },
        },
      },
      async (request, reply) => sendCached(request, reply, await service.subjectsCached()),
    );

    app.get(
      '/books/:id/cover.jpg',
      {
        schema: {
          tags: ['books'],
          summary: 'A book cover (JPEG): the public-domain cover, or a generated one',
          params: z.object({ id: z.coerce.number().int().min(1).max(10_000_000) }),
          querystring: z.object({ v: z.string().max(64).optional() }),
        },
      },
      async (request, reply) => {
        const cover = await service.getCover(request.params.id);
        reply
          .header('etag', cover.etag)
          .header(
            'cache-control',
            request.query.v ? 'public, max-age=31536000, immutable' : 'public, max-age=86400',
          )
          // Covers are shown by other sites' previews (Open Graph) too.
          .header('cross-origin-resource-policy', 'cross-origin');
        if (matchesEtag(request.headers['if-none-match'], cover.etag))
          return reply.code(304).send();
        return reply.type('image/jpeg').send(cover.jpeg);
      },
    );
  };

/** Texts on demand: the state of a book's text, and "Try again". Never cached. */
const textRoutes = (texts: BookTextsService): FastifyPluginAsyncZod =>
  async function bookTexts(app) {
    app.get(
      '/getgutenbergbooktext',
      {
        schema: {
          tags: ['books'],
          summary:
            'The state of a book’s text; asks for it when the book has no chapters yet (fetched in the background)',
          querystring: BookUrlQuerySchema,
          response: { 200: BookTextAnswerSchema },
        },
      },
      async (request, reply) => {
        const state = await texts.requestByUrl(request.query.url);
        reply.header('cache-control', 'no-store');
        return { data: state };
      },
    );

    app.post(
      '/fetchgutenbergbooktext',
      {
        schema: {
          tags: ['books'],
          summary: 'Try again: asks for a book’s text after a failure',
          body: BookUrlQuerySchema,
          response: { 200: BookTextAnswerSchema },
        },
        config: { rateLimit: perIp({ max: 30, minutes: 10 }, app.config.rateLimitScale) },
      },
      async (request, reply) => {
        const state = await texts.requestByUrl(request.body.url, { manual: true });
        reply.header('cache-control', 'no-store');
        return { data: state };
      },
    );
  };
