import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  GoogleStatusSchema,
  SendToGoogleFormsAnswerSchema,
  SendToGoogleFormsBodySchema,
  WasSuccessfulSchema,
} from '@chapterwise/shared';
import { requireUser } from '../../plugins/auth.js';
import type { GoogleFormsService } from './google-forms.service.js';

const tags = ['google'];
const security = [{ bearer: [] }];

const CallbackQuerySchema = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().max(200).optional(),
  error: z.string().max(200).optional(),
});

/**
 * "Send to Google Forms" (issue 20): the connection status, the send, Google's redirect back
 * (`/google/oauth/callback`, registered as the OAuth client's redirect URI) and disconnect.
 */
export const googleFormsRoutes = (service: GoogleFormsService): FastifyPluginAsyncZod =>
  async function googleForms(app) {
    app.get(
      '/google/status',
      {
        schema: {
          tags,
          summary: 'Whether Send to Google Forms is available, and your Google connection',
          response: { 200: GoogleStatusSchema },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'private, no-store');
        return service.status(await request.currentUser());
      },
    );

    app.post(
      '/google/forms',
      {
        config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
        schema: {
          tags,
          security,
          summary:
            'Make a Google Forms quiz from a material, or get the Google consent page to open first',
          body: SendToGoogleFormsBodySchema,
          response: { 200: SendToGoogleFormsAnswerSchema, 201: SendToGoogleFormsAnswerSchema },
        },
      },
      async (request, reply) => {
        const user = await requireUser(request);
        const data = await service.send(user, request.body.id, request.body.returnTo);
        return reply.status(data.status === 'created' ? 201 : 200).send({ data });
      },
    );

    app.get(
      '/google/oauth/callback',
      {
        config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
        schema: {
          tags,
          summary: 'Google’s redirect after the consent page (sends the teacher back)',
          querystring: CallbackQuerySchema,
        },
      },
      async (request, reply) => {
        const location = await service.callback(request.query);
        return reply
          .header('cache-control', 'no-store')
          .header('referrer-policy', 'no-referrer')
          .redirect(location, 303);
      },
    );

    app.post(
      '/google/disconnect',
      {
        schema: {
          tags,
          security,
          summary: 'Forget your Google connection (and revoke it at Google)',
          response: { 200: WasSuccessfulSchema },
        },
      },
      async (request) => {
        await service.disconnect(await requireUser(request));
        return { wasSuccessful: true as const };
      },
    );
  };
