import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers.js';

/** The real budgets (RATE_LIMIT_SCALE = 1), per IP address and per email address. */
describe('rate limits on login, register, reset request and newsletter', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const post = (url: string, payload: unknown, ip = '10.0.0.1') =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1${url}`,
      payload: payload as object,
      remoteAddress: ip,
    });

  it('login: 10 tries per email in 15 minutes, then a 429 with a clear message, from any IP', async () => {
    const email = 'target@example.org';
    for (let i = 0; i < 10; i++) {
      const res = await post('/users/login', { email, password: `guess ${i}` }, `10.1.0.${i}`);
      expect(res.statusCode).toBe(401);
    }
    const blocked = await post(
      '/users/login',
      { email: 'TARGET@example.org', password: 'guess' },
      '10.1.1.1',
    );
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().errors).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many attempts for this email address. Please wait 15 minutes and try again.',
    });
    // Another address from the same IPs is still fine.
    expect(
      (await post('/users/login', { email: 'other@example.org', password: 'x' }, '10.1.1.1'))
        .statusCode,
    ).toBe(401);
  });

  it('login: 30 tries per IP in 15 minutes, then a 429', async () => {
    for (let i = 0; i < 30; i++) {
      const res = await post(
        '/users/login',
        { email: `someone${i}@example.org`, password: 'x' },
        '10.2.0.1',
      );
      expect(res.statusCode).toBe(401);
    }
    const blocked = await post(
      '/users/login',
      { email: 'fresh@example.org', password: 'x' },
      '10.2.0.1',
    );
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().errors).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many attempts. Please wait 15 minutes and try again.',
    });
    expect(blocked.headers['retry-after']).toBeDefined();
    expect(
      (await post('/users/login', { email: 'fresh@example.org', password: 'x' }, '10.2.0.2'))
        .statusCode,
    ).toBe(401);
  });

  it('register: 10 per IP per hour', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await post(
        '/users/register',
        {
          username: `rl_${i}_x`,
          firstName: 'R',
          lastName: 'L',
          email: `rl${i}@example.org`,
          password: 'password123',
        },
        '10.3.0.1',
      );
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 10).every((s) => s === 201)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('register: 5 per email per hour', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await post(
        '/users/register',
        {
          username: `dup_${i}_x`,
          firstName: 'R',
          lastName: 'L',
          email: 'dup@example.org',
          password: 'password123',
        },
        `10.4.0.${i}`,
      );
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([201, 409, 409, 409, 409, 429]);
  });

  it('reset request: 3 per email per hour, 10 per IP per hour', async () => {
    const email = 'reset-me@example.org';
    const perEmail = [];
    for (let i = 0; i < 4; i++) {
      perEmail.push(
        (await post('/users/sendpasswordresetemail/', { email }, `10.5.0.${i}`)).statusCode,
      );
    }
    expect(perEmail).toEqual([200, 200, 200, 429]);
    const perIp = [];
    for (let i = 0; i < 11; i++) {
      perIp.push(
        (await post('/users/sendpasswordresetemail/', { email: `r${i}@example.org` }, '10.6.0.1'))
          .statusCode,
      );
    }
    expect(perIp.filter((s) => s === 200)).toHaveLength(10);
    expect(perIp[10]).toBe(429);
  });

  it('newsletter: 3 per email per hour, 10 per IP per hour', async () => {
    const perEmail = [];
    for (let i = 0; i < 4; i++) {
      perEmail.push(
        (await post('/users/subscribe/', [{ email: 'news@example.org' }], `10.7.0.${i}`))
          .statusCode,
      );
    }
    expect(perEmail).toEqual([200, 200, 200, 429]);
    const perIp = [];
    for (let i = 0; i < 11; i++) {
      perIp.push(
        (await post('/users/subscribe/', [{ email: `n${i}@example.org` }], '10.8.0.1')).statusCode,
      );
    }
    expect(perIp.filter((s) => s === 200)).toHaveLength(10);
    expect(perIp[10]).toBe(429);
  });
});

describe('RATE_LIMIT_SCALE', () => {
  it('multiplies the per-IP budget (a school behind one address)', async () => {
    const t = await createTestApp({ RATE_LIMIT_SCALE: '2' });
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/users/login',
        payload: { email: `s${i}@example.org`, password: 'x' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(60);
    expect(statuses[60]).toBe(429);
    await t.close();
  });
});
