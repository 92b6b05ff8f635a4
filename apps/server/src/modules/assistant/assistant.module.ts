import type { FastifyInstance } from 'fastify';
import { createAssistantEngine, type AssistantEngine } from '../../providers/assistant/index.js';
import { assistantRoutes } from './assistant.routes.js';
import { AssistantService } from './assistant.service.js';
import { AssistantSessions } from './assistant.session.js';

declare module 'fastify' {
  interface FastifyInstance {
    assistant: AssistantService;
  }
}

/**
 * Wires the AI Teaching Assistant: the engine chosen by the config (or given by a test), the
 * service (also `app.assistant`) on the books and materials services, and the routes.
 */
export async function registerAssistant(
  app: FastifyInstance,
  engine?: AssistantEngine,
): Promise<void> {
  const config = app.config;
  const service = new AssistantService({
    db: app.db,
    books: app.books,
    materials: app.materials,
    engine: engine ?? createAssistantEngine(config.assistant.engine, config.llm),
    sessions: new AssistantSessions(config.jwtSecret),
    jwtSecret: config.jwtSecret,
    log: app.log,
  });
  app.decorate('assistant', service);
  await app.register(
    assistantRoutes(service, {
      messagesPerHour: config.assistant.messagesPerHour,
      secureCookie: config.publicUrl.startsWith('https://'),
      publicUrl: config.publicUrl,
    }),
    { prefix: '/api/v1' },
  );
}
