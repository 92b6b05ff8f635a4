import { existsSync } from 'node:fs';
import path from 'node:path';
import { pipeline, Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { createRequestHandler, type ServerBuild } from 'react-router';
import { contentSecurityPolicy } from './security.js';

export interface WebPluginOptions {
  mode: 'production' | 'development' | 'off';
  /** apps/web/build (production) */
  buildDir: string;
  /** apps/web (development: Vite serves it from source) */
  webRoot: string;
  publicUrl: string;
  chatUrl: string;
}

/**
 * The React Router app inside Fastify: hashed assets with year-long cache headers, and every
 * GET that no API route matched rendered on the server. Loaders reach the API through
 * `context.apiFetch`, which calls this same Fastify instance in-process (no network hop).
 */
export const webPlugin = fp(
  async (app: FastifyInstance, options: WebPluginOptions) => {
    if (options.mode === 'off') return;

    let getBuild: () => Promise<ServerBuild>;
    if (options.mode === 'development') {
      const { createServer } = await import('vite');
      const vite = await createServer({
        root: options.webRoot,
        server: { middlewareMode: true },
        appType: 'custom',
      });
      const middie = (await import('@fastify/middie')).default;
      await app.register(middie);
      app.use(vite.middlewares);
      app.addHook('onClose', () => vite.close());
      getBuild = () =>
        vite.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>;
    } else {
      const serverEntry = path.join(options.buildDir, 'server/index.js');
      if (!existsSync(serverEntry)) {
        throw new Error(
          `The web app is not built (${serverEntry} is missing). Run "npm run build" first.`,
        );
      }
      const build = (await import(serverEntry)) as ServerBuild;
      getBuild = async () => build;
      await app.register(fastifyStatic, {
        root: path.join(options.buildDir, 'client'),
        wildcard: false,
        index: false,
        setHeaders(reply, filePath) {
          // Vite puts content-hashed files under /assets: they never change, cache them for a year.
          const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
          reply.header(
            'cache-control',
            hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
          );
        },
      });
    }

    const mode = options.mode === 'production' ? 'production' : 'development';
    let handler: ReturnType<typeof createRequestHandler> | undefined;

    const apiFetch = async (input: string | URL | Request, init?: RequestInit) => {
      const request = new Request(new URL(String(input), options.publicUrl), init);
      const url = new URL(request.url);
      const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
      const res = await app.inject({
        method: request.method as 'GET',
        url: url.pathname + url.search,
        headers: Object.fromEntries(request.headers),
        ...(body ? { payload: body } : {}),
      });
      const headers = new Headers();
      for (const [key, value] of Object.entries(res.headers)) {
        if (value === undefined) continue;
        for (const v of Array.isArray(value) ? value : [value]) headers.append(key, String(v));
      }
      const nullBody = res.statusCode === 204 || res.statusCode === 304;
      return new Response(nullBody ? null : res.rawPayload, { status: res.statusCode, headers });
    };

    app.decorate('renderPage', async (request: FastifyRequest, reply: FastifyReply) => {
      if (mode === 'development' || !handler)
        handler = createRequestHandler(await getBuild(), mode);
      const nonce = app.newPageNonce();
      if (nonce) reply.header('content-security-policy', contentSecurityPolicy(nonce));
      const response = await handler(toFetchRequest(request, options.publicUrl), {
        apiFetch,
        cspNonce: nonce ?? '',
        publicConfig: { chatUrl: options.chatUrl, publicUrl: options.publicUrl },
        documentRequest: !(request.url.split('?')[0] ?? '').endsWith('.data'),
        renderData: {},
      });
      return sendFetchResponse(request, reply, response);
    });
  },
  { name: 'web' },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** Renders the React Router app for this request (set when the web plugin is on). */
    renderPage?: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;
  }
}

function toFetchRequest(request: FastifyRequest, publicUrl: string): Request {
  const origin = new URL(publicUrl);
  const host = request.headers.host ?? origin.host;
  const url = new URL(request.url, `${origin.protocol}//${host}`);
  const headers = new Headers();
  for (const [key, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(key, v);
  }
  const controller = new AbortController();
  request.raw.on('close', () => {
    if (!request.raw.complete) controller.abort();
  });
  return new Request(url, { method: request.method, headers, signal: controller.signal });
}

/**
 * Pages are answered from the not-found handler, which the compression plugin's route hooks
 * do not reach: they are compressed here, brotli or gzip as the browser accepts, flushing
 * every chunk so a streamed page still arrives as it is rendered.
 */
function pageEncoder(
  request: FastifyRequest,
): { name: 'br' | 'gzip'; stream: zlib.Gzip | zlib.BrotliCompress } | null {
  const accepted = String(request.headers['accept-encoding'] ?? '');
  if (/\bbr\b/.test(accepted)) {
    return {
      name: 'br',
      stream: zlib.createBrotliCompress({
        flush: zlib.constants.BROTLI_OPERATION_FLUSH,
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        },
      }),
    };
  }
  if (/\bgzip\b/.test(accepted)) {
    return { name: 'gzip', stream: zlib.createGzip({ flush: zlib.constants.Z_SYNC_FLUSH }) };
  }
  return null;
}

async function sendFetchResponse(
  request: FastifyRequest,
  reply: FastifyReply,
  response: Response,
): Promise<FastifyReply> {
  reply.status(response.status);
  for (const [key, value] of response.headers) {
    if (key === 'set-cookie') continue;
    reply.header(key, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length) reply.header('set-cookie', cookies);
  if (!response.body) return reply.send();
  const body = Readable.fromWeb(response.body as NodeReadableStream);
  const type = String(reply.getHeader('content-type') ?? '');
  const encoder = /^text\/|json|xml/.test(type) ? pageEncoder(request) : null;
  if (!encoder || request.method === 'HEAD') return reply.send(body);
  reply.header('content-encoding', encoder.name);
  reply.header('vary', 'accept-encoding');
  reply.removeHeader('content-length');
  return reply.send(pipeline(body, encoder.stream, () => {}));
}
