import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, paymentEvents, users } from '../../db/schema/index.js';
import { chapter } from '../../test/chapters.js';
import { createTestApp, createUser, type TestApp } from '../../test/helpers.js';

/**
 * Billing through the local adapter (the default): the test checkout, portal and onboarding
 * calls, and the rule that no call lets a client give itself credits or the plan.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Auth = { authorization: string };

const post = (url: string, payload?: unknown, auth?: Auth) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1${url}`,
    ...(payload === undefined ? {} : { payload: payload as object }),
    ...(auth ? { headers: auth } : {}),
  });
const get = (url: string, auth?: Auth) =>
  t.app.inject({ method: 'GET', url: `/api/v1${url}`, ...(auth ? { headers: auth } : {}) });

async function userRow(id: string) {
  const [row] = await t.app.db.select().from(users).where(eq(users.id, id));
  return row!;
}

const TEXT = chapter(84).text;
const generate = (auth: Auth) =>
  post(
    '/materials/generatematerial',
    {
      name: 'Frankenstein quiz',
      subject: 'English',
      grade: '8th Grade (Year 9)',
      type: 'Quiz',
      referenceText: TEXT,
    },
    auth,
  );

/** Starts a checkout and pays it on the test checkout; answers the session id. */
async function buy(auth: Auth, url: string, body: unknown = {}) {
  const start = await post(url, body, auth);
  expect(start.statusCode, start.body).toBe(200);
  const { id } = start.json() as { id: string; url: string };
  const pay = await post(`/payment/local/checkout/${id}/pay`, undefined, auth);
  expect(pay.statusCode, pay.body).toBe(200);
  return id;
}

