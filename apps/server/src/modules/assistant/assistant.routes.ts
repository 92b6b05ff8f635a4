import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AssistantConversationSchema,
  AssistantMaterialStatusSchema,
  AssistantSessionAnswerSchema,
  AssistantSessionBodySchema,
  ConversationAnswerSchema,
  ConversationsAnswerSchema,
  CreateConversationBodySchema,
  MakeMaterialAnswerSchema,
  MakeMaterialBodySchema,
  SendMessageBodySchema,
  UpdateConversationBodySchema,
  type AssistantStreamEvent,
} from '@chapterwise/shared';
import type { UserRow } from '../../db/schema/index.js';
import { perKey } from '../../lib/rate-limit.js';
import type { AssistantService } from './assistant.service.js';
import { SESSION_COOKIE, SESSION_COOKIE_PATH, SESSION_TTL_SECONDS } from './assistant.session.js';

const tags = ['assistant'];
const security = [{ assistantSession: [] }];
const IdParams = z.object({ id: z.uuid({ error: 'must be an id' }) });
const chatUsers = new WeakMap<FastifyRequest, UserRow>();

/**
 * The AI Teaching Assistant's API. Every call but the token exchange needs the chat session
 * cookie (HttpOnly, SameSite=Strict, path /api/v1/assistant), never an API bearer token.
 * Conversations of other teachers answer 404. Answers stream as Server-Sent Events.
 */
