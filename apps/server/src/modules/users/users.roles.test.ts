import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, type TestApp } from '../../test/helpers.js';
import { USERS_ADMIN_COMMAND } from './users.roles.routes.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const call = (body: unknown, headers: Record<string, string> = {}, remoteAddress?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/users/roles',
    payload: body as object,
    headers,
    ...(remoteAddress ? { remoteAddress } : {}),
  });

describe('POST /users/roles (npm run users:admin through a running server)', () => {
  it('grants, revokes and lists with an operator token; the role counts at once', async () => {
    const teacher = await createUser(t.app, { email: 'Grace.Hopper@Example.org' });
    const token = await t.app.tokens.signOperator(USERS_ADMIN_COMMAND);
    const auth = { authorization: `Bearer ${token}` };
    const me = async () =>
      (await t.app.inject({ url: '/api/v1/users/me', headers: teacher.auth })).json().user.isAdmin;
    expect(await me()).toBe(false);
    expect(
      (await t.app.inject({ url: '/api/v1/blog/admin/posts', headers: teacher.auth })).statusCode,
    ).toBe(403);

    const granted = await call({ action: 'grant', email: 'grace.hopper@example.org' }, auth);
    expect(granted.statusCode, granted.body).toBe(200);
    expect(granted.json()).toEqual({
      changed: {
        email: 'Grace.Hopper@Example.org',
        username: teacher.user.username,
        role: 'admin',
      },
      admins: [{ email: 'Grace.Hopper@Example.org', username: teacher.user.username }],
    });
    expect(await me()).toBe(true);
    expect(
      (await t.app.inject({ url: '/api/v1/blog/admin/posts', headers: teacher.auth })).statusCode,
    ).toBe(200);

    expect((await call({ action: 'list' }, auth)).json().admins).toHaveLength(1);
    const revoked = await call({ action: 'revoke', email: 'grace.hopper@example.org' }, auth);
    expect(revoked.json().changed.role).toBe('user');
    expect(await me()).toBe(false);
    expect((await call({ action: 'list' }, auth)).json()).toEqual({ admins: [] });

    const unknown = await call({ action: 'grant', email: 'nobody@example.org' }, auth);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().errors.message).toBe(
      'No account uses the email address nobody@example.org.',
    );
    expect((await call({ action: 'grant' }, auth)).statusCode).toBe(400);
    expect((await call({ action: 'promote', email: 'a@example.org' }, auth)).statusCode).toBe(400);
  });

  it('refuses sessions, other tokens and connections from other machines', async () => {
    const admin = await createUser(t.app, { role: 'admin' });
    const body = { action: 'list' };
    expect((await call(body)).statusCode).toBe(401);
    // An admin's session is not an operator token.
    expect((await call(body, admin.auth)).statusCode).toBe(401);
    const other = await t.app.tokens.signOperator('books:import');
    expect((await call(body, { authorization: `Bearer ${other}` })).statusCode).toBe(401);
    const forged = await t.app.tokens.signOperator(USERS_ADMIN_COMMAND);
    const tampered = `${forged.slice(0, -4)}AAAA`;
    expect((await call(body, { authorization: `Bearer ${tampered}` })).statusCode).toBe(401);
    // From another machine the route does not exist, even with a valid token.
    const remote = await call(body, { authorization: `Bearer ${forged}` }, '203.0.113.5');
    expect(remote.statusCode).toBe(404);
    expect(remote.json().errors.code).toBe('NOT_FOUND');
    // An operator token is never a session.
    expect(await t.app.tokens.verify(forged)).toBeNull();
    expect(
      (
        await t.app.inject({
          url: '/api/v1/users/me',
          headers: { authorization: `Bearer ${forged}` },
        })
      ).statusCode,
    ).toBe(401);
  });
});
