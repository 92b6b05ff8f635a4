import {
  NewsletterStatusAnswerSchema,
  SubscribeAnswerSchema,
  SubscribeInputSchema,
  UnsubscribeInputSchema,
} from '@chapterwise/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { badRequest } from '../../lib/errors.js';
import { perIp, perKey } from '../../lib/rate-limit.js';
import { NewsletterService } from './newsletter.service.js';

export const NEWSLETTER_RATE_LIMITS = {
  ip: { max: 10, minutes: 60 },
  email: { max: 3, minutes: 60 },
};

const emailInList = (request: FastifyRequest) => {
  const first = (request.body as Array<{ email?: unknown }> | undefined)?.[0]?.email;
  return typeof first === 'string' && first ? first.trim().toLowerCase() : undefined;
};

/** `POST /users/subscribe/` (the footer form) and the unsubscribe link's calls. */
export const newsletterRoutes: FastifyPluginAsyncZod = async (app) => {
  const newsletter = new NewsletterService({
    db: app.db,
    mail: app.mail,
    publicUrl: app.config.publicUrl,
    secret: app.config.jwtSecret,
  });

  // Mail clients' one-click unsubscribe (RFC 8058) posts a form, not JSON. Only in this plugin.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  app.post(
    '/users/subscribe',
    {
      config: { rateLimit: perIp(NEWSLETTER_RATE_LIMITS.ip, app.config.rateLimitScale) },
      preHandler: perKey(
        app,
        'newsletter',
        NEWSLETTER_RATE_LIMITS.email,
        emailInList,
        (wait) => `This address was signed up several times already. Please wait ${wait}.`,
      ),
      schema: {
        tags: ['newsletter'],
        summary: 'Subscribe an address to the newsletter (body: [{ email }])',
        body: SubscribeInputSchema,
        response: { 200: SubscribeAnswerSchema },
      },
    },
    async (request) => {
      await newsletter.subscribe(request.body[0]!.email);
      return { wasSuccessful: true as const };
    },
  );

  app.get(
    '/newsletter/status',
    {
      schema: {
        tags: ['newsletter'],
        summary:
          "What an unsubscribe link's address is (partly hidden) and whether it is subscribed",
        querystring: UnsubscribeInputSchema,
        response: { 200: NewsletterStatusAnswerSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return newsletter.status(request.query.token);
    },
  );

  app.post(
    '/newsletter/unsubscribe',
    {
      config: { rateLimit: perIp({ max: 30, minutes: 60 }, app.config.rateLimitScale) },
      schema: {
        tags: ['newsletter'],
        summary: 'Unsubscribe with the token from the link (JSON body, or ?token= for one-click)',
        querystring: UnsubscribeInputSchema.partial(),
        body: UnsubscribeInputSchema.partial().optional(),
        response: { 200: NewsletterStatusAnswerSchema },
      },
    },
    async (request) => {
      const token = request.body?.token ?? request.query.token;
      if (!token) throw badRequest('The unsubscribe link is incomplete.');
      return newsletter.unsubscribe(token);
    },
  );
};