export const assistantRoutes =
  (
    service: AssistantService,
    options: { messagesPerHour: number; secureCookie: boolean; publicUrl: string },
  ): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(cookie);

    const requireChatUser = async (request: FastifyRequest): Promise<UserRow> => {
      const user = await service.userOfSession(request.cookies[SESSION_COOKIE]);
      chatUsers.set(request, user);
      return user;
    };
    const limitMessages = perKey(
      app as unknown as FastifyInstance,
      'assistant-messages',
      { max: options.messagesPerHour, minutes: 60 },
      (request) => chatUsers.get(request)?.id,
      (wait) =>
        `You have sent the assistant as many messages as an hour allows. Please wait ${wait} and try again.`,
    );
    const setSession = (reply: FastifyReply, value: string, maxAge: number) =>
      reply.setCookie(SESSION_COOKIE, value, {
        path: SESSION_COOKIE_PATH,
        httpOnly: true,
        sameSite: 'strict',
        secure: options.secureCookie,
        maxAge,
      });
    const sessionAnswer = (user: UserRow) => ({
      user: { firstName: user.firstName, username: user.username },
      engine: service.engineName,
      publicUrl: options.publicUrl,
    });

    app.post(
      '/assistant/session',
      {
        config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
        schema: {
          tags,
          summary: 'Exchange a chat token (?a=) for a chat session (a cookie)',
          body: AssistantSessionBodySchema,
          response: { 200: AssistantSessionAnswerSchema },
        },
      },
      async (request, reply) => {
        const { user, session } = await service.exchangeToken(request.body.token);
        setSession(reply, session, SESSION_TTL_SECONDS);
        reply.header('cache-control', 'no-store');
        return sessionAnswer(user);
      },
    );

    app.get(
      '/assistant/session',
      {
        schema: {
          tags,
          security,
          summary: 'The teacher of the current chat session',
          response: { 200: AssistantSessionAnswerSchema },
        },
      },
      async (request, reply) => {
        const user = await requireChatUser(request);
        reply.header('cache-control', 'no-store');
        return sessionAnswer(user);
      },
    );

    app.delete(
      '/assistant/session',
      { schema: { tags, summary: 'End the chat session' } },
      async (_request, reply) => {
        setSession(reply, '', 0);
        return reply.status(204).send();
      },
    );

    app.get(
      '/assistant/conversations',
      {
        schema: {
          tags,
          security,
          summary: 'The teacher’s conversations, newest first',
          response: { 200: ConversationsAnswerSchema },
        },
      },
      async (request, reply) => {
        const user = await requireChatUser(request);
        reply.header('cache-control', 'no-store');
        return { data: await service.listConversations(user) };
      },
    );

    app.post(
      '/assistant/conversations',
      {
        bodyLimit: 1024 * 1024,
        schema: {
          tags,
          security,
          summary: 'Start a conversation (optionally about a book, chapter or pasted text)',
          body: CreateConversationBodySchema,
          response: { 201: AssistantConversationSchema },
        },
      },
      async (request, reply) => {
        const user = await requireChatUser(request);
        return reply.status(201).send(await service.createConversation(user, request.body));
      },
    );

    app.get(
      '/assistant/conversations/:id',
      {
        schema: {
          tags,
          security,
          summary: 'One conversation with its messages',
          params: IdParams,
          response: { 200: ConversationAnswerSchema },
        },
      },
      async (request, reply) => {
        const user = await requireChatUser(request);
        reply.header('cache-control', 'no-store');
        return service.getConversation(user, request.params.id);
      },
    );

    app.patch(
      '/assistant/conversations/:id',
      {
        bodyLimit: 1024 * 1024,
        schema: {
          tags,
          security,
          summary: 'Rename a conversation, or change what it is about or its grade',
          params: IdParams,
          body: UpdateConversationBodySchema,
          response: { 200: AssistantConversationSchema },
        },
      },
      async (request) => {
        const user = await requireChatUser(request);
        return service.updateConversation(user, request.params.id, request.body);
      },
    );

    app.delete(
      '/assistant/conversations/:id',
      {
        schema: {
          tags,
          security,
          summary: 'Delete a conversation and its messages',
          params: IdParams,
        },
      },
      async (request, reply) => {
        const user = await requireChatUser(request);
        await service.deleteConversation(user, request.params.id);
        return reply.status(204).send();
      },
    );

    app.post(
      '/assistant/conversations/:id/messages',
      {
        bodyLimit: 64 * 1024,
        schema: {
          tags,
          security,
          summary:
            'Ask; the answer streams back as Server-Sent Events (close the request to stop it)',
          description:
            'Events (one JSON object per `data:` line): `start`, `delta` (Markdown), `citation`, then `done` or `error` followed by `done`.',
          params: IdParams,
          body: SendMessageBodySchema,
        },
      },
      async (request, reply) => {
        const user = await requireChatUser(request);
        await limitMessages.call(app as unknown as FastifyInstance, request, reply);
        const prepared = await service.prepareAnswer(user, request.params.id, request.body);

        // From here the answer streams: errors become `error` events, not HTTP statuses.
        reply.hijack();
        const raw = reply.raw;
        raw.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
          'x-accel-buffering': 'no',
          connection: 'keep-alive',
        });
        raw.flushHeaders();
        const controller = new AbortController();
        // The teacher pressed Stop (or left): the connection closes before the answer ends.
        raw.on('close', () => {
          if (!raw.writableEnded) controller.abort();
        });
        const emit = (event: AssistantStreamEvent) => {
          if (!raw.writableEnded && !raw.destroyed) raw.write(`data: ${JSON.stringify(event)}\n\n`);
        };
        try {
          await service.answer(prepared, emit, controller.signal);
        } catch (error) {
          request.log.error({ err: error }, 'assistant stream failed');
          emit({
            type: 'error',
            message: 'The assistant failed unexpectedly. Please try again.',
            code: 'INTERNAL',
          });
        } finally {
          if (!raw.writableEnded) raw.end();
        }
      },
    );

    app.post(
      '/assistant/conversations/:id/materials',
      {
        config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
        schema: {
          tags,
          security,
          summary: 'Make a quiz, lesson or worksheet from the conversation’s text (takes a credit)',
          params: IdParams,
          body: MakeMaterialBodySchema,
          response: { 201: MakeMaterialAnswerSchema },
        },
      },
      async (request, reply) => {
        const user = await requireChatUser(request);
        return reply
          .status(201)
          .send(await service.makeMaterial(user, request.params.id, request.body));
      },
    );

    app.get(
      '/assistant/materials/:id',
      {
        schema: {
          tags,
          security,
          summary: 'Whether a material made from the chat has finished',
          params: IdParams,
          response: { 200: AssistantMaterialStatusSchema },
        },
      },
      async (request, reply) => {
        const user = await requireChatUser(request);
        reply.header('cache-control', 'no-store');
        return service.materialStatus(user, request.params.id);
      },
    );
  };
