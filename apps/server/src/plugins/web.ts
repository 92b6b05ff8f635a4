import { createHmac, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pipeline, Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { createRequestHandler, type ServerBuild } from 'react-router';
import {
  compressedCopies,
  etagMatches,
  type PageCache,
  tagsOfApiCall,
  type PageEntry,
} from '../lib/page-cache.js';
import { contentSecurityPolicy } from './security.js';

/** What guests' public pages tell browsers and CDNs (decision 022). */
export const GUEST_PAGE_CACHE_CONTROL =
  'public, max-age=0, s-maxage=60, stale-while-revalidate=600';
/** Any request that may carry a session: nothing may keep the answer. */
export const SESSION_CACHE_CONTROL = 'private, no-store';

/**
 * Public pages kept in the render cache for guests: home, directory and subject pages, books,
 * chapters, the blog (list, categories, tags, posts), public profiles and policies.
 */
const CACHEABLE_PAGE =
  /^\/(?:|books(?:\/[^/]+)?|book\/[^/]+(?:\/[^/]+)?|blog(?:\/[^/]+(?:\/[^/]+)?)?|profile\/[^/]+|legal\/[^/]+)$/;

/** True when the request may carry a session (a bearer token or any cookie). */
export function maySession(request: FastifyRequest): boolean {
  return request.headers.authorization !== undefined || request.headers.cookie !== undefined;
}

function cacheablePage(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (request.url.length > 512) return false;
  const path = request.url.split('?')[0] ?? '';
  return !path.endsWith('.data') && CACHEABLE_PAGE.test(path);
}

/** Sends a cached page: the copy the client accepts, or 304 when it has it already. */
function sendEntry(
  request: FastifyRequest,
  reply: FastifyReply,
  entry: PageEntry,
  state: 'hit' | 'miss',
): FastifyReply {
  const accepted = request.headers['accept-encoding'] ?? '';
  const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : null;
  const etag = encoding === 'br' ? entry.etagBr : encoding === 'gzip' ? entry.etagGzip : entry.etag;
  reply.header('cache-control', GUEST_PAGE_CACHE_CONTROL);
  reply.header('vary', 'accept-encoding');
  reply.header('etag', etag);
  reply.header('x-page-cache', state);
  if (etagMatches(request.headers['if-none-match'], entry.etag, entry.etagBr, entry.etagGzip)) {
    // No content headers (a CSP here would replace the stored page's).
    return reply.code(304).send();
  }
  reply.code(entry.status).headers(entry.headers);
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(encoding === 'br' ? entry.br : encoding === 'gzip' ? entry.gzip : entry.body);
}

export interface WebPluginOptions {
  mode: 'production' | 'development' | 'off';
  /** apps/web/build (production) */
  buildDir: string;
  /** apps/web (development: Vite serves it from source) */
  webRoot: string;
  publicUrl: string;
  chatUrl: string;
  /**
   * The guests' render cache (production only; false turns it off). Its pages carry a CSP
   * nonce derived from the page and this secret, so every instance makes the same bytes.
   */
  pageCache?: PageCache | false;
  nonceSecret?: string;
  /**
   * Pages rendered into the cache once the server listens (0: none): the home page and what
   * it links to, as a crawler would, one at a time with pauses (see `prefill`).
   */
  prefillPages?: number;
}

/** How long after listening the cache prefill starts, and its pause between two pages. */
const PREFILL_DELAY_MS = 1_000;
const PREFILL_PAUSE_MS = 20;

/** The kind of a cacheable page (its route), so a prefill renders every kind early. */
function pageKind(path: string): string {
  const [first = '', ...rest] = path.split('/').slice(1);
  return `${first}/${rest.length}`;
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

    /**
     * The loaders' API: public reads registered in `app.pageReads` are called directly (the
     * route's validation and bytes, no request lifecycle); anything else is `app.inject` on
     * this instance. `seen` collects the calls' tags (what the page shows, for the cache).
     */
    const makeApiFetch =
      (seen?: Set<string>) => async (input: string | URL | Request, init?: RequestInit) => {
        if (typeof input === 'string' && (init?.method ?? 'GET') === 'GET' && !init?.body) {
          const url = new URL(input, options.publicUrl);
          if (app.pageReads.has(url.pathname) && !hasHeader(init?.headers, 'authorization')) {
            const answer = await app.pageReads.read(url);
            if (answer) {
              if (seen) for (const tag of tagsOfApiCall(url)) seen.add(tag);
              return new Response(answer.body, {
                status: answer.status,
                headers: { 'content-type': 'application/json; charset=utf-8' },
              });
            }
          }
        }
        const request = new Request(new URL(String(input), options.publicUrl), init);
        const url = new URL(request.url);
        if (seen) for (const tag of tagsOfApiCall(url)) seen.add(tag);
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
    const apiFetch = makeApiFetch();
    const publicConfig = { chatUrl: options.chatUrl, publicUrl: options.publicUrl };

    const getHandler = async () => {
      if (mode === 'development' || !handler)
        handler = createRequestHandler(await getBuild(), mode);
      return handler;
    };

    const cache = mode === 'production' && options.pageCache ? options.pageCache : null;
    let leanRules: LeanPageRules | undefined;
    const nonceKey = createHmac('sha256', options.nonceSecret ?? randomBytes(32))
      .update('page-nonce')
      .digest();

    /**
     * Renders a guest page whole for the cache: loaders' API calls give its tags; the CSP
     * nonce is a placeholder replaced by an HMAC of the page, so the same page has the same
     * bytes and ETag on every instance; brotli and gzip copies are made once here.
     */
    const renderForCache = async (request: FastifyRequest) => {
      const render = await getHandler();
      const tags = new Set<string>();
      const placeholder = app.newPageNonce();
      const response = await render(toFetchRequest(request, options.publicUrl), {
        apiFetch: makeApiFetch(tags),
        cspNonce: placeholder ?? '',
        publicConfig,
        documentRequest: true,
        renderData: {},
        waitForAll: true,
      });
      let html = leanHtml(
        Buffer.from(await response.arrayBuffer()).toString('utf8'),
        placeholder ?? '',
        (leanRules ??= leanPageRules(await getBuild())),
      );
      const headers: Record<string, string> = {};
      for (const [key, value] of response.headers) {
        if (/^(set-cookie|content-length|cache-control|content-encoding|vary|etag)$/.test(key))
          continue;
        headers[key] = value;
      }
      if (placeholder) {
        const nonce = createHmac('sha256', nonceKey)
          .update(html)
          .digest()
          .subarray(0, 16)
          .toString('base64');
        html = html.split(placeholder).join(nonce);
        headers['content-security-policy'] = contentSecurityPolicy(nonce);
      }
      const body = Buffer.from(html, 'utf8');
      return {
        status: response.status,
        headers,
        body,
        ...(await compressedCopies(body)),
        tags,
        storable: response.status === 200 && !response.headers.has('set-cookie'),
      };
    };

    if (cache && options.prefillPages) {
      const limit = options.prefillPages;
      let stopped = false;
      app.addHook('preClose', async () => {
        stopped = true;
      });
      /**
       * After a start the cache is empty and the rendering code not yet optimised by V8 (the
       * first renders of a page kind take several times longer than later ones): the server
       * renders the home page and the public pages it links to, breadth first and taking the
       * page kinds (books, a book, a chapter, the blog, ...) in turn, up to `limit` pages,
       * pausing between two so that visitors' requests come first. They are ordinary cache
       * entries: dropped when what they show changes.
       */
      const prefill = async () => {
        const queues = new Map<string, string[]>();
        const seen = new Set<string>();
        const add = (path: string) => {
          // Feeds and other files (`/blog/rss.xml`) are not pages.
          if (seen.has(path) || !CACHEABLE_PAGE.test(path) || /\.\w+$/.test(path)) return;
          seen.add(path);
          const kind = pageKind(path);
          queues.set(kind, [...(queues.get(kind) ?? []), path]);
        };
        ['/', '/books', '/blog'].forEach(add);
        for (let done = 0; done < limit && !stopped;) {
          let progressed = false;
          for (const queue of queues.values()) {
            const path = queue.shift();
            if (!path || done >= limit || stopped) continue;
            progressed = true;
            done++;
            const res = await app.inject({ method: 'GET', url: path });
            app.log.debug({ path, statusCode: res.statusCode }, 'render cache prefill');
            if (res.statusCode === 200) {
              for (const m of res.body.matchAll(/href="(\/[^"?#]*)"/g)) add(m[1] ?? '');
            }
            await new Promise((resolve) => setTimeout(resolve, PREFILL_PAUSE_MS));
          }
          if (!progressed) break;
        }
      };
      app.addHook('onListen', async () => {
        setTimeout(() => {
          prefill().catch((error: unknown) => {
            if (!stopped) app.log.warn({ err: error }, 'render cache prefill stopped');
          });
        }, PREFILL_DELAY_MS).unref();
      });
    }

    if (cache) {
      app.decorate('pageCache', cache);
      app.changes.subscribe((topic) => cache.invalidate(topic));
      // The hot path: a cached page goes out before anything else runs for the request.
      app.addHook('onRequest', (request, reply, done) => {
        if (request.method !== 'GET' && request.method !== 'HEAD') return done();
        const entry = cache.get(request.url);
        if (!entry || maySession(request)) return done();
        cache.hits++;
        sendEntry(request, reply, entry, 'hit');
      });
    }

    app.decorate('renderPage', async (request: FastifyRequest, reply: FastifyReply) => {
      if (cache && cacheablePage(request)) {
        if (!maySession(request)) {
          const entry = await cache.getOrRender(request.url, () => renderForCache(request));
          return sendEntry(request, reply, entry, 'miss');
        }
        // Never stored, never served from the cache: the answer may be someone's own.
        reply.header('cache-control', SESSION_CACHE_CONTROL);
        reply.header('x-page-cache', 'bypass');
      }
      const render = await getHandler();
      const nonce = app.newPageNonce();
      if (nonce) reply.header('content-security-policy', contentSecurityPolicy(nonce));
      const response = await render(toFetchRequest(request, options.publicUrl), {
        apiFetch,
        cspNonce: nonce ?? '',
        publicConfig,
        documentRequest: !(request.url.split('?')[0] ?? '').endsWith('.data'),
        renderData: {},
      });
      return sendFetchResponse(request, reply, response);
    });
  },
  { name: 'web', dependencies: ['page-reads'] },
);

/**
 * What `leanHtml` keeps of React Router's output, read from the build: the modules every page
 * starts from (client entry, root route, the route manifest and what they import), and whether
 * links' `data-discover` attribute is read by anything (only with lazy route discovery).
 */
export interface LeanPageRules {
  shellModules: ReadonlySet<string>;
  dropDiscoverAttributes: boolean;
}

export function leanPageRules(build: ServerBuild): LeanPageRules {
  const { entry, routes, url } = build.assets;
  const root = routes['root'];
  return {
    shellModules: new Set([
      url,
      entry.module,
      ...entry.imports,
      ...(root ? [root.module, ...(root.imports ?? [])] : []),
    ]),
    dropDiscoverAttributes: build.routeDiscovery?.mode === 'initial',
  };
}

/**
 * Bytes and requests a cached page does not need (decision 022):
 * - React Router inlines a lazy-discovery route manifest pretty-printed: it is made compact.
 * - It puts the CSP nonce on every `<link>`, where the policy never asks for it
 *   (modulepreload and stylesheets are same-origin, allowed by 'self').
 * - It preloads every module of the page's routes at high priority, ahead of the stylesheets:
 *   the page is readable before any script runs, so only the modules hydration starts from
 *   (`rules.shellModules` and the route modules the page's inline script imports) are
 *   preloaded, at low priority; the routes' own dependencies load when their modules ask.
 * - With route discovery 'initial' nothing reads links' `data-discover`: it is dropped.
 */
export function leanHtml(html: string, nonce: string, rules?: LeanPageRules): string {
  let out = html.replace(
    /(window\.__reactRouterManifest = )(\{[\s\S]*?\});\n/,
    (whole: string, head: string, json: string) => {
      try {
        return `${head}${JSON.stringify(JSON.parse(json))};\n`;
      } catch {
        return whole;
      }
    },
  );
  if (nonce) {
    const attribute = ` nonce="${nonce}"`;
    out = out.replace(/<link\b[^>]*>/g, (tag) => tag.split(attribute).join(''));
  }
  if (rules) {
    const routeModules = [...out.matchAll(/import \* as route\w* from "([^"]+)"/g)].map(
      (m) => m[1],
    );
    const start = new Set([...rules.shellModules, ...routeModules]);
    out = out.replace(/<link rel="modulepreload" href="([^"]+)"([^>]*)>/g, (tag, href, rest) =>
      start.has(href) ? `<link rel="modulepreload" href="${href}" fetchpriority="low"${rest}>` : '',
    );
    if (rules.dropDiscoverAttributes) out = out.split(' data-discover="true"').join('');
  }
  return out;
}

function hasHeader(headers: RequestInit['headers'], name: string): boolean {
  if (!headers) return false;
  if (headers instanceof Headers) return headers.has(name);
  if (Array.isArray(headers)) return headers.some(([key]) => key?.toLowerCase() === name);
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Renders the React Router app for this request (set when the web plugin is on). */
    renderPage?: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;
    /** The guests' render cache (when the web app is on in production). */
    pageCache?: PageCache;
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
    if (key === 'cache-control' && reply.hasHeader('cache-control')) continue;
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
