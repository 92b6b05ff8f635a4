import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EmailSchema } from '@chapterwise/shared';
import { AppError, unauthorized } from '../../lib/errors.js';
import { changeAdminRole } from './users.roles.js';

/** The operator command these routes serve (the subject of its token). */
export const USERS_ADMIN_COMMAND = 'users:admin';

const RoleInputSchema = z
  .object({
    action: z.enum(['grant', 'revoke', 'list']),
    email: EmailSchema.optional(),
  })
  .refine((input) => input.action === 'list' || Boolean(input.email), {
    message: 'an email address is needed to grant or revoke',
    path: ['email'],
  });

const RoleAnswerSchema = z.object({
  changed: z
    .object({ email: z.string(), username: z.string(), role: z.enum(['user', 'admin']) })
    .optional(),
  admins: z.array(z.object({ email: z.string(), username: z.string() })),
});

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * `POST /api/v1/users/roles`: `npm run users:admin` on the server's own machine, when the
 * server holds the embedded database. Not in the API docs; answers only connections from
 * this machine (as an unknown route otherwise) carrying a one-minute operator token signed
 * with JWT_SECRET.
 */
export const userRolesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/users/roles',
    {
      schema: { hide: true, body: RoleInputSchema, response: { 200: RoleAnswerSchema } },
      onRequest: async (request) => {
        // The socket's own address: a proxy's X-Forwarded-For cannot make a request local.
        if (!LOOPBACK.test(request.raw.socket.remoteAddress ?? '')) {
          throw new AppError('NOT_FOUND', `No route POST ${request.url.split('?')[0]}.`);
        }
        const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
        if (!(await app.tokens.verifyOperator(token, USERS_ADMIN_COMMAND))) {
          throw unauthorized('This call needs an operator token (npm run users:admin).');
        }
      },
    },
    async (request) => changeAdminRole(app.db, request.body.action, request.body.email),
  );
};
