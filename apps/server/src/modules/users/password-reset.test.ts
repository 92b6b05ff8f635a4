import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordResetTokens } from '../../db/schema/index.js';
import { readOutbox } from '../../test/mail.js';
import { createTestApp, type TestApp } from '../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_SCALE: '1000', PUBLIC_URL: 'https://teach.example.org' });
});
afterAll(() => t.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/api/v1${url}`, payload: payload as object, headers });

async function register() {
  const tag = randomBytes(4).toString('hex');
  const account = {
    username: `grace_${tag}`,
    firstName: 'Grace',
    lastName: 'Hopper',
    email: `grace_${tag}@example.org`,
    password: 'original password',
  };
  expect((await post('/users/register', account)).statusCode).toBe(201);
  return account;
}

/** Asks for a reset link and reads it from the outbox, as the teacher would from their inbox. */
async function requestLink(email: string) {
  const before = readOutbox(t.dataDir).length;
  const res = await post('/users/sendpasswordresetemail/', { email });
  expect(res.statusCode).toBe(200);
  await t.app.mail.idle();
  const messages = readOutbox(t.dataDir).slice(before);
  expect(messages).toHaveLength(1);
  const message = messages[0]!;
  const link = /https:\/\/teach\.example\.org\/reset\?token=[\w%-]+/.exec(message.text)?.[0];
  expect(link, message.text).toBeDefined();
  return { message, token: decodeURIComponent(new URL(link!).searchParams.get('token')!) };
}

describe('password reset by email', () => {
  it('emails a single-use link (text and HTML) that sets a new password and ends old sessions', async () => {
    const account = await register();
    const login = await post('/users/login', { email: account.email, password: account.password });
    const oldSession = { authorization: `Bearer ${login.json().token}` };

    const { message, token } = await requestLink(account.email.toUpperCase());
    expect(message.to).toBe(account.email);
    expect(message.subject).toBe('Reset your Chapterwise password');
    expect(message.text).toContain('Hello Grace,');
    expect(message.text).toContain('It works once, for 60 minutes.');
    expect(message.raw).toMatch(/Content-Type: multipart\/alternative/);
    expect(message.raw).toMatch(/Content-Type: text\/html/);
    expect(token).toMatch(/^[\w-]{43}$/);

    // Only a hash of the token is stored.
    const rows = await t.app.db.select().from(passwordResetTokens);
    expect(JSON.stringify(rows)).not.toContain(token);

    const mismatch = await post('/users/resetpassword/', {
      token,
      password: 'new password 1',
      passwordConfirmation: 'new password 2',
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().errors.message).toBe('The two passwords do not match.');

    const res = await post('/users/resetpassword/', {
      token,
      password: 'my new password',
      passwordConfirmation: 'my new password',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      wasSuccessful: true,
      message: 'Your password has been reset. You can now log in with your new password.',
    });
    expect(res.body).not.toContain(token);
    expect((await t.app.inject({ url: '/api/v1/users/me', headers: oldSession })).statusCode).toBe(
      401,
    );
    expect(
      (await post('/users/login', { email: account.email, password: account.password })).statusCode,
    ).toBe(401);
    expect(
      (await post('/users/login', { email: account.email, password: 'my new password' }))
        .statusCode,
    ).toBe(200);

    const again = await post('/users/resetpassword/', {
      token,
      password: 'yet another password',
      passwordConfirmation: 'yet another password',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().errors.message).toMatch(/expired or has already been used/);
  });

  it('answers the same for an unknown address, and sends nothing', async () => {
    const account = await register();
    const known = await post('/users/sendpasswordresetemail/', { email: account.email });
    await t.app.mail.idle();
    const before = readOutbox(t.dataDir).length;
    const unknown = await post('/users/sendpasswordresetemail/', {
      email: 'nobody-at-all@example.org',
    });
    await t.app.mail.idle();
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json()).toEqual(known.json());
    expect(unknown.json().message).toMatch(/^If an account uses that email address/);
    expect(readOutbox(t.dataDir)).toHaveLength(before);
  });

  it('an expired link does not work', async () => {
    const account = await register();
    const { token } = await requestLink(account.email);
    await t.app.db.update(passwordResetTokens).set({ expiresAt: new Date(Date.now() - 1000) });
    const res = await post('/users/resetpassword/', {
      token,
      password: 'new password here',
      passwordConfirmation: 'new password here',
    });
    expect(res.statusCode).toBe(400);
    expect(
      (await post('/users/login', { email: account.email, password: account.password })).statusCode,
    ).toBe(200);
  });

  it('a tampered or made-up token does not work; bad bodies are 400s', async () => {
    const account = await register();
    const { token } = await requestLink(account.email);
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const bad of [tampered, 'made-up', 'x'.repeat(200)]) {
      const res = await post('/users/resetpassword/', {
        token: bad,
        password: 'new password here',
        passwordConfirmation: 'new password here',
      });
      expect(res.statusCode).toBe(400);
    }
    for (const body of [
      {},
      { token },
      { token, password: 'short', passwordConfirmation: 'short' },
      { token: 5 },
    ]) {
      const res = await post('/users/resetpassword/', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const bad = await post('/users/sendpasswordresetemail/', { email: 'not an email' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.message).toContain('email');
  });

  it('two uses of one link at the same moment: exactly one wins', async () => {
    const account = await register();
    const { token } = await requestLink(account.email);
    const answers = await Promise.all(
      ['first password!', 'second password'].map((password) =>
        post('/users/resetpassword/', { token, password, passwordConfirmation: password }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
  });

  it('a password change makes outstanding reset links useless', async () => {
    const account = await register();
    const { token } = await requestLink(account.email);
    const login = await post('/users/login', { email: account.email, password: account.password });
    const change = await post(
      '/users/changepassword',
      {
        oldPassword: account.password,
        newPassword: 'changed by me',
        newPasswordConfirm: 'changed by me',
      },
      { authorization: `Bearer ${login.json().token}` },
    );
    expect(change.statusCode).toBe(200);
    const res = await post('/users/resetpassword/', {
      token,
      password: 'attacker password',
      passwordConfirmation: 'attacker password',
    });
    expect(res.statusCode).toBe(400);
    const rows = await t.app.db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.userId, login.json().user._id));
    expect(rows).toEqual([]);
  });
});
