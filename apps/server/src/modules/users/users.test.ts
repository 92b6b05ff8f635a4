import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/index.js';
import { createTestApp, createUser, TEST_JWT_SECRET, type TestApp } from '../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  // Many sign-ups from one test address: lift the per-IP budgets (rate-limits.test.ts checks them).
  t = await createTestApp({ RATE_LIMIT_SCALE: '1000' });
});
afterAll(() => t.close());

let n = 0;
function newAccount(overrides: Record<string, unknown> = {}) {
  n += 1;
  const tag = `${randomBytes(3).toString('hex')}${n}`;
  return {
    username: `ada_${tag}`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: `ada_${tag}@example.org`,
    password: 'correct horse battery staple',
    passwordConfirmation: 'correct horse battery staple',
    ...overrides,
  };
}

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/api/v1${url}`, payload: payload as object, headers });

async function registerAndLogin(overrides: Record<string, unknown> = {}, rememberMe = false) {
  const account = newAccount(overrides);
  const reg = await post('/users/register', account);
  expect(reg.statusCode, reg.body).toBe(201);
  const login = await post('/users/login', {
    email: account.email,
    password: account.password,
    rememberMe,
  });
  expect(login.statusCode, login.body).toBe(200);
  const { token, user } = login.json();
  return { account, token: token as string, user, auth: { authorization: `Bearer ${token}` } };
}

/** No answer may carry a hash, a reset token or someone else's email. */
function expectNoSecrets(body: string) {
  expect(body).not.toMatch(/argon2/);
  expect(body).not.toMatch(/passwordHash|password_hash|tokenVersion|tokenHash/);
}

describe('POST /users/register', () => {
  it('creates an account with 5 free credits and answers 201 { user } without secrets', async () => {
    const account = newAccount({ city: 'Leeds' });
    const res = await post('/users/register', account);
    expect(res.statusCode).toBe(201);
    const { user } = res.json();
    expect(user).toMatchObject({
      username: account.username,
      email: account.email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      city: 'Leeds',
      country: 'US',
      generationCredits: 5,
      isSubscribed: false,
      isAdmin: false,
      avatar: '',
    });
    expect(user._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(user.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expectNoSecrets(res.body);
    const [row] = await t.app.db.select().from(users).where(eq(users.id, user._id));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('refuses a duplicate email or username whatever the case (409)', async () => {
    const account = newAccount();
    expect((await post('/users/register', account)).statusCode).toBe(201);
    const sameEmail = await post(
      '/users/register',
      newAccount({ email: account.email.toUpperCase() }),
    );
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json().errors).toEqual({
      code: 'CONFLICT',
      message: 'An account already uses this email address. Try logging in instead.',
    });
    const sameName = await post(
      '/users/register',
      newAccount({ username: account.username.toUpperCase() }),
    );
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json().errors.message).toBe(
      'This username is taken. Please choose another one.',
    );
  });

  it('two sign-ups with one email at the same moment make one account', async () => {
    const email = `race_${randomBytes(3).toString('hex')}@example.org`;
    const answers = await Promise.all(
      [1, 2, 3].map(() => post('/users/register', newAccount({ email }))),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409]);
  });

  it.each([
    [{ password: 'short', passwordConfirmation: 'short' }, 'password', 'at least 8'],
    [{ password: 'x'.repeat(257), passwordConfirmation: '' }, 'password', 'at most 256'],
    [{ username: 'ab' }, 'username', 'at least 3'],
    [{ username: 'a'.repeat(31) }, 'username', 'at most 30'],
    [{ username: 'no spaces' }, 'username', 'letters, digits'],
    [{ username: 'émile' }, 'username', 'letters, digits'],
    [{ email: 'not-an-email' }, 'email', 'valid email'],
    [{ firstName: '   ' }, 'firstName', 'first name'],
    [{ email: undefined }, 'email', ''],
  ])('refuses %j with a 400 naming the field', async (overrides, field, words) => {
    const res = await post('/users/register', newAccount(overrides));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.code).toBe('BAD_REQUEST');
    expect(res.json().errors.message).toContain(field);
    expect(res.json().errors.message).toContain(words);
  });

  it('refuses a confirmation that differs from the password', async () => {
    const res = await post(
      '/users/register',
      newAccount({ passwordConfirmation: 'something else' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.message).toBe('The two passwords do not match.');
  });

  it('accepts 8 and 256 character passwords, and ignores read-only fields sent along', async () => {
    const eight = await post(
      '/users/register',
      newAccount({ password: '12345678', passwordConfirmation: undefined }),
    );
    expect(eight.statusCode).toBe(201);
    const long = 'p'.repeat(256);
    const res = await post(
      '/users/register',
      newAccount({
        password: long,
        passwordConfirmation: long,
        generationCredits: 9999,
        isSubscribed: true,
        isAdmin: true,
        role: 'admin',
        _id: '00000000-0000-0000-0000-000000000000',
      }),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().user).toMatchObject({
      generationCredits: 5,
      isSubscribed: false,
      isAdmin: false,
    });
    expect(res.json().user._id).not.toBe('00000000-0000-0000-0000-000000000000');
  });

  it('malformed bodies are 400s, never 500s', async () => {
    for (const payload of ['{"username":', '[]', '"text"', 'null']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/users/register',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json().errors.code).toBe('BAD_REQUEST');
    }
  });
});

describe('POST /users/login and GET /users/me', () => {
  it('logs in with the right password (any email case) and /users/me answers { token, user }', async () => {
    const account = newAccount();
    await post('/users/register', account);
    const login = await post('/users/login', {
      email: `  ${account.email.toUpperCase()} `,
      password: account.password,
    });
    expect(login.statusCode).toBe(200);
    expect(login.headers['cache-control']).toBe('no-store');
    const { token, user } = login.json();
    expect(user.email).toBe(account.email);
    expectNoSecrets(login.body);

    const me = await t.app.inject({
      url: '/api/v1/users/me',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.headers['cache-control']).toBe('no-store');
    expect(me.json()).toEqual({ token, user });
  });

  it("'Remember me' gives a 30-day token, otherwise 1 day", async () => {
    const short = await registerAndLogin({}, false);
    const long = await registerAndLogin({}, true);
    const lifetime = (token: string) => {
      const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
      return claims.exp - claims.iat;
    };
    expect(lifetime(short.token)).toBe(24 * 3600);
    expect(lifetime(long.token)).toBe(30 * 24 * 3600);
  });

  it('a wrong password and an unknown email get the same 401', async () => {
    const account = newAccount();
    await post('/users/register', account);
    const wrong = await post('/users/login', {
      email: account.email,
      password: 'not the password',
    });
    const unknown = await post('/users/login', {
      email: 'nobody@example.org',
      password: 'whatever1',
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().errors.message).toBe('Incorrect email or password.');
  });

  it('login with missing fields is a 400', async () => {
    expect((await post('/users/login', { email: 'a@b.org' })).statusCode).toBe(400);
    expect((await post('/users/login', { password: 'x' })).statusCode).toBe(400);
    expect((await post('/users/login', { email: 5, password: 'x' })).statusCode).toBe(400);
  });

  it('/users/me: no token, a tampered token, an expired one and a garbage one are 401s', async () => {
    const me = (authorization?: string) =>
      t.app.inject({ url: '/api/v1/users/me', headers: authorization ? { authorization } : {} });
    expect((await me()).statusCode).toBe(401);
    const { token, user } = await registerAndLogin();
    const [h, p, s] = token.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 9e6 })).toString('base64url')}.${s}`;
    expect((await me(`Bearer ${forged}`)).statusCode).toBe(401);
    const expired = await new SignJWT({ ver: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user._id)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 100)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));
    expect((await me(`Bearer ${expired}`)).statusCode).toBe(401);
    const otherKey = await new SignJWT({ ver: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user._id)
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-that-is-32-characters-long!!'));
    expect((await me(`Bearer ${otherKey}`)).statusCode).toBe(401);
    expect((await me('Bearer not.a.token')).statusCode).toBe(401);
    expect((await me('Basic dXNlcjpwYXNz')).statusCode).toBe(401);
  });
});