describe('the Unlimited plan through the test checkout', () => {
  it('a teacher without credits subscribes and can generate at once', async () => {
    const { user, auth } = await createUser(t.app, { generationCredits: 0 });
    expect((await generate(auth)).statusCode).toBe(402);

    const start = await post('/payment/create-checkout-session', { referral: 'spring' }, auth);
    expect(start.statusCode, start.body).toBe(200);
    const { id, url } = start.json();
    expect(id).toMatch(/^cs_local_[A-Za-z0-9]{24}$/);
    expect(url).toBe(`http://localhost:3000/pay/checkout/${id}`);

    const session = await get(`/payment/checkout-session/${id}`, auth);
    expect(session.statusCode).toBe(200);
    expect(session.json().data).toMatchObject({
      id,
      status: 'open',
      mode: 'subscription',
      order: {
        product: 'subscription',
        amount: 999,
        status: 'pending',
        productName: 'Unlimited plan',
      },
      cancelUrl: 'http://localhost:3000/subscription',
    });
    expect((await userRow(user.id)).isSubscribed).toBe(false);

    const pay = await post(`/payment/local/checkout/${id}/pay`, undefined, auth);
    expect(pay.statusCode, pay.body).toBe(200);
    expect(pay.json().url).toBe(`http://localhost:3000/thankyou?session_id=${id}`);

    const me = await get('/users/me', auth);
    expect(me.json().user).toMatchObject({ isSubscribed: true, generationCredits: 0 });
    expect((await generate(auth)).statusCode).toBe(201);

    const sub = (await get('/payment/subscription', auth)).json().data;
    expect(sub).toMatchObject({ status: 'active', isSubscribed: true, cancelAtPeriodEnd: false });
    const days = (Date.parse(sub.currentPeriodEnd) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(27);
    expect(days).toBeLessThan(32);

    const list = (await get('/users/me/orders', auth)).json();
    expect(list.count).toBe(1);
    expect(list.data[0]).toMatchObject({ product: 'subscription', amount: 999, status: 'paid' });
    expect((await get(`/payment/checkout-session/${id}`, auth)).json().data.status).toBe(
      'complete',
    );
  });

  it('a subscriber cannot start a second plan', async () => {
    const { auth } = await createUser(t.app);
    await buy(auth, '/payment/create-checkout-session');
    const again = await post('/payment/create-checkout-session', {}, auth);
    expect(again.statusCode).toBe(409);
  });

  it('the portal cancels at the end of the period, resumes, and the plan ends when the period does', async () => {
    const { user, auth } = await createUser(t.app, { generationCredits: 0 });
    expect((await post('/payment/customer-portal', undefined, auth)).statusCode).toBe(404);
    await buy(auth, '/payment/create-checkout-session');

    const portal = await post('/payment/customer-portal', undefined, auth);
    expect(portal.statusCode).toBe(200);
    expect(portal.json().url).toBe('http://localhost:3000/pay/portal');

    const cancel = await post('/payment/local/portal/cancel', undefined, auth);
    expect(cancel.json().data).toMatchObject({ cancelAtPeriodEnd: true, isSubscribed: true });
    // Cancelled plans keep working until the period they paid for ends.
    expect((await userRow(user.id)).isSubscribed).toBe(true);

    const resume = await post('/payment/local/portal/resume', undefined, auth);
    expect(resume.json().data).toMatchObject({ cancelAtPeriodEnd: false, status: 'active' });

    await post('/payment/local/portal/cancel', undefined, auth);
    const end = await post('/payment/local/portal/end-period', undefined, auth);
    expect(end.json().data).toMatchObject({ status: 'canceled', isSubscribed: false });
    expect((await userRow(user.id)).isSubscribed).toBe(false);
    expect((await generate(auth)).statusCode).toBe(402);
    expect((await post('/payment/local/portal/resume', undefined, auth)).statusCode).toBe(404);
  });

  it('a failed renewal makes the plan past_due (still active) and it ends with the period', async () => {
    const { user, auth } = await createUser(t.app, { generationCredits: 0 });
    await buy(auth, '/payment/create-checkout-session');
    const failed = await post('/payment/local/portal/fail-payment', undefined, auth);
    expect(failed.json().data).toMatchObject({ status: 'past_due', isSubscribed: true });
    expect((await userRow(user.id)).isSubscribed).toBe(true);
    expect((await generate(auth)).statusCode).toBe(201);
    const list = (await get('/users/me/orders', auth)).json();
    expect(list.data.map((o: { status: string }) => o.status)).toEqual(['failed', 'paid']);

    await post('/payment/local/portal/end-period', undefined, auth);
    expect((await userRow(user.id)).isSubscribed).toBe(false);
  });

  it('the local billing clock renews a plan whose period is over, once per period', async () => {
    const { user, auth } = await createUser(t.app);
    await buy(auth, '/payment/create-checkout-session');
    const before = (await get('/payment/subscription', auth)).json().data;
    const later = new Date(Date.parse(before.currentPeriodEnd) + 60_000);
    expect(await t.app.billing.runLocalClock(later)).toBeGreaterThanOrEqual(1);
    // The same period's renewal made again is the same events: nothing more happens.
    await t.app.billing.runLocalClock(later);
    const after = (await get('/payment/subscription', auth)).json().data;
    expect(Date.parse(after.currentPeriodEnd)).toBeGreaterThan(Date.parse(before.currentPeriodEnd));
    expect(after.status).toBe('active');
    const list = (await get('/users/me/orders', auth)).json();
    expect(list.count).toBe(2);
    expect(list.data[0]).toMatchObject({ product: 'subscription', status: 'paid', amount: 999 });
    expect((await userRow(user.id)).isSubscribed).toBe(true);
  });
});

describe('credit packs through the test checkout', () => {
  it('image generation credits: +100, once, at the server price whatever the client sends', async () => {
    const { user, auth } = await createUser(t.app);
    const start = await post(
      '/payment/create-credit-checkout-session',
      {
        product: 'imageGenerationCredits',
        referral: 'x',
        amount: 1,
        amountCents: 1,
        price: 'price_free',
        imageGenerationCredits: 5000,
      },
      auth,
    );
    expect(start.statusCode, start.body).toBe(200);
    const { id } = start.json();
    const pay = await post(
      `/payment/local/checkout/${id}/pay`,
      { amount: 1, product: 'modelTrainingCredit', userId: 'x' },
      auth,
    );
    expect(pay.statusCode, pay.body).toBe(200);
    const row = await userRow(user.id);
    expect(row.imageGenerationCredits).toBe(100);
    expect(row.modelTrainingCredits).toBe(0);
    const [order] = (await get('/users/me/orders', auth)).json().data;
    expect(order).toMatchObject({
      product: 'imageGenerationCredits',
      amount: 500,
      status: 'paid',
      productName: 'Image Generation Credits',
    });

    // Paying the same checkout again is refused and adds nothing.
    const twice = await post(`/payment/local/checkout/${id}/pay`, undefined, auth);
    expect(twice.statusCode).toBe(409);
    expect((await userRow(user.id)).imageGenerationCredits).toBe(100);
  });

  it('a model training credit gives 1 model credit and 100 image credits', async () => {
    const { user, auth } = await createUser(t.app);
    await buy(auth, '/payment/create-credit-checkout-session', { product: 'modelTrainingCredit' });
    const row = await userRow(user.id);
    expect(row.modelTrainingCredits).toBe(1);
    expect(row.imageGenerationCredits).toBe(100);
    const me = (await get('/users/me', auth)).json().user;
    expect(me).toMatchObject({ modelTrainingCredits: 1, imageGenerationCredits: 100 });
    const [order] = (await get('/users/me/orders', auth)).json().data;
    expect(order).toMatchObject({ amount: 1000, product: 'modelTrainingCredit' });
  });

  it("another teacher's checkout is invisible: no reading, paying or cancelling it", async () => {
    const owner = await createUser(t.app);
    const other = await createUser(t.app);
    const start = await post(
      '/payment/create-credit-checkout-session',
      { product: 'imageGenerationCredits' },
      owner.auth,
    );
    const { id } = start.json();
    expect((await get(`/payment/checkout-session/${id}`, other.auth)).statusCode).toBe(404);
    expect(
      (await post(`/payment/local/checkout/${id}/pay`, undefined, other.auth)).statusCode,
    ).toBe(404);
    expect(
      (await post(`/payment/local/checkout/${id}/cancel`, undefined, other.auth)).statusCode,
    ).toBe(404);
    expect((await userRow(other.user.id)).imageGenerationCredits).toBe(0);
    expect((await userRow(owner.user.id)).imageGenerationCredits).toBe(0);
    expect((await get(`/payment/checkout-session/${id}`, owner.auth)).json().data.status).toBe(
      'open',
    );
  });

  it('Cancel on the checkout goes back and the checkout can no longer be paid', async () => {
    const { user, auth } = await createUser(t.app);
    const start = await post(
      '/payment/create-credit-checkout-session',
      { product: 'imageGenerationCredits', returnPath: '/dashboard' },
      auth,
    );
    const { id } = start.json();
    const cancel = await post(`/payment/local/checkout/${id}/cancel`, undefined, auth);
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json().url).toBe('http://localhost:3000/dashboard');
    expect((await post(`/payment/local/checkout/${id}/pay`, undefined, auth)).statusCode).toBe(409);
    expect((await userRow(user.id)).imageGenerationCredits).toBe(0);
    const [order] = (await get('/users/me/orders', auth)).json().data;
    expect(order.status).toBe('canceled');
  });

  it('checkouts left open for a day expire', async () => {
    const { auth } = await createUser(t.app);
    const start = await post(
      '/payment/create-credit-checkout-session',
      { product: 'imageGenerationCredits' },
      auth,
    );
    const { id } = start.json();
    await t.app.billing.runLocalClock(new Date(Date.now() + 25 * 3600_000));
    expect((await get(`/payment/checkout-session/${id}`, auth)).json().data.status).toBe('expired');
    expect((await post(`/payment/local/checkout/${id}/pay`, undefined, auth)).statusCode).toBe(409);
  });
});

