import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newsletterSubscribers } from '../../db/schema/index.js';
import { readOutbox } from '../../test/mail.js';
import { createTestApp, type TestApp } from '../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_SCALE: '100' });
});
afterAll(() => t.close());

const subscribe = (payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/v1/users/subscribe/', payload: payload as object });

async function confirmationFor(email: string) {
  await t.app.mail.idle();
  return readOutbox(t.dataDir).filter((m) => m.to.toLowerCase() === email.toLowerCase());
}

function unsubscribeToken(text: string) {
  const link = /http:\/\/localhost:3000\/newsletter\/unsubscribe\?token=([\w.%-]+)/.exec(text);
  expect(link, text).not.toBeNull();
  return decodeURIComponent(link![1]!);
}

describe('POST /users/subscribe/', () => {
  it('stores the address once and sends one confirmation with a working unsubscribe link', async () => {
    const res = await subscribe([{ email: 'Teacher.One@School.org' }]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ wasSuccessful: true });
    expect((await subscribe([{ email: 'teacher.one@school.org' }])).statusCode).toBe(200);

    const rows = await t.app.db.select().from(newsletterSubscribers);
    expect(rows.filter((r) => r.email.toLowerCase() === 'teacher.one@school.org')).toHaveLength(1);

    const mails = await confirmationFor('Teacher.One@School.org');
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe("You're subscribed to the Chapterwise newsletter");
    expect(mail.header('List-Unsubscribe')).toMatch(
      /^<http:\/\/localhost:3000\/api\/v1\/newsletter\/unsubscribe\?token=/,
    );
    expect(mail.header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const token = unsubscribeToken(mail.text);

    const status = await t.app.inject(
      `/api/v1/newsletter/status?token=${encodeURIComponent(token)}`,
    );
    expect(status.json()).toEqual({ email: 'T********@School.org', subscribed: true });

    const out = await t.app.inject({
      method: 'POST',
      url: '/api/v1/newsletter/unsubscribe',
      payload: { token },
    });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ email: 'T********@School.org', subscribed: false });
    // Twice is fine.
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/newsletter/unsubscribe',
          payload: { token },
        })
      ).statusCode,
    ).toBe(200);
    const after = await t.app.inject(
      `/api/v1/newsletter/status?token=${encodeURIComponent(token)}`,
    );
    expect(after.json().subscribed).toBe(false);

    // Subscribing again starts a new subscription: a new confirmation goes out.
    await subscribe([{ email: 'teacher.one@school.org' }]);
    expect(await confirmationFor('Teacher.One@School.org')).toHaveLength(2);
  });

  it("mail clients' one-click unsubscribe (form POST to the List-Unsubscribe address) works", async () => {
    await subscribe([{ email: 'oneclick@example.org' }]);
    const [mail] = await confirmationFor('oneclick@example.org');
    const header = /^<([^>]+)>$/.exec(mail!.header('List-Unsubscribe'))![1]!;
    const url = new URL(header);
    const res = await t.app.inject({
      method: 'POST',
      url: url.pathname + url.search,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().subscribed).toBe(false);
  });

  it.each([
    [[{ email: 'not-an-email' }]],
    [[]],
    [[{ email: '' }]],
    [{ email: 'a@b.org' }],
    [[{ email: 'a@b.org' }, { email: 'c@d.org' }]],
    ['"a@b.org"'],
  ])('a bad body %j is a 400', async (payload) => {
    const res =
      typeof payload === 'string'
        ? await t.app.inject({
            method: 'POST',
            url: '/api/v1/users/subscribe/',
            headers: { 'content-type': 'application/json' },
            payload,
          })
        : await subscribe(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.code).toBe('BAD_REQUEST');
  });

  it('forged, altered or incomplete unsubscribe tokens are refused', async () => {
    await subscribe([{ email: 'victim@example.org' }]);
    const [mail] = await confirmationFor('victim@example.org');
    const token = unsubscribeToken(mail!.text);
    const [id, mac] = token.split('.');
    const forged = [
      `${id}.${mac!.slice(0, -1)}${mac!.endsWith('A') ? 'B' : 'A'}`,
      `${id}`,
      `00000000-0000-0000-0000-000000000000.${mac}`,
      `${id}.${mac}.extra`,
    ];
    for (const bad of forged) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/newsletter/unsubscribe',
        payload: { token: bad },
      });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().errors.message).toMatch(/not valid/);
    }
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/v1/newsletter/unsubscribe',
      payload: {},
    });
    expect(none.statusCode).toBe(400);
    const status = await t.app.inject(
      `/api/v1/newsletter/status?token=${encodeURIComponent(token)}`,
    );
    expect(status.json().subscribed).toBe(true);
  });
});
