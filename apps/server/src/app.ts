import { randomUUID } from 'node:crypto';
import path from 'node:path';
import compress from '@fastify/compress';
import rateLimit from '@fastify/rate-limit';
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { JSON_BODY_LIMIT_BYTES } from '@chapterwise/shared';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { JobQueue } from './jobs/queue.js';
import { ChangeBus } from './lib/changes.js';
import { postgresRateLimitStore, pruneRateLimits } from './lib/rate-limit-store.js';
import { etagMatches, PageCache, strongEtag } from './lib/page-cache.js';
import { pageReadsPlugin } from './lib/page-reads.js';
import { blogRoutes } from './modules/blog/blog.routes.js';
import { booksRoutes } from './modules/books/books.routes.js';
import { chatRoutes } from './modules/chat/chat.routes.js';
import { healthRoutes, metaRoutes } from './modules/health/health.routes.js';
import { newsletterRoutes } from './modules/newsletter/newsletter.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { userRolesRoutes } from './modules/users/users.roles.routes.js';
import { importsRoutes } from './modules/imports/imports.routes.js';
import { registerMaterials } from './modules/materials/materials.module.js';
import { registerBilling, type RegisterBillingOptions } from './modules/billing/billing.module.js';
import { registerAssistant } from './modules/assistant/assistant.module.js';
import type { AssistantEngine } from './providers/assistant/index.js';
import { registerImages } from './modules/images/images.module.js';
import { registerGoogleForms } from './modules/google-forms/google-forms.module.js';
import type { ImageProvider } from './providers/images/index.js';
import { registerShop } from './modules/shop/shop.module.js';
import type { PrintProvider } from './providers/print/index.js';
import { authPlugin } from './plugins/auth.js';
import { dbPlugin } from './plugins/db.js';
import { errorsPlugin } from './plugins/errors.js';
import { mailPlugin } from './plugins/mail.js';
import { openapiPlugin } from './plugins/openapi.js';
import { securityPlugin } from './plugins/security.js';
import { storagePlugin } from './plugins/storage.js';
import { createMailer } from './providers/mail/index.js';
import { createStorage } from './providers/storage/index.js';
import { sitemapPlugin } from './plugins/sitemap.js';
import { webPlugin, type WebPluginOptions } from './plugins/web.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    jobs: JobQueue;
    /** Tells every instance what changed (caches listen); see lib/changes.ts. */
    changes: ChangeBus;
    /** `draining`: shutting down, /readyz answers 503. */
    lifecycle: { draining: boolean };
  }
}

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** 'production' serves apps/web/build; 'development' runs Vite in-process; 'off' is API only. */
  web?: WebPluginOptions['mode'];
  /** Close the database when the app closes (tests that share a database pass false). */
  closeDatabase?: boolean;
  logger?: FastifyServerOptions['logger'];
  /** Billing's payments adapter or chapter packs instead of the config's (tests). */
  billing?: RegisterBillingOptions;
  /** The assistant's engine instead of the config's (tests). */
  assistantEngine?: AssistantEngine;
  /**
   * With JOBS_ENABLED=false, still send jobs to the queue for worker instances to run (a
   * web-only instance on PostgreSQL).
   */
  jobsSender?: boolean;
  /** The image studio's provider instead of the config's (tests). */
  imageProvider?: ImageProvider;
  /** The shop's print provider instead of the config's (tests). */
  printProvider?: PrintProvider;
}

/**
 * How a request appears in the log: the chat token of `/assistant?a=…` is left out (it opens a
 * chat session once, for 10 minutes, but a log is no place for it).
 */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: request.url.replace(/([?&]a=)[^&#]*/g, '$1[redacted]'),
    host: request.host,
    remoteAddress: request.ip,
  };
}

/** 1 in this many answers from memory is logged. */
const CACHED_LOG_SAMPLE = 100;

/**
 * The request log: one line per answer (Fastify writes two) with the request, status and time.
 * Answers from memory (a cached page, a 304) are 1 in CACHED_LOG_SAMPLE of them, marked
 * `sampled`: a crawler's thousands of cached reads a second would otherwise spend more on
 * logging than on answering.
 */
class RequestLog extends LogController {
  private cachedSeen = 0;

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) return super.requestCompleted(error, request, reply);
    const cached = reply.statusCode === 304 || reply.getHeader('x-page-cache') === 'hit';
    if (cached && this.cachedSeen++ % CACHED_LOG_SAMPLE !== 0) return;
    request.log.info(
      {
        req: request,
        res: reply,
        responseTime: Math.round(reply.elapsedTime * 10) / 10,
        ...(cached ? { sampled: CACHED_LOG_SAMPLE } : {}),
      },
      'request completed',
    );
  }
}

const WEB_ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../web');