describe('orders', () => {
  it('lists only your own, newest first, with paging; amounts in cents', async () => {
    const { auth } = await createUser(t.app);
    const other = await createUser(t.app);
    await buy(other.auth, '/payment/create-credit-checkout-session', {
      product: 'imageGenerationCredits',
    });
    await buy(auth, '/payment/create-credit-checkout-session', { product: 'modelTrainingCredit' });
    await buy(auth, '/payment/create-credit-checkout-session', {
      product: 'imageGenerationCredits',
    });
    await buy(auth, '/payment/create-checkout-session');
    const all = (await get('/users/me/orders', auth)).json();
    expect(all.count).toBe(3);
    expect(all.data.map((o: { product: string }) => o.product)).toEqual([
      'subscription',
      'imageGenerationCredits',
      'modelTrainingCredit',
    ]);
    expect(all.data.map((o: { amount: number }) => o.amount)).toEqual([999, 500, 1000]);
    const page2 = (await get('/users/me/orders?limit=2&page=2', auth)).json();
    expect(page2).toMatchObject({ count: 3, data: [{ product: 'modelTrainingCredit' }] });
    expect((await get('/users/me/orders?limit=500', auth)).statusCode).toBe(400);
    expect((await get('/users/me/orders')).statusCode).toBe(401);
  });
});

