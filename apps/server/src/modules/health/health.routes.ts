import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LocationMetaSchema } from '@chapterwise/shared';
import { readLocation } from './health.service.js';

/** Liveness and readiness probes, outside /api/v1 as load balancers expect. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/healthz',
    { schema: { hide: true, response: { 200: z.object({ status: z.literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );

  // Load balancers: 503 while shutting down (send no more requests here) or while the database
  // does not answer (recovers by itself when it does again). Migrations run before listening.
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    if (app.lifecycle.draining) {
      return reply.status(503).send({ errors: { message: 'Shutting down.', code: 'UNAVAILABLE' } });
    }
    const ready = await app.database.ping();
    if (!ready) {
      return reply
        .status(503)
        .send({ errors: { message: 'The database is not answering.', code: 'UNAVAILABLE' } });
    }
    return { status: 'ready' };
  });
};

/** `GET /api/v1`: the visitor's city and country from trusted proxy headers. */
export const metaRoutes = (options: { trustProxy: boolean }): FastifyPluginAsyncZod =>
  async function meta(app) {
    app.get(
      '/',
      {
        schema: {
          tags: ['meta'],
          summary: 'Where the visitor seems to be (empty strings when unknown)',
          response: { 200: LocationMetaSchema },
        },
      },
      async (request) => readLocation(request.headers, options.trustProxy),
    );
  };