describe('POST /users/logout', () => {
  it('ends the session server-side: the token stops working at once', async () => {
    const { auth } = await registerAndLogin();
    const out = await post('/users/logout', {}, auth);
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ wasSuccessful: true, message: 'You have been logged out.' });
    const me = await t.app.inject({ url: '/api/v1/users/me', headers: auth });
    expect(me.statusCode).toBe(401);
    expect(me.json().errors.message).toBe('Your session has ended. Please log in again.');
  });

  it('needs a session', async () => {
    expect((await post('/users/logout', {})).statusCode).toBe(401);
  });
});

describe('PATCH /users/{id}', () => {
  const patch = (id: string, payload: unknown, headers: Record<string, string>) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${id}`,
      payload: payload as object,
      headers,
    });

  it('saves the editable fields, normalises links and ignores read-only ones', async () => {
    const { user, auth, account } = await registerAndLogin();
    const res = await patch(
      user._id,
      {
        firstName: '  Augusta ',
        lastName: 'King',
        bio: 'I teach maths and poetry.',
        websiteUrl: 'ada.example.org',
        instagramUrl: 'https://instagram.com/ada',
        twitterUrl: '',
        facebookUrl: 'http://facebook.com/ada',
        city: 'London',
        // read-only: ignored
        email: 'stolen@example.org',
        username: 'renamed',
        generationCredits: 500,
        isSubscribed: true,
        imageGenerationCredits: 1000,
        modelTrainingCredits: 10,
        createdAt: '2000-01-01T00:00:00.000Z',
        _id: '00000000-0000-0000-0000-000000000000',
        isAdmin: true,
      },
      auth,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user).toMatchObject({
      _id: user._id,
      firstName: 'Augusta',
      lastName: 'King',
      bio: 'I teach maths and poetry.',
      websiteUrl: 'https://ada.example.org',
      instagramUrl: 'https://instagram.com/ada',
      facebookUrl: 'http://facebook.com/ada',
      city: 'London',
      email: account.email,
      username: account.username,
      generationCredits: 5,
      isSubscribed: false,
      imageGenerationCredits: 0,
      modelTrainingCredits: 0,
      isAdmin: false,
      createdAt: user.createdAt,
    });
    const me = await t.app.inject({ url: '/api/v1/users/me', headers: auth });
    expect(me.json().user.firstName).toBe('Augusta');
  });

  it.each([
    [{ websiteUrl: 'javascript:alert(1)' }, 'websiteUrl'],
    [{ twitterUrl: 'https://' }, 'twitterUrl'],
    [{ facebookUrl: 'data:text/html,<script>1</script>' }, 'facebookUrl'],
    [{ firstName: '' }, 'firstName'],
    [{ bio: 'x'.repeat(1001) }, 'bio'],
    [{ firstName: 42 }, 'firstName'],
  ])('refuses %j with a 400 naming the field', async (payload, field) => {
    const { user, auth } = await registerAndLogin();
    const res = await patch(user._id, payload, auth);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.message).toContain(field);
  });

  it("another user's id is a 403 and changes nothing; no session is a 401", async () => {
    const a = await registerAndLogin();
    const b = await registerAndLogin();
    const res = await patch(b.user._id, { firstName: 'Mallory' }, a.auth);
    expect(res.statusCode).toBe(403);
    expect(res.json().errors.code).toBe('FORBIDDEN');
    const unknown = await patch('00000000-0000-0000-0000-000000000000', { bio: 'x' }, a.auth);
    expect(unknown.statusCode).toBe(403);
    expect((await patch(a.user._id, { bio: 'x' }, {})).statusCode).toBe(401);
    const bMe = await t.app.inject({ url: '/api/v1/users/me', headers: b.auth });
    expect(bMe.json().user.firstName).toBe('Ada');
  });

  describe('avatar', () => {
    const dataUrl = (buffer: Buffer, type = 'image/png') =>
      `data:${type};base64,${buffer.toString('base64')}`;

    it('re-encodes a photo to a 256 px square webp without metadata, served from /uploads', async () => {
      const { user, auth } = await registerAndLogin();
      const photo = await sharp({
        create: { width: 800, height: 500, channels: 3, background: { r: 200, g: 80, b: 40 } },
      })
        .jpeg()
        .withExif({ IFD0: { Copyright: 'secret-camera-owner', Artist: 'GPS-here' } })
        .toBuffer();
      expect((await sharp(photo).metadata()).exif).toBeDefined();
      // The declared type says png: the content (jpeg) is what counts.
      const res = await patch(user._id, { avatar: dataUrl(photo, 'image/png') }, auth);
      expect(res.statusCode, res.body).toBe(200);
      const avatar: string = res.json().user.avatar;
      expect(avatar).toMatch(/^\/uploads\/avatars\/[0-9a-f-]+-[0-9a-f]{12}\.webp$/);

      const served = await t.app.inject(avatar);
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/webp');
      expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      const meta = await sharp(served.rawPayload).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 });
      expect(meta.exif).toBeUndefined();
      expect(served.rawPayload.toString('latin1')).not.toContain('secret-camera-owner');

      // A new avatar replaces the file; '' removes it.
      const png = await sharp({
        create: { width: 300, height: 300, channels: 4, background: '#0f766e' },
      })
        .png()
        .toBuffer();
      const second = await patch(user._id, { avatar: dataUrl(png) }, auth);
      const secondUrl: string = second.json().user.avatar;
      expect(secondUrl).not.toBe(avatar);
      expect((await t.app.inject(avatar)).statusCode).toBe(404);
      expect(existsSync(path.join(t.dataDir, 'uploads', secondUrl.replace('/uploads/', '')))).toBe(
        true,
      );

      // Sending the current address back (the form does) keeps it.
      const same = await patch(user._id, { avatar: secondUrl, bio: 'hi' }, auth);
      expect(same.json().user.avatar).toBe(secondUrl);

      const removed = await patch(user._id, { avatar: '' }, auth);
      expect(removed.json().user.avatar).toBe('');
      expect((await t.app.inject(secondUrl)).statusCode).toBe(404);
    });

    it('accepts webp, refuses gif, svg and text pretending to be pictures (415)', async () => {
      const { user, auth } = await registerAndLogin();
      const webp = await sharp({
        create: { width: 64, height: 64, channels: 3, background: '#fff' },
      })
        .webp()
        .toBuffer();
      expect(
        (await patch(user._id, { avatar: dataUrl(webp, 'image/webp') }, auth)).statusCode,
      ).toBe(200);
      const gif = await sharp({
        create: { width: 64, height: 64, channels: 3, background: '#000' },
      })
        .gif()
        .toBuffer();
      const svg = Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      );
      for (const [buffer, type] of [
        [gif, 'image/gif'],
        [svg, 'image/png'],
        [Buffer.from('hello, I am text'), 'image/jpeg'],
      ] as const) {
        const res = await patch(user._id, { avatar: dataUrl(buffer, type) }, auth);
        expect(res.statusCode, type).toBe(415);
        expect(res.json().errors.message).toBe('The avatar must be a JPEG, PNG or WebP picture.');
      }
    });

    it('refuses pictures over 5 MB (413) and broken data (400)', async () => {
      const { user, auth } = await registerAndLogin();
      const big = Buffer.alloc(5 * 1024 * 1024 + 10, 7);
      const res = await patch(user._id, { avatar: dataUrl(big) }, auth);
      expect(res.statusCode).toBe(413);
      expect(res.json().errors.code).toBe('PAYLOAD_TOO_LARGE');
      const huge = await patch(
        user._id,
        { avatar: `data:image/png;base64,${'A'.repeat(9_000_000)}` },
        auth,
      );
      expect(huge.statusCode).toBe(413);
      const broken = await patch(user._id, { avatar: 'data:image/png;base64,@@@@' }, auth);
      expect(broken.statusCode).toBe(400);
      const me = await t.app.inject({ url: '/api/v1/users/me', headers: auth });
      expect(me.json().user.avatar).toBe('');
    });
  });
});

describe('POST /users/changepassword', () => {
  it('changes the password: old tokens stop working, the answer brings a new one', async () => {
    const other = await registerAndLogin({}, true);
    const { account, auth, token } = other;
    const second = await post('/users/login', { email: account.email, password: account.password });
    const otherDevice = { authorization: `Bearer ${second.json().token}` };

    const res = await post(
      '/users/changepassword',
      {
        oldPassword: account.password,
        newPassword: 'a brand new passphrase',
        newPasswordConfirm: 'a brand new passphrase',
      },
      auth,
    );
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json();
    expect(answer).toMatchObject({
      wasSuccessful: true,
      message: 'Your password has been changed.',
    });
    expect(answer.token).not.toBe(token);
    const claims = JSON.parse(Buffer.from(answer.token.split('.')[1], 'base64url').toString());
    expect(claims.exp - claims.iat).toBe(30 * 24 * 3600);

    for (const headers of [auth, otherDevice]) {
      expect((await t.app.inject({ url: '/api/v1/users/me', headers })).statusCode).toBe(401);
    }
    const fresh = { authorization: `Bearer ${answer.token}` };
    expect((await t.app.inject({ url: '/api/v1/users/me', headers: fresh })).statusCode).toBe(200);
    expect(
      (await post('/users/login', { email: account.email, password: account.password })).statusCode,
    ).toBe(401);
    expect(
      (await post('/users/login', { email: account.email, password: 'a brand new passphrase' }))
        .statusCode,
    ).toBe(200);
  });

  it.each([
    [{ oldPassword: 'wrong password' }, 'Your current password is not correct.'],
    [{ newPasswordConfirm: 'different one!' }, 'The two passwords do not match.'],
    [{ newPassword: 'short', newPasswordConfirm: 'short' }, 'at least 8'],
    [
      {
        newPassword: 'correct horse battery staple',
        newPasswordConfirm: 'correct horse battery staple',
      },
      'must be different',
    ],
  ])('refuses %j with a 400 and keeps the session', async (overrides, message) => {
    const { account, auth } = await registerAndLogin();
    const res = await post(
      '/users/changepassword',
      {
        oldPassword: account.password,
        newPassword: 'another good password',
        newPasswordConfirm: 'another good password',
        ...overrides,
      },
      auth,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.message).toContain(message);
    expect((await t.app.inject({ url: '/api/v1/users/me', headers: auth })).statusCode).toBe(200);
  });

  it('needs a session', async () => {
    const res = await post('/users/changepassword', {
      oldPassword: 'a',
      newPassword: 'abcdefgh',
      newPasswordConfirm: 'abcdefgh',
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /users/getuserinfobyusername/{username}', () => {
  it('answers public fields only (no email, address or credits), whatever the case', async () => {
    const { account, user, auth } = await registerAndLogin({
      city: 'Secretville',
      address: '1 Hidden Road',
    });
    await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${user._id}`,
      payload: { bio: 'Teacher.', twitterUrl: 'https://twitter.com/ada' },
      headers: auth,
    });
    const res = await t.app.inject(
      `/api/v1/users/getuserinfobyusername/${account.username.toUpperCase()}`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: {
        user: {
          username: account.username,
          firstName: 'Ada',
          lastName: 'Lovelace',
          bio: 'Teacher.',
          createdAt: user.createdAt,
          avatar: '',
          websiteUrl: '',
          instagramUrl: '',
          twitterUrl: 'https://twitter.com/ada',
          facebookUrl: '',
        },
      },
    });
    expect(res.body).not.toContain(account.email);
    expect(res.body).not.toContain('Secretville');
    expectNoSecrets(res.body);
  });

  it('an unknown or odd username is a 404', async () => {
    for (const name of ['nobody_here', '..%2F..%2Fetc', '%00', 'a'.repeat(64)]) {
      const res = await t.app.inject(`/api/v1/users/getuserinfobyusername/${name}`);
      expect(res.statusCode, name).toBe(404);
      expect(res.json().errors.code).toBe('NOT_FOUND');
    }
  });
});

describe('factory users', () => {
  it('a user made by the test factory (no real hash) cannot log in and does not crash login', async () => {
    const { user } = await createUser(t.app);
    const res = await post('/users/login', { email: user.email, password: 'not-a-real-hash' });
    expect(res.statusCode).toBe(401);
  });
});