describe('seller onboarding through the test onboarding page', () => {
  it("is 'Restricted' until onboarding is complete", async () => {
    const { auth } = await createUser(t.app);
    const initial = (await get('/users/me/stripe', auth)).json();
    expect(initial).toEqual({
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: false,
      status: 'restricted',
    });
    expect((await post('/payment/local/onboarding/complete', undefined, auth)).statusCode).toBe(
      404,
    );

    const start = await post('/payment/onboard-user', undefined, auth);
    expect(start.statusCode).toBe(200);
    expect(start.json().url).toMatch(
      /^http:\/\/localhost:3000\/pay\/onboarding\?account=acct_local_[A-Za-z0-9]{24}$/,
    );
    // Asking again continues with the same account.
    const again = await post('/payment/onboard-user', undefined, auth);
    expect(again.json().url).toBe(start.json().url);
    expect((await get('/users/me/stripe', auth)).json().status).toBe('restricted');

    const done = await post('/payment/local/onboarding/complete', undefined, auth);
    expect(done.json().url).toBe('http://localhost:3000/account?tab=seller&onboarding=return');
    const back = await get('/payment/onboard-user/return', auth);
    expect(back.json()).toEqual({
      charges_enabled: true,
      payouts_enabled: true,
      details_submitted: true,
      status: 'enabled',
    });
    expect((await get('/payment/onboard-user/refresh', auth)).json().url).toBe(start.json().url);
    expect((await get('/users/me/stripebalance', auth)).json()).toEqual({
      balance: { available: 0, pending: 0, currency: 'usd' },
    });
  });
});

