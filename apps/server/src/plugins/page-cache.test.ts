import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlogAdminPostAnswer, BlogPostInput } from '@chapterwise/shared';
import { createTestApp, createUser, type TestApp } from '../test/helpers.js';

let t: TestApp;
let admin: { authorization: string };

beforeAll(async () => {
  t = await createTestApp({}, { web: 'production' });
  admin = (await createUser(t.app, { role: 'admin' })).auth;
}, 180_000);
afterAll(() => t?.close());

const page = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });

let counter = 0;
async function createPost(overrides: Partial<BlogPostInput> = {}) {
  counter += 1;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/blog/admin/posts',
    headers: admin,
    payload: {
      title: `Cached page post ${counter}`,
      markdown: `A body for post ${counter}.`,
      categories: ['Teaching Tips'],
      tags: ['reading'],
      status: 'published',
      authorFirstName: 'Grace',
      authorLastName: 'Hopper',
      ...overrides,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as BlogAdminPostAnswer).data;
}

describe('render cache for guests', () => {
  it('renders a public page once, then serves it from memory with a strong ETag and 304', async () => {
    const first = await page('/blog');
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-page-cache']).toBe('miss');
    expect(first.headers['cache-control']).toBe(
      'public, max-age=0, s-maxage=60, stale-while-revalidate=600',
    );
    expect(first.headers['vary']).toBe('accept-encoding');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);

    const second = await page('/blog');
    expect(second.headers['x-page-cache']).toBe('hit');
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(etag);
    // The page's CSP nonce is the one its inline scripts carry.
    const nonce = /'nonce-([^']+)'/.exec(String(second.headers['content-security-policy']))?.[1];
    expect(nonce).toBeTruthy();
    expect(second.body).toContain(`nonce="${nonce}"`);
    // Lean: scripts carry the nonce, links do not need it. The routes are in one cached file
    // (route discovery 'initial'), not inlined, so links carry no data-discover. Only the modules
    // hydration starts from are preloaded, at low priority: the entry, the route manifest, the
    // root and the page's route module.
    expect(second.body).not.toMatch(/<link[^>]* nonce=/);
    expect(second.body).not.toContain('window.__reactRouterManifest =');
    expect(second.body).not.toContain('data-discover');
    const preloads = [...second.body.matchAll(/<link rel="modulepreload" href="([^"]+)"([^>]*)>/g)];
    expect(preloads.map((m) => m[2])).toEqual(preloads.map(() => ' fetchpriority="low"/'));
    const preloaded = preloads.map((m) => m[1]);
    for (const module of [/\/manifest-[\w-]+\.js$/, /\/entry\.client-/, /\/root-/, /\/blog-/]) {
      expect(
        preloaded.some((href) => module.test(href!)),
        String(module),
      ).toBe(true);
    }
    expect(preloaded.length).toBeLessThanOrEqual(8);

    const notModified = await page('/blog', { 'if-none-match': etag });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
    expect(notModified.headers['content-security-policy']).toBeUndefined();
  });

  it('keeps brotli and gzip copies of the same page', async () => {
    const plain = await page('/blog');
    const br = await page('/blog', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['x-page-cache']).toBe('hit');
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(plain.body);
    expect(br.headers.etag).not.toBe(plain.headers.etag);
    const gz = await page('/blog', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
  });

  it('a post published by an admin is on the cached /blog at the next request', async () => {
    await page('/blog');
    expect((await page('/blog')).headers['x-page-cache']).toBe('hit');
    const post = await createPost();
    const after = await page('/blog');
    expect(after.statusCode).toBe(200);
    expect(after.body).toContain(post.title);
    // Unpublishing takes it off again.
    await t.app.inject({
      method: 'POST',
      url: `/api/v1/blog/admin/posts/${post._id}/unpublish`,
      headers: admin,
      payload: {},
    });
    expect((await page('/blog')).body).not.toContain(post.title);
  });

  it('a scheduled post appears on the cached page when its date comes', async () => {
    const soon = new Date(Date.now() + 1500);
    const post = await createPost({ publishDate: soon.toISOString() });
    const before = await page('/blog');
    expect(before.body).not.toContain(post.title);
    expect((await page('/blog')).headers['x-page-cache']).toBe('hit');
    await new Promise((resolve) => setTimeout(resolve, soon.getTime() - Date.now() + 300));
    expect((await page('/blog')).body).toContain(post.title);
  });

  it('a request with a session is never served a cached page and never stored', async () => {
    const teacher = (await createUser(t.app)).auth;
    await page('/blog');
    const own = await page('/blog', teacher);
    expect(own.statusCode).toBe(200);
    expect(own.headers['x-page-cache']).toBe('bypass');
    expect(own.headers['cache-control']).toBe('private, no-store');

    // A page first asked for with a session is not kept for the guests after it.
    const url = '/blog?from=teacher';
    expect((await page(url, teacher)).headers['x-page-cache']).toBe('bypass');
    expect((await page(url, { cookie: 'a=b' })).headers['x-page-cache']).toBe('bypass');
    expect((await page(url)).headers['x-page-cache']).toBe('miss');
  });

  it('only public pages are cached; other pages and 404s are rendered each time', async () => {
    expect((await page('/login')).headers['x-page-cache']).toBeUndefined();
    const missing = await page('/book/no-such-book');
    expect(missing.statusCode).toBe(404);
    expect((await page('/book/no-such-book')).headers['x-page-cache']).toBe('miss');
  });
});

describe('HTTP caching of API reads', () => {
  it('gives API reads a strong ETag and answers If-None-Match with 304', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/api/v1/blog/getblogposts' });
    expect(first.statusCode).toBe(200);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await t.app.inject({
      method: 'GET',
      url: '/api/v1/blog/getblogposts',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('an API answer to a request with a session is private unless the route says otherwise', async () => {
    const teacher = (await createUser(t.app)).auth;
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/blog/getblogposts',
      headers: teacher,
    });
    expect(res.headers['cache-control']).toBe('private, no-store');
  });
});

describe('render cache prefill', () => {
  it('renders the home page and the pages it links to once the server listens, up to the limit', async () => {
    const other = await createTestApp({ PAGE_CACHE_PREFILL: '5' }, { web: 'production' });
    try {
      await other.app.listen({ port: 0, host: '127.0.0.1' });
      const cache = other.app.pageCache!;
      for (let i = 0; i < 200 && cache.size < 5; i++) await new Promise((r) => setTimeout(r, 50));
      expect(cache.size).toBe(5);
      for (const url of ['/', '/books', '/blog']) {
        const res = await other.app.inject({ method: 'GET', url });
        expect(res.headers['x-page-cache'], url).toBe('hit');
      }
      // Its limit holds: nothing more is rendered.
      await new Promise((r) => setTimeout(r, 300));
      expect(cache.size).toBe(5);
    } finally {
      await other.close();
    }
  }, 180_000);
});