/**
 * Builds the whole application without listening: plugins, then feature modules, then the
 * web app and the not-found handler. Tests build it too and talk to it with `app.inject`.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel, serializers: { req: serializeRequest } },
    trustProxy: config.trustProxy,
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true },
    logController: new RequestLog(),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  const changes = new ChangeBus({ connectionString: database.connectionString, log: app.log });
  app.decorate('changes', changes);
  app.decorate('lifecycle', { draining: false });

  const webMode = options.web ?? 'off';
  await app.register(securityPlugin, {
    hsts: config.publicUrl.startsWith('https://'),
    csp: webMode !== 'development',
  });
  // API reads get a strong ETag (unless the route made one) and 304 when the client has the
  // answer; an answer to a request with a session is never kept by anyone unless the route
  // said otherwise. Registered before compression, so the ETag is of the JSON itself.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (
      (request.method === 'GET' || request.method === 'HEAD') &&
      reply.statusCode === 200 &&
      request.url.startsWith('/api/')
    ) {
      if (request.headers.authorization !== undefined && !reply.hasHeader('cache-control')) {
        reply.header('cache-control', 'private, no-store');
      }
      if ((typeof payload === 'string' || Buffer.isBuffer(payload)) && !reply.hasHeader('etag')) {
        const etag = strongEtag(payload);
        reply.header('etag', etag);
        if (etagMatches(request.headers['if-none-match'], etag)) {
          reply.code(304);
          return done(null, '');
        }
      }
    }
    done(null, payload);
  });
  // Text answers (pages, JSON, scripts, styles) go out as brotli or gzip when the client
  // accepts it; request bodies are never inflated (no compressed uploads to bound).
  await app.register(compress, {
    global: true,
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: 1024,
  });
  // With PostgreSQL every instance counts in one table; the embedded database has one process.
  const sharedLimits = database.kind === 'postgres';
  await app.register(rateLimit, {
    global: false,
    ...(sharedLimits ? { store: postgresRateLimitStore(database.executeSql) } : {}),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: `Too many attempts. Please wait ${context.after} and try again.`,
    }),
  });
  await app.register(errorsPlugin);
  await app.register(dbPlugin, { database });
  await app.register(authPlugin, { jwtSecret: config.jwtSecret });
  await app.register(storagePlugin, { storage: createStorage(config) });
  await app.register(mailPlugin, { mailer: createMailer(config, app.log) });
  await app.register(openapiPlugin);
  await app.register(sitemapPlugin, { publicUrl: config.publicUrl });
  await app.register(pageReadsPlugin);

  const jobs = new JobQueue(database, app.log);
  app.decorate('jobs', jobs);

  // Feature modules. Each is one plugin under /api/v1.
  await app.register(healthRoutes);
  await app.register(metaRoutes({ trustProxy: config.trustProxy }), { prefix: '/api/v1' });
  await app.register(chatRoutes, { prefix: '/api/v1' });
  await app.register(usersRoutes, { prefix: '/api/v1' });
  await app.register(userRolesRoutes, { prefix: '/api/v1' });
  await app.register(newsletterRoutes, { prefix: '/api/v1' });
  await app.register(importsRoutes, { prefix: '/api/v1' });
  await app.register(booksRoutes, { prefix: '/api/v1' });
  await app.register(blogRoutes, { prefix: '/api/v1' });
  await registerMaterials(app);
  await registerBilling(app, options.billing);
  await registerAssistant(app, options.assistantEngine);
  await registerImages(app, options.imageProvider);
  await registerGoogleForms(app);
  await registerShop(app, options.printProvider);

  await app.register(webPlugin, {
    mode: webMode,
    buildDir: config.webBuildDir,
    webRoot: WEB_ROOT,
    publicUrl: config.publicUrl,
    chatUrl: config.chatUrl,
    pageCache: new PageCache(),
    nonceSecret: config.jwtSecret,
    prefillPages: config.pageCachePrefill,
  });

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    const isApi = pathname === '/api' || pathname.startsWith('/api/');
    if (!isApi && app.renderPage && (request.method === 'GET' || request.method === 'HEAD')) {
      return app.renderPage(request, reply);
    }
    return reply.status(404).send({
      errors: { message: `No route ${request.method} ${pathname}.`, code: 'NOT_FOUND' },
    });
  });

  app.addHook('onReady', () => changes.start());
  if (sharedLimits) {
    let prune: NodeJS.Timeout | undefined;
    app.addHook('onReady', async () => {
      prune = setInterval(
        () => void pruneRateLimits(database.executeSql).catch(() => {}),
        10 * 60_000,
      );
      prune.unref();
    });
    app.addHook('onClose', async () => clearInterval(prune));
  }
  if (config.jobsEnabled) {
    app.addHook('onReady', async () => {
      await jobs.start();
    });
  } else if (options.jobsSender) {
    app.addHook('onReady', async () => {
      await jobs.start({ work: false });
    });
  }
  // Order matters on shutdown: let running jobs finish, then close the database.
  app.addHook('onClose', async () => {
    await jobs.stop();
    await changes.stop();
    if (options.closeDatabase ?? true) await database.close();
  });

  return app;
}
