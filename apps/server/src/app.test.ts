import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { users } from './db/schema/index.js';
import {
  createTestApp,
  createTestDatabase,
  createUser,
  TEST_JWT_SECRET,
  type TestApp,
} from './test/helpers.js';
import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';

describe('probes and conventions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers /healthz and /readyz', async () => {
    expect((await t.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
  });

  it('GET /api/v1 gives empty location strings when no proxy is trusted', async () => {
    const res = await t.app.inject({
      url: '/api/v1',
      headers: { 'cf-ipcity': 'Paris', 'cf-ipcountry': 'FR' },
    });
    expect(res.json()).toEqual({ city: '', country: '' });
  });

  it('unknown /api/v1 paths are a JSON 404', async () => {
    const res = await t.app.inject('/api/v1/does-not-exist');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      errors: { message: 'No route GET /api/v1/does-not-exist.', code: 'NOT_FOUND' },
    });
  });

  it('malformed JSON is a 400 with a message', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1',
      headers: { 'content-type': 'application/json' },
      payload: '{"oops":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      message: 'The request body is not valid JSON.',
      code: 'BAD_REQUEST',
    });
  });

  it('compresses text answers for clients that accept it, and only for them', async () => {
    const url = '/api/docs/json';
    const plain = await t.app.inject({ method: 'GET', url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gzip = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    // A compressed request body is not inflated: it is refused like any body that is not JSON.
    const inflated = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/login',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0]),
    });
    expect(inflated.statusCode).toBeGreaterThanOrEqual(400);
    expect(inflated.statusCode).toBeLessThan(500);
  });

  it('a NUL byte in a query is a 400, never a 500 from the database', async () => {
    for (const url of [
      '/api/v1/getgutenbergbook?url=a%00b',
      '/api/v1/getgutenbergbookchapter?url=a%00b&chapterUrl=c',
      '/api/v1/materials/getavailablechaptermaterials?bookUrl=a%00&chapterUrl=b',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().errors.message).toContain('NUL byte');
    }
  });

  it('a NUL byte in a body is a 400 and writes nothing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/register',
      payload: {
        username: 'nulname',
        firstName: 'Ada\u0000',
        lastName: 'Lovelace',
        email: 'nul@example.org',
        password: 'password123',
        passwordConfirmation: 'password123',
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.message).toContain('NUL byte');
    const rows = await t.app.db.select().from(users).where(eq(users.email, 'nul@example.org'));
    expect(rows).toEqual([]);
  });

  it('serves the OpenAPI document and the docs page', async () => {
    const doc = await t.app.inject('/api/docs/json');
    expect(doc.statusCode).toBe(200);
    expect(doc.json().paths).toHaveProperty('/api/v1/chat/getnewchatauthtoken');
    const page = await t.app.inject('/api/docs/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
  });
});

describe('trusted proxy location', () => {
  it('reads city and country from the proxy headers when TRUST_PROXY is set', async () => {
    const t = await createTestApp({ TRUST_PROXY: 'true' });
    const res = await t.app.inject({
      url: '/api/v1',
      headers: { 'x-vercel-ip-city': 'S%C3%A3o%20Paulo', 'x-vercel-ip-country': 'BR' },
    });
    expect(res.json()).toEqual({ city: 'São Paulo', country: 'BR' });
    await t.close();
  });
});

describe('validation and limits on a route with a schema', () => {
  let t: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'cw-app-')),
      JWT_SECRET: TEST_JWT_SECRET,
      JOBS_ENABLED: 'false',
    });
    t = await buildApp({ config, database: await createTestDatabase(), logger: false });
    t.post(
      '/api/v1/echo',
      { schema: { body: z.object({ name: z.string().min(1), count: z.number().int() }) } },
      async (request) => request.body,
    );
    t.get('/api/v1/boom', async () => {
      throw new Error('database password is hunter2');
    });
    await t.ready();
  });
  afterAll(() => t.close());

  it('a wrong type is a 400 naming the field', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/echo',
      payload: { name: 'a', count: 'x' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.code).toBe('BAD_REQUEST');
    expect(res.json().errors.message).toContain('count');
  });

  it('a missing field is a 400 naming the field', async () => {
    const res = await t.inject({ method: 'POST', url: '/api/v1/echo', payload: { count: 1 } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.message).toContain('name');
  });

  it('a huge body is a 413', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024), count: 1 }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().errors).toEqual({
      message: 'The request body is too large.',
      code: 'PAYLOAD_TOO_LARGE',
    });
  });

  it('a non-JSON content type is a 415', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/v1/echo',
      headers: { 'content-type': 'text/xml' },
      payload: '<a/>',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().errors.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('an unexpected error is a 500 that shows no internals', async () => {
    const res = await t.inject('/api/v1/boom');
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('hunter2');
    expect(res.json().errors.code).toBe('INTERNAL');
  });
});

describe('bearer-token sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const chat = (headers: Record<string, string> = {}) =>
    t.app.inject({ url: '/api/v1/chat/getnewchatauthtoken', headers });

  it('a valid token is accepted and gives a chat token', async () => {
    const { auth } = await createUser(t.app);
    const res = await chat(auth);
    expect(res.statusCode).toBe(200);
    expect(res.json().chatAuthToken).toMatch(/^ey/);
  });

  it('no token is a 401', async () => {
    const res = await chat();
    expect(res.statusCode).toBe(401);
    expect(res.json().errors.code).toBe('UNAUTHORIZED');
  });

  it('a tampered token is a 401', async () => {
    const { token } = await createUser(t.app);
    const [h, p, s] = token.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    payload.sub = '00000000-0000-0000-0000-000000000000';
    const forged = `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s}`;
    expect((await chat({ authorization: `Bearer ${forged}` })).statusCode).toBe(401);
  });

  it('an expired token is a 401', async () => {
    const { user } = await createUser(t.app);
    const expired = await new SignJWT({ ver: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));
    expect((await chat({ authorization: `Bearer ${expired}` })).statusCode).toBe(401);
  });

  it('a token stops working once the token version changes (password change or reset)', async () => {
    const { user, auth } = await createUser(t.app);
    expect((await chat(auth)).statusCode).toBe(200);
    await t.app.db.update(users).set({ tokenVersion: 1 }).where(eq(users.id, user.id));
    expect((await chat(auth)).statusCode).toBe(401);
  });

  it('a chat token cannot be used as a session token', async () => {
    const { auth } = await createUser(t.app);
    const { chatAuthToken } = (await chat(auth)).json();
    expect((await chat({ authorization: `Bearer ${chatAuthToken}` })).statusCode).toBe(401);
  });
});
