import {
  ACCOUNT_MESSAGES,
  ChangePasswordInputSchema,
  ForgotPasswordInputSchema,
  LoginInputSchema,
  PublicProfileAnswerSchema,
  RegisterAnswerSchema,
  RegisterInputSchema,
  ResetPasswordInputSchema,
  ResultAnswerSchema,
  SessionAnswerSchema,
  UpdateProfileInputSchema,
  UserAnswerSchema,
} from '@chapterwise/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { perIp, perKey, type Budget } from '../../lib/rate-limit.js';
import { requireUser } from '../../plugins/auth.js';
import { AVATAR_MAX_BASE64_CHARS } from './users.avatar.js';
import { presentOwnUser } from './users.presenter.js';
import { UsersService } from './users.service.js';

/** Attempts allowed per IP address (times RATE_LIMIT_SCALE) and per email address. */
export const USER_RATE_LIMITS = {
  login: { ip: { max: 30, minutes: 15 }, email: { max: 10, minutes: 15 } },
  register: { ip: { max: 10, minutes: 60 }, email: { max: 5, minutes: 60 } },
  resetRequest: { ip: { max: 10, minutes: 60 }, email: { max: 3, minutes: 60 } },
  resetPassword: { ip: { max: 20, minutes: 60 } },
  changePassword: { ip: { max: 20, minutes: 15 } },
} satisfies Record<string, { ip: Budget; email?: Budget }>;

const bearerToken = (request: FastifyRequest) =>
  /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';

/** The email in a JSON body, lower-cased (the per-email rate-limit key). */
const emailInBody = (request: FastifyRequest) => {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' && email ? email.trim().toLowerCase() : undefined;
};

const ProfileParamsSchema = z.object({ id: z.string().max(64) });
const UsernameParamsSchema = z.object({ username: z.string().max(64) });

/** The spec's account calls under /api/v1/users (§7 Auth and user; shapes in api-shapes.md). */
export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  const users = new UsersService({
    db: app.db,
    tokens: app.tokens,
    mail: app.mail,
    storage: app.storage,
    publicUrl: app.config.publicUrl,
    log: app.log,
  });
  const scale = app.config.rateLimitScale;
  const emailLimit = (name: string, budget: Budget) =>
    perKey(
      app,
      name,
      budget,
      emailInBody,
      (wait) => `Too many attempts for this email address. Please wait ${wait} and try again.`,
    );

  app.post(
    '/users/register',
    {
      config: { rateLimit: perIp(USER_RATE_LIMITS.register.ip, scale) },
      preHandler: emailLimit('register', USER_RATE_LIMITS.register.email),
      schema: {
        tags: ['users'],
        summary: 'Create an account (5 free generations)',
        body: RegisterInputSchema,
        response: { 201: RegisterAnswerSchema },
      },
    },
    async (request, reply) => {
      const user = await users.register(request.body);
      return reply.status(201).send({ user });
    },
  );

  app.post(
    '/users/login',
    {
      config: { rateLimit: perIp(USER_RATE_LIMITS.login.ip, scale) },
      preHandler: emailLimit('login', USER_RATE_LIMITS.login.email),
      schema: {
        tags: ['users'],
        summary: "Log in: a session token (30 days with 'Remember me', else 1 day)",
        body: LoginInputSchema,
        response: { 200: SessionAnswerSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return users.login(request.body);
    },
  );

  app.get(
    '/users/me',
    {
      schema: {
        tags: ['users'],
        summary: 'The signed-in user',
        security: [{ bearer: [] }],
        response: { 200: SessionAnswerSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      reply.header('cache-control', 'no-store');
      return { token: bearerToken(request), user: presentOwnUser(user) };
    },
  );

  app.post(
    '/users/logout',
    {
      schema: {
        tags: ['users'],
        summary: 'Log out: ends every session of the user (all their tokens stop working)',
        security: [{ bearer: [] }],
        response: { 200: ResultAnswerSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      await users.logout(user);
      return { wasSuccessful: true, message: ACCOUNT_MESSAGES.loggedOut };
    },
  );

  app.patch(
    '/users/:id',
    {
      // Room for a 5 MB avatar as base64 in the JSON body.
      bodyLimit: AVATAR_MAX_BASE64_CHARS + 256 * 1024,
      schema: {
        tags: ['users'],
        summary: 'Edit your profile; `avatar` as a data: URL uploads a new picture',
        security: [{ bearer: [] }],
        params: ProfileParamsSchema,
        body: UpdateProfileInputSchema,
        response: { 200: UserAnswerSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const answer = { user: await users.updateProfile(user, request.params.id, request.body) };
      // Public profile pages show it: every instance's caches drop them.
      app.changes.publish('users');
      return answer;
    },
  );

  app.post(
    '/users/changepassword',
    {
      config: { rateLimit: perIp(USER_RATE_LIMITS.changePassword.ip, scale) },
      schema: {
        tags: ['users'],
        summary: 'Change your password; other sessions end, the answer has a new token',
        security: [{ bearer: [] }],
        body: ChangePasswordInputSchema,
        response: { 200: ResultAnswerSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const claims = await app.tokens.verify(bearerToken(request));
      const lifetime = claims?.iat !== undefined ? claims.exp - claims.iat : undefined;
      reply.header('cache-control', 'no-store');
      return users.changePassword(user, request.body, lifetime);
    },
  );

  app.post(
    '/users/sendpasswordresetemail',
    {
      config: { rateLimit: perIp(USER_RATE_LIMITS.resetRequest.ip, scale) },
      preHandler: emailLimit('reset', USER_RATE_LIMITS.resetRequest.email),
      schema: {
        tags: ['users'],
        summary: 'Email a password reset link (same answer whether or not the address exists)',
        body: ForgotPasswordInputSchema,
        response: { 200: ResultAnswerSchema },
      },
    },
    async (request) => {
      await users.requestPasswordReset(request.body.email);
      return { wasSuccessful: true, message: ACCOUNT_MESSAGES.resetRequested };
    },
  );

  app.post(
    '/users/resetpassword',
    {
      config: { rateLimit: perIp(USER_RATE_LIMITS.resetPassword.ip, scale) },
      schema: {
        tags: ['users'],
        summary: "Set a new password with the reset link's token (single use, 1 hour)",
        body: ResetPasswordInputSchema,
        response: { 200: ResultAnswerSchema },
      },
    },
    async (request) => users.resetPassword(request.body),
  );

  app.get(
    '/users/getuserinfobyusername/:username',
    {
      schema: {
        tags: ['users'],
        summary: 'A public profile (never the email)',
        params: UsernameParamsSchema,
        response: { 200: PublicProfileAnswerSchema },
      },
    },
    async (request) => ({
      data: { user: await users.getPublicProfile(request.params.username) },
    }),
  );
};
