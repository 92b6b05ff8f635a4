import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BlogAdminPostAnswerSchema,
  BlogAdminPostsAnswerSchema,
  BlogAdminPostsQuerySchema,
  BlogPostAnswerSchema,
  BlogPostInputSchema,
  BlogPostsAnswerSchema,
  BlogPostsQuerySchema,
  BlogPostUrlQuerySchema,
  BlogPreviewAnswerSchema,
  BlogPreviewInputSchema,
  BlogPublishInputSchema,
  BlogTaxonomyAnswerSchema,
  ResultAnswerSchema,
} from '@chapterwise/shared';
import { AnswerCache } from '../../lib/answer-cache.js';
import { requireAdmin } from '../../plugins/auth.js';
import { BLOG_IMAGE_MAX_BASE64_CHARS } from './blog.images.js';
import { BlogService } from './blog.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    blog: BlogService;
  }
}

/** Room for a thumbnail and an author picture (5 MB each, as base64) and the Markdown. */
const POST_BODY_LIMIT = 2 * BLOG_IMAGE_MAX_BASE64_CHARS + 1024 * 1024;
const IdParamsSchema = z.object({ id: z.uuid('must be a post id') });

/**
 * The blog (spec §7 Blog): the two public calls and the sidebar's taxonomy under /api/v1,
 * the admin calls under /api/v1/blog/admin, the RSS feed at /blog/rss.xml and the posts in
 * the sitemap.
 */
export const blogRoutes = fp(
  async (app: FastifyInstance, options: { prefix?: string }) => {
    const service = new BlogService({
      db: app.db,
      storage: app.storage,
      publicUrl: app.config.publicUrl,
      log: app.log,
    });
    app.decorate('blog', service);
    app.addHook('onReady', () => service.start());
    // A scheduled post becomes visible at its date with nothing written then: each instance
    // drops its own cached blog pages at that moment (and looks for the next date after any
    // blog change).
    let timer: NodeJS.Timeout | undefined;
    const scheduleNext = async () => {
      const next = await service.nextScheduledDate();
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (!next) return;
      const wait = Math.max(0, Math.min(next.getTime() - Date.now() + 50, 2 ** 31 - 1));
      timer = setTimeout(() => {
        app.changes.publishLocal('blog'); // the listener below schedules the next one
      }, wait);
      timer.unref();
    };
    app.addHook('onReady', () => scheduleNext());
    app.changes.subscribe((topic) => {
      if (topic === 'blog' || topic === '*') void scheduleNext().catch(() => {});
    });
    app.addHook('onClose', async () => {
      if (timer) clearTimeout(timer);
    });
    app.sitemaps.add({
      name: 'blog',
      pageCount: async () => 1,
      paths: () => service.sitemapPaths(),
    });

    app.get('/blog/rss.xml', { schema: { hide: true } }, async (_request, reply) => {
      reply
        .type('application/rss+xml; charset=utf-8')
        .header('cache-control', 'public, max-age=300');
      return service.feed();
    });

    const prefix = options.prefix ?? '/api/v1';
    // Server rendering reads the public calls directly (`lib/page-reads.ts`), their answers
    // (validated and encoded by the routes' answer schemas, as Fastify's serialiser does) kept
    // as long as a cached page may be: until a blog change, the next scheduled post's date
    // (visibility is decided at read time) or 10 minutes. A blog page rendered after a change
    // shows it, as the render cache requires.
    const pageAnswers = new AnswerCache({ maxEntries: 500, maxAgeMs: 10 * 60_000 });
    app.changes.subscribe((topic) => {
      if (topic === 'blog' || topic === '*') pageAnswers.clear();
    });
    const pageAnswer = <T>(key: unknown[], schema: z.ZodType<unknown, T>, read: () => Promise<T>) =>
      pageAnswers.get(JSON.stringify(key), async () => {
        const [answer, next] = await Promise.all([read(), service.nextScheduledDate()]);
        return {
          body: JSON.stringify(z.encode(schema, answer)),
          ...(next ? { expiresAt: next.getTime() } : {}),
        };
      });
    app.pageReads.add(`${prefix}/blog/getblogposts`, {
      query: BlogPostsQuerySchema,
      answer: (query) =>
        pageAnswer(['posts', query], BlogPostsAnswerSchema, () => service.listPosts(query)),
    });
    app.pageReads.add(`${prefix}/blog/getblogpost`, {
      query: BlogPostUrlQuerySchema,
      answer: (query) =>
        pageAnswer(['post', query.url], BlogPostAnswerSchema, () => service.getPost(query.url)),
    });
    app.pageReads.add(`${prefix}/blog/getblogtaxonomy`, {
      query: z.object({}),
      answer: () => pageAnswer(['taxonomy'], BlogTaxonomyAnswerSchema, () => service.taxonomy()),
    });

    await app.register(publicRoutes(service), { prefix });
    await app.register(adminRoutes(service), {
      prefix: `${prefix}/blog/admin`,
    });
  },
  { name: 'blog', dependencies: ['db', 'auth', 'storage', 'sitemap', 'page-reads'] },
);

