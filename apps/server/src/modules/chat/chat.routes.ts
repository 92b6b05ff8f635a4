import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../plugins/auth.js';
import { createChatToken } from './chat.service.js';

export const chatRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/chat/getnewchatauthtoken',
    {
      schema: {
        tags: ['chat'],
        summary: 'A short-lived token that opens the AI Teaching Assistant (/assistant?a=)',
        security: [{ bearer: [] }],
        response: { 200: z.object({ chatAuthToken: z.string() }) },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      reply.header('cache-control', 'no-store');
      return { chatAuthToken: await createChatToken(app.config.jwtSecret, user) };
    },
  );
};