describe('no client path grants credits or the plan', () => {
  it('PATCH /users/{id} ignores credit and plan fields', async () => {
    const { user, auth } = await createUser(t.app);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${user.id}`,
      headers: auth,
      payload: {
        bio: 'hello',
        generationCredits: 999,
        isSubscribed: true,
        imageGenerationCredits: 999,
        modelTrainingCredits: 9,
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({
      bio: 'hello',
      generationCredits: 5,
      isSubscribed: false,
      imageGenerationCredits: 0,
      modelTrainingCredits: 0,
    });
  });

  it('the webhook endpoints take nothing while payments are local', async () => {
    const { user } = await createUser(t.app);
    const event = {
      id: 'evt_forged',
      type: 'customer.subscription.created',
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: 'sub_forged',
          status: 'active',
          customer: null,
          metadata: { userId: user.id },
        },
      },
    };
    for (const url of ['/payment/webhook', '/payment/webhook/connect']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1${url}`,
        headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=abc' },
        payload: JSON.stringify(event),
      });
      expect(res.statusCode).toBe(400);
    }
    expect((await userRow(user.id)).isSubscribed).toBe(false);
    const recorded = await t.app.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.id, 'evt_forged'));
    expect(recorded).toHaveLength(0);
  });

  it('the portal tools act only on your own plan', async () => {
    const owner = await createUser(t.app);
    const other = await createUser(t.app);
    await buy(owner.auth, '/payment/create-checkout-session');
    expect((await post('/payment/local/portal/cancel', undefined, other.auth)).statusCode).toBe(
      404,
    );
    expect((await post('/payment/local/portal/end-period', undefined, other.auth)).statusCode).toBe(
      404,
    );
    expect((await userRow(other.user.id)).isSubscribed).toBe(false);
    expect((await get('/payment/subscription', owner.auth)).json().data.cancelAtPeriodEnd).toBe(
      false,
    );
  });

  it.each([
    ['/payment/create-credit-checkout-session', { product: 'gold' }, 'product'],
    ['/payment/create-credit-checkout-session', {}, 'product'],
    ['/payment/create-checkout-session', { referral: 'x'.repeat(101) }, 'referral'],
    ['/payment/create-checkout-session', { returnPath: '//evil.example' }, 'returnPath'],
    ['/payment/create-checkout-session', { returnPath: 'https://evil.example' }, 'returnPath'],
    ['/payment/create-checkout-session', { returnPath: '/a\u0000b' }, 'returnPath'],
    ['/payment/create-checkout-session', { returnPath: '/\\evil.example' }, 'returnPath'],
    ['/payment/create-checkout-session', { referral: 'a\u0000' }, 'referral'],
    [
      '/payment/creategutenbergbookchaptermaterialcheckoutsession',
      { bookUrl: 'a\u0000', chapterUrl: 'b' },
      'bookUrl',
    ],
    ['/payment/creategutenbergbookchaptermaterialcheckoutsession', { bookUrl: 'x' }, 'chapterUrl'],
    ['/payment/local/portal/refund', undefined, 'action'],
  ])('%s with %j is a 400 naming %s', async (url, body, field) => {
    const { auth } = await createUser(t.app);
    const res = await post(url, body, auth);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors.message).toContain(field);
  });

  it('bad ids, no session and bad JSON are answered, never a 500', async () => {
    const { auth } = await createUser(t.app);
    expect((await get('/payment/checkout-session/nope', auth)).statusCode).toBe(400);
    expect((await get('/payment/checkout-session/cs_local_unknown0000', auth)).statusCode).toBe(
      404,
    );
    expect(
      (await post('/payment/local/checkout/cs_local_unknown0000/pay', undefined, auth)).statusCode,
    ).toBe(404);
    expect((await post('/payment/create-checkout-session', {})).statusCode).toBe(401);
    expect((await post('/payment/onboard-user')).statusCode).toBe(401);
    expect((await get('/users/me/stripe')).statusCode).toBe(401);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payment/create-credit-checkout-session',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: '{"product":',
    });
    expect(bad.statusCode).toBe(400);
    // A missing body starts the plan's checkout like an empty one.
    const noBody = await post('/payment/create-checkout-session', undefined, auth);
    expect(noBody.statusCode).toBe(200);
  });

  it('a pending order never counts: only paid orders add credits', async () => {
    const { user, auth } = await createUser(t.app);
    await post('/payment/create-credit-checkout-session', { product: 'modelTrainingCredit' }, auth);
    const rows = await t.app.db.select().from(orders).where(eq(orders.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.status).toBe('pending');
    expect((await userRow(user.id)).modelTrainingCredits).toBe(0);
  });
});