const publicRoutes = (service: BlogService): FastifyPluginAsyncZod =>
  async function blogPublic(app) {
    app.get(
      '/blog/getblogposts',
      {
        schema: {
          tags: ['blog'],
          summary: 'Published posts: sorted, by category or tag slug, or searched (paged)',
          querystring: BlogPostsQuerySchema,
          response: { 200: BlogPostsAnswerSchema },
        },
      },
      async (request) => service.listPosts(request.query),
    );

    app.get(
      '/blog/getblogpost',
      {
        schema: {
          tags: ['blog'],
          summary: 'One published post: its sanitised HTML body and related posts',
          querystring: BlogPostUrlQuerySchema,
          response: { 200: BlogPostAnswerSchema },
        },
      },
      async (request) => service.getPost(request.query.url),
    );

    app.get(
      '/blog/getblogtaxonomy',
      {
        schema: {
          tags: ['blog'],
          summary: 'The sidebar: categories with counts, tags in use, authors',
          response: { 200: BlogTaxonomyAnswerSchema },
        },
      },
      async () => service.taxonomy(),
    );
  };

/** Admins only: the check runs before the body is read or validated. */
const adminRoutes = (service: BlogService): FastifyPluginAsyncZod =>
  async function blogAdmin(app) {
    app.addHook('onRequest', async (request, reply) => {
      await requireAdmin(request);
      reply.header('cache-control', 'no-store');
    });
    // Any admin write may change what visitors see: every instance's caches drop the blog's
    // pages before this answer goes out (so the next request shows it).
    app.addHook('onSend', async (request, reply) => {
      if (request.method !== 'GET' && reply.statusCode < 400) app.changes.publish('blog');
    });
    const security = [{ bearer: [] }];

    app.get(
      '/posts',
      {
        schema: {
          tags: ['blog admin'],
          summary: 'Every post (drafts, scheduled, published) with its state',
          security,
          querystring: BlogAdminPostsQuerySchema,
          response: { 200: BlogAdminPostsAnswerSchema },
        },
      },
      async (request) => service.listAdmin(request.query),
    );

    app.get(
      '/posts/:id',
      {
        schema: {
          tags: ['blog admin'],
          summary: 'One post as the editor loads it (Markdown source)',
          security,
          params: IdParamsSchema,
          response: { 200: BlogAdminPostAnswerSchema },
        },
      },
      async (request) => service.getAdmin(request.params.id),
    );

    app.post(
      '/posts',
      {
        bodyLimit: POST_BODY_LIMIT,
        schema: {
          tags: ['blog admin'],
          summary: 'Write a post; pictures as data: URLs are uploaded',
          security,
          body: BlogPostInputSchema,
          response: { 201: BlogAdminPostAnswerSchema },
        },
      },
      async (request, reply) => {
        const admin = await requireAdmin(request);
        return reply.status(201).send(await service.create(request.body, admin));
      },
    );

    app.put(
      '/posts/:id',
      {
        bodyLimit: POST_BODY_LIMIT,
        schema: {
          tags: ['blog admin'],
          summary: 'Save every field of a post',
          security,
          params: IdParamsSchema,
          body: BlogPostInputSchema,
          response: { 200: BlogAdminPostAnswerSchema },
        },
      },
      async (request) => service.replace(request.params.id, request.body),
    );

    app.post(
      '/posts/:id/publish',
      {
        schema: {
          tags: ['blog admin'],
          summary: 'Publish now, at its date, or at the given date (ahead: scheduled)',
          security,
          params: IdParamsSchema,
          body: BlogPublishInputSchema.optional(),
          response: { 200: BlogAdminPostAnswerSchema },
        },
      },
      async (request) => service.publish(request.params.id, request.body?.publishDate),
    );

    app.post(
      '/posts/:id/unpublish',
      {
        schema: {
          tags: ['blog admin'],
          summary: 'Back to draft: readers stop seeing it',
          security,
          params: IdParamsSchema,
          response: { 200: BlogAdminPostAnswerSchema },
        },
      },
      async (request) => service.unpublish(request.params.id),
    );

    app.delete(
      '/posts/:id',
      {
        schema: {
          tags: ['blog admin'],
          summary: 'Delete a post and its uploaded pictures',
          security,
          params: IdParamsSchema,
          response: { 200: ResultAnswerSchema },
        },
      },
      async (request) => {
        await service.remove(request.params.id);
        return { wasSuccessful: true, message: 'The post has been deleted.' };
      },
    );

    app.post(
      '/preview',
      {
        schema: {
          tags: ['blog admin'],
          summary: 'Markdown rendered and sanitised exactly as a saved post would be',
          security,
          body: BlogPreviewInputSchema,
          response: { 200: BlogPreviewAnswerSchema },
        },
      },
      async (request) => service.preview(request.body.markdown),
    );
  };