describe("a chapter's ready-made materials", () => {
  const BOOK = 'test-book-for-packs';
  const CHAPTER = 'chapter-3';
  const ref = { bookUrl: BOOK, chapterUrl: CHAPTER };
  beforeAll(async () => {
    for (const type of ['Quiz', 'Lesson']) {
      await t.app.materials.createPlatformMaterial({
        ...ref,
        name: `Chapter 3 ${type}`,
        subject: 'English',
        grade: '8th Grade (Year 9)',
        type,
        referenceText: TEXT,
      });
    }
  });

  const ownMaterials = async (auth: Auth) =>
    (await get('/materials/getusersmaterials', auth)).json().generatedMaterials as {
      data: Array<{ _id: string; name: string; status: string; bookUrl: string }>;
      count: number;
    };

  it('is a product: $2.99 for the chapter’s materials; unknown chapters have none', async () => {
    const guest = await get(`/payment/chapter-pack?bookUrl=${BOOK}&chapterUrl=${CHAPTER}`);
    expect(guest.json().data).toEqual({ count: 2, price: 299, purchased: false, included: false });
    expect((await get(`/payment/chapter-pack?bookUrl=${BOOK}&chapterUrl=nope`)).statusCode).toBe(
      404,
    );
    expect((await get(`/payment/chapter-pack?bookUrl=${BOOK}`)).statusCode).toBe(400);
    const { auth } = await createUser(t.app);
    const none = await post(
      '/payment/creategutenbergbookchaptermaterialcheckoutsession',
      { bookUrl: BOOK, chapterUrl: 'nope' },
      auth,
    );
    expect(none.statusCode).toBe(404);
    expect(
      (await post('/payment/creategutenbergbookchaptermaterialcheckoutsession', ref)).statusCode,
    ).toBe(401);
  });

  it('bought once: copies land in Your Materials, the teacher’s own; buying again is refused', async () => {
    const { user, auth } = await createUser(t.app);
    expect((await post('/materials/addchaptermaterials', ref, auth)).statusCode).toBe(402);
    expect((await ownMaterials(auth)).count).toBe(0);

    const id = await buy(auth, '/payment/creategutenbergbookchaptermaterialcheckoutsession', {
      ...ref,
      amount: 1,
    });
    const session = (await get(`/payment/checkout-session/${id}`, auth)).json().data;
    expect(session.order).toMatchObject({
      product: 'chapterMaterials',
      amount: 299,
      status: 'paid',
      bookUrl: BOOK,
      chapterUrl: CHAPTER,
    });
    expect(session.cancelUrl).toBe(`http://localhost:3000/book/${BOOK}/${CHAPTER}`);
    const mine = await ownMaterials(auth);
    expect(mine.count).toBe(2);
    expect(mine.data.map((m) => m.name).sort()).toEqual(['Chapter 3 Lesson', 'Chapter 3 Quiz']);
    expect(mine.data.every((m) => m.status === 'finished' && m.bookUrl === BOOK)).toBe(true);
    // Credits are not spent on copies.
    expect((await userRow(user.id)).generationCredits).toBe(5);

    // The copies are the teacher's: into a folder, exported.
    const folder = await post('/materials/createset', { name: 'Term 1' }, auth);
    const setId = folder.json().data._id;
    const copy = mine.data[0]!;
    const moved = await post('/materials/movegeneratedmaterial', { id: copy._id, setId }, auth);
    expect(moved.statusCode).toBe(200);
    const exported = await get(`/materials/exportmaterial?id=${copy._id}&format=txt`, auth);
    expect(exported.statusCode).toBe(200);

    const pack = (
      await get(`/payment/chapter-pack?bookUrl=${BOOK}&chapterUrl=${CHAPTER}`, auth)
    ).json().data;
    expect(pack).toMatchObject({ purchased: true, included: false });
    const again = await post(
      '/payment/creategutenbergbookchaptermaterialcheckoutsession',
      ref,
      auth,
    );
    expect(again.statusCode).toBe(409);

    // A deleted copy can be added back for free once bought; nothing is copied twice.
    expect((await post('/materials/addchaptermaterials', ref, auth)).json()).toEqual({ copied: 0 });
    await post('/materials/deletegeneratedmaterial', { id: copy._id }, auth);
    expect((await post('/materials/addchaptermaterials', ref, auth)).json()).toEqual({ copied: 1 });
    expect((await ownMaterials(auth)).count).toBe(2);
  });

  it('two checkouts of the same pack started together: only the first can be paid', async () => {
    const { auth } = await createUser(t.app);
    const url = '/payment/creategutenbergbookchaptermaterialcheckoutsession';
    const first = (await post(url, ref, auth)).json().id;
    const second = (await post(url, ref, auth)).json().id;
    expect((await post(`/payment/local/checkout/${first}/pay`, undefined, auth)).statusCode).toBe(
      200,
    );
    expect((await post(`/payment/local/checkout/${second}/pay`, undefined, auth)).statusCode).toBe(
      409,
    );
    const paid = (await get('/users/me/orders', auth))
      .json()
      .data.filter((o: { status: string }) => o.status === 'paid');
    expect(paid).toHaveLength(1);
  });

  it('subscribers add them with no checkout', async () => {
    const { auth } = await createUser(t.app);
    await buy(auth, '/payment/create-checkout-session');
    const checkout = await post(
      '/payment/creategutenbergbookchaptermaterialcheckoutsession',
      ref,
      auth,
    );
    expect(checkout.statusCode).toBe(409);
    const pack = (
      await get(`/payment/chapter-pack?bookUrl=${BOOK}&chapterUrl=${CHAPTER}`, auth)
    ).json().data;
    expect(pack).toMatchObject({ included: true, purchased: false });
    expect((await post('/materials/addchaptermaterials', ref, auth)).json()).toEqual({ copied: 2 });
    expect((await post('/materials/addchaptermaterials', ref, auth)).json()).toEqual({ copied: 0 });
    expect((await ownMaterials(auth)).count).toBe(2);
    const orders = (await get('/users/me/orders', auth)).json();
    expect(orders.count).toBe(1); // only the plan: adding is not a purchase
  });
});
