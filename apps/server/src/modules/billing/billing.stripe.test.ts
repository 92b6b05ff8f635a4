import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  orders,
  paymentEvents,
  users,
  generations,
  products,
  shopOrders,
} from '../../db/schema/index.js';
import { chapter } from '../../test/chapters.js';
import { FakeStripe } from '../../test/fake-stripe.js';
import { createTestApp, createUser, type TestApp } from '../../test/helpers.js';

/**
 * The stripe adapter against a fake Stripe API (the real SDK pointed at it), and the webhooks
 * with events signed by the SDK's own test-header helper.
 */

const WEBHOOK_SECRET = 'whsec_test_platform_secret';
const CONNECT_SECRET = 'whsec_test_connect_secret';
const signer = new Stripe('sk_test_signer');

const fake = new FakeStripe();
let t: TestApp;

beforeAll(async () => {
  const base = await fake.start();
  t = await createTestApp({
    STRIPE_SECRET_KEY: 'sk_test_chapterwise',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_CONNECT_WEBHOOK_SECRET: CONNECT_SECRET,
    STRIPE_PRICE_SUBSCRIPTION: 'price_sub',
    STRIPE_PRICE_MODEL_TRAINING_CREDIT: 'price_mtc',
    STRIPE_PRICE_IMAGE_CREDITS: 'price_img',
    STRIPE_API_BASE: base,
  });
});
afterAll(async () => {
  await t.close();
  await fake.stop();
});
beforeEach(() => {
  fake.requests = [];
});

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

const now = () => Math.floor(Date.now() / 1000);
let eventCounter = 0;

function event(type: string, object: Record<string, unknown>, created = now(), id?: string) {
  eventCounter += 1;
  return {
    id: id ?? `evt_test_${eventCounter}_${Date.now()}`,
    object: 'event',
    type,
    created,
    data: { object },
  };
}

/** Delivers an event as Stripe does: JSON, signed over the exact bytes with the secret. */
function deliver(
  body: unknown,
  options: {
    secret?: string;
    timestamp?: number;
    endpoint?: 'webhook' | 'webhook/connect';
    tamper?: (payload: string) => string;
    signature?: string | null;
  } = {},
) {
  const payload = JSON.stringify(body);
  const header =
    options.signature === undefined
      ? signer.webhooks.generateTestHeaderString({
          payload,
          secret: options.secret ?? WEBHOOK_SECRET,
          ...(options.timestamp ? { timestamp: options.timestamp } : {}),
        })
      : options.signature;
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/payment/${options.endpoint ?? 'webhook'}`,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(header ? { 'stripe-signature': header } : {}),
    },
    payload: options.tamper ? options.tamper(payload) : payload,
  });
}

/** A subscription object as current API versions send it (the period on its items). */
function subscription(
  id: string,
  customer: string,
  status: string,
  extra: { cancelAtPeriodEnd?: boolean; periodEnd?: number; userId?: string } = {},
) {
  return {
    id,
    object: 'subscription',
    customer,
    status,
    cancel_at_period_end: extra.cancelAtPeriodEnd ?? false,
    canceled_at: null,
    metadata: extra.userId ? { userId: extra.userId } : {},
    items: {
      object: 'list',
      data: [{ id: 'si_1', current_period_end: extra.periodEnd ?? now() + 30 * 86400 }],
    },
  };
}

/** A teacher with a Stripe customer (made by a first checkout). */
async function customerTeacher(overrides: Parameters<typeof createUser>[1] = {}) {
  const teacher = await createUser(t.app, overrides);
  const start = await post('/payment/create-checkout-session', {}, teacher.auth);
  expect(start.statusCode, start.body).toBe(200);
  const session = fake.of('/v1/checkout/sessions').at(-1)!;
  const customerId = session.form.customer!;
  return { ...teacher, start: start.json() as { id: string; url: string }, session, customerId };
}

describe('the stripe adapter sends Stripe what it needs', () => {
  it('the plan: a customer, then a subscription-mode Checkout Session at the configured price', async () => {
    const { user, auth } = await createUser(t.app);
    const res = await post('/payment/create-checkout-session', { referral: 'partner7' }, auth);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json();
    expect(answer.id).toMatch(/^cs_test_fake\d+$/);
    expect(answer.url).toBe(`https://checkout.stripe.com/c/pay/${answer.id}`);

    const [customer] = fake.of('/v1/customers');
    expect(customer!.headers.authorization).toBe('Bearer sk_test_chapterwise');
    expect(customer!.form).toMatchObject({
      email: user.email,
      name: 'Test Teacher',
      'metadata[userId]': user.id,
    });
    const [session] = fake.of('/v1/checkout/sessions');
    const [order] = await t.app.db.select().from(orders).where(eq(orders.userId, user.id));
    expect(session!.method).toBe('POST');
    expect(session!.form).toEqual({
      mode: 'subscription',
      customer: expect.stringMatching(/^cus_fake\d+$/),
      client_reference_id: user.id,
      'line_items[0][price]': 'price_sub',
      'line_items[0][quantity]': '1',
      'metadata[orderId]': order!.id,
      'metadata[userId]': user.id,
      'metadata[product]': 'subscription',
      'metadata[referral]': 'partner7',
      'subscription_data[metadata][orderId]': order!.id,
      'subscription_data[metadata][userId]': user.id,
      'subscription_data[metadata][product]': 'subscription',
      'subscription_data[metadata][referral]': 'partner7',
      success_url: 'http://localhost:3000/thankyou?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://localhost:3000/subscription',
    });
    expect(session!.headers['idempotency-key']).toBeTruthy();
    expect(order).toMatchObject({
      status: 'pending',
      amountCents: 999,
      provider: 'stripe',
      checkoutSessionId: answer.id,
      referral: 'partner7',
    });
  });

  it('credit packs: payment mode at their prices, and the customer is made once', async () => {
    const { auth } = await createUser(t.app);
    await post(
      '/payment/create-credit-checkout-session',
      { product: 'imageGenerationCredits' },
      auth,
    );
    await post('/payment/create-credit-checkout-session', { product: 'modelTrainingCredit' }, auth);
    expect(fake.of('/v1/customers')).toHaveLength(1);
    const [first, second] = fake.of('/v1/checkout/sessions');
    expect(first!.form).toMatchObject({
      mode: 'payment',
      'line_items[0][price]': 'price_img',
      'payment_intent_data[metadata][product]': 'imageGenerationCredits',
      cancel_url: 'http://localhost:3000/dashboard',
    });
    expect(second!.form).toMatchObject({
      mode: 'payment',
      'line_items[0][price]': 'price_mtc',
      customer: first!.form.customer,
    });
    expect(first!.form['subscription_data[metadata][userId]']).toBeUndefined();
  });

  it('a chapter pack: payment mode, priced inline at $2.99 with the chapter in its name', async () => {
    await t.app.materials.createPlatformMaterial({
      bookUrl: 'stripe-book',
      chapterUrl: 'chapter-1',
      name: 'Chapter 1 Quiz',
      subject: 'English',
      grade: '8th Grade (Year 9)',
      type: 'Quiz',
      referenceText: chapter(84).text,
    });
    const { auth } = await createUser(t.app);
    const res = await post(
      '/payment/creategutenbergbookchaptermaterialcheckoutsession',
      { bookUrl: 'stripe-book', chapterUrl: 'chapter-1' },
      auth,
    );
    expect(res.statusCode, res.body).toBe(200);
    const [session] = fake.of('/v1/checkout/sessions');
    expect(session!.form).toMatchObject({
      mode: 'payment',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '299',
      'line_items[0][price_data][product_data][name]':
        'Ready-made materials: stripe-book, chapter-1',
      'line_items[0][quantity]': '1',
      'metadata[product]': 'chapterMaterials',
      cancel_url: 'http://localhost:3000/book/stripe-book/chapter-1',
    });
    expect(session!.form['line_items[0][price]']).toBeUndefined();
  });

  it('a refused checkout answers 503, charges nothing and leaves no pending order', async () => {
    const { user, auth } = await createUser(t.app);
    fake.failNext['/v1/checkout/sessions'] = 400;
    const res = await post('/payment/create-checkout-session', {}, auth);
    expect(res.statusCode).toBe(503);
    expect(res.json().errors.code).toBe('UNAVAILABLE');
    expect(res.body).not.toContain('price_sub');
    const rows = await t.app.db.select().from(orders).where(eq(orders.userId, user.id));
    expect(rows).toHaveLength(0);
  });

  it('the customer portal returns to the account', async () => {
    const teacher = await customerTeacher();
    const sub = subscription('sub_portal', teacher.customerId, 'active');
    expect((await deliver(event('customer.subscription.created', sub))).statusCode).toBe(200);
    const res = await post('/payment/customer-portal', undefined, teacher.auth);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\/test_\d+$/);
    expect(fake.of('/v1/billing_portal/sessions')[0]!.form).toEqual({
      customer: teacher.customerId,
      return_url: 'http://localhost:3000/account?tab=subscription',
    });
  });

  it('Connect Express onboarding with the return and refresh calls, status and balance', async () => {
    const { user, auth } = await createUser(t.app);
    fake.account = { charges_enabled: false, payouts_enabled: false, details_submitted: false };
    const start = await post('/payment/onboard-user', undefined, auth);
    expect(start.statusCode, start.body).toBe(200);
    const accountId = /acct_fake\d+/.exec(start.json().url)![0];
    expect(start.json().url).toMatch(/^https:\/\/connect\.stripe\.com\/setup\/e\/acct_fake\d+\//);
    expect(fake.of('/v1/accounts')[0]!.form).toMatchObject({
      type: 'express',
      email: user.email,
      'metadata[userId]': user.id,
      'capabilities[card_payments][requested]': 'true',
      'capabilities[transfers][requested]': 'true',
    });
    expect(fake.of('/v1/account_links')[0]!.form).toEqual({
      account: accountId,
      type: 'account_onboarding',
      refresh_url: 'http://localhost:3000/account?tab=seller&onboarding=refresh',
      return_url: 'http://localhost:3000/account?tab=seller&onboarding=return',
    });
    expect((await get('/users/me/stripe', auth)).json().status).toBe('restricted');

    const refresh = await get('/payment/onboard-user/refresh', auth);
    expect(refresh.json().url).toContain(accountId);
    expect(fake.of('/v1/accounts')).toHaveLength(1);

    // Back from Stripe before its webhook: the return call reads the account.
    fake.account = { charges_enabled: true, payouts_enabled: true, details_submitted: true };
    const back = await get('/payment/onboard-user/return', auth);
    expect(back.json()).toEqual({
      charges_enabled: true,
      payouts_enabled: true,
      details_submitted: true,
      status: 'enabled',
    });
    expect(fake.of(`/v1/accounts/${accountId}`)).toHaveLength(1);

    fake.balances.set(accountId, {
      available: [
        { amount: 1234, currency: 'usd' },
        { amount: 99, currency: 'eur' },
      ],
      pending: [{ amount: 500, currency: 'usd' }],
    });
    const balance = await get('/users/me/stripebalance', auth);
    expect(balance.json()).toEqual({ balance: { available: 1234, pending: 500, currency: 'usd' } });
    expect(fake.of('/v1/balance')[0]!.headers['stripe-account']).toBe(accountId);
  });
});

describe('webhooks: signatures', () => {
  async function pendingCredits() {
    const teacher = await createUser(t.app);
    const res = await post(
      '/payment/create-credit-checkout-session',
      { product: 'imageGenerationCredits' },
      teacher.auth,
    );
    const { id } = res.json();
    const session = fake.of('/v1/checkout/sessions').at(-1)!;
    const completed = event('checkout.session.completed', {
      id,
      object: 'checkout.session',
      mode: 'payment',
      payment_status: 'paid',
      status: 'complete',
      amount_total: 500,
      currency: 'usd',
      customer: session.form.customer,
      payment_intent: `pi_${id}`,
      subscription: null,
      client_reference_id: teacher.user.id,
      metadata: { orderId: session.form['metadata[orderId]'], userId: teacher.user.id },
    });
    return { ...teacher, id, completed };
  }

  it('a valid event is applied once; its replay changes nothing', async () => {
    const { user, completed } = await pendingCredits();
    const first = await deliver(completed);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ received: true, outcome: 'applied' });
    expect((await userRow(user.id)).imageGenerationCredits).toBe(100);

    const replay = await deliver(completed);
    expect(replay.json()).toEqual({ received: true, outcome: 'duplicate' });
    // A second, different event about the same payment adds nothing either.
    const twin = await deliver({
      ...completed,
      id: `${completed.id}_async`,
      type: 'checkout.session.async_payment_succeeded',
    });
    expect(twin.json().outcome).toBe('applied');
    expect((await userRow(user.id)).imageGenerationCredits).toBe(100);
    const [order] = await t.app.db.select().from(orders).where(eq(orders.userId, user.id));
    expect(order).toMatchObject({
      status: 'paid',
      amountCents: 500,
      providerPaymentIntentId: `pi_${completed.data.object.id}`,
    });
  });

  it('the same event delivered twice at once is applied once', async () => {
    const { user, completed } = await pendingCredits();
    const answers = await Promise.all([deliver(completed), deliver(completed), deliver(completed)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(answers.filter((a) => a.json().outcome === 'applied')).toHaveLength(1);
    expect((await userRow(user.id)).imageGenerationCredits).toBe(100);
  });

  it('a tampered body, a wrong secret, a missing or malformed header are refused (400)', async () => {
    const { user, completed } = await pendingCredits();
    const tampered = await deliver(completed, {
      tamper: (payload) => payload.replace('"amount_total":500', '"amount_total":5'),
    });
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json().errors.message).toMatch(/signature/i);
    expect((await deliver(completed, { secret: 'whsec_someone_else' })).statusCode).toBe(400);
    expect((await deliver(completed, { signature: null })).statusCode).toBe(400);
    expect((await deliver(completed, { signature: 'garbage' })).statusCode).toBe(400);
    // Signed for the connect endpoint is not valid for the platform one, and the other way.
    expect((await deliver(completed, { secret: CONNECT_SECRET })).statusCode).toBe(400);
    expect((await deliver(completed, { endpoint: 'webhook/connect' })).statusCode).toBe(400);
    expect((await userRow(user.id)).imageGenerationCredits).toBe(0);
    const recorded = await t.app.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.id, completed.id));
    expect(recorded).toHaveLength(0);
  });

  it('a signature older than 5 minutes is refused as a possible replay; a recent one passes', async () => {
    const { user, completed } = await pendingCredits();
    const old = await deliver(completed, { timestamp: now() - 301 });
    expect(old.statusCode).toBe(400);
    expect(old.json().errors.message).toMatch(/tolerance/i);
    expect((await userRow(user.id)).imageGenerationCredits).toBe(0);
    const recent = await deliver(completed, { timestamp: now() - 200 });
    expect(recent.statusCode).toBe(200);
    expect((await userRow(user.id)).imageGenerationCredits).toBe(100);
  });

  it('events of other types are acknowledged and ignored; unreadable ones are retried later', async () => {
    const ignored = await deliver(event('customer.created', { id: 'cus_x', object: 'customer' }));
    expect(ignored.json()).toEqual({ received: true, outcome: 'ignored' });
    // A handled type we cannot read: 500 (the provider retries), and it is not marked as done.
    const broken = event('invoice.paid', { id: 42 });
    const res = await deliver(broken);
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('ZodError');
    const recorded = await t.app.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.id, broken.id));
    expect(recorded).toHaveLength(0);
  });

  it('the body must be JSON bytes as signed; a form post or empty body is a 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/payment/webhook',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'stripe-signature': 't=1,v1=x',
      },
      payload: 'a=b',
    });
    expect(res.statusCode).toBe(400);
    const empty = await t.app.inject({ method: 'POST', url: '/api/v1/payment/webhook' });
    expect(empty.statusCode).toBe(400);
  });
});

describe('webhooks: subscription state from the provider, in any order', () => {
  it('created → the generator unlocks; deleted → it locks again', async () => {
    const teacher = await customerTeacher({ generationCredits: 0 });
    const created = event(
      'customer.subscription.created',
      subscription('sub_life', teacher.customerId, 'active'),
    );
    expect((await deliver(created)).json().outcome).toBe('applied');
    expect((await userRow(teacher.user.id)).isSubscribed).toBe(true);
    const info = (await get('/payment/subscription', teacher.auth)).json().data;
    expect(info).toMatchObject({ status: 'active', isSubscribed: true, cancelAtPeriodEnd: false });

    const deleted = event(
      'customer.subscription.deleted',
      subscription('sub_life', teacher.customerId, 'canceled'),
      now() + 5,
    );
    await deliver(deleted);
    expect((await userRow(teacher.user.id)).isSubscribed).toBe(false);
  });

  it('a deletion that arrives before the creation ends unsubscribed', async () => {
    const teacher = await customerTeacher();
    const t0 = now();
    const deleted = event(
      'customer.subscription.deleted',
      subscription('sub_ooo', teacher.customerId, 'canceled'),
      t0 + 10,
    );
    const created = event(
      'customer.subscription.created',
      subscription('sub_ooo', teacher.customerId, 'active'),
      t0,
    );
    const updated = event(
      'customer.subscription.updated',
      subscription('sub_ooo', teacher.customerId, 'active'),
      t0 + 20,
    );
    await deliver(deleted);
    await deliver(created);
    await deliver(updated); // even a later "active" cannot bring an ended subscription back
    expect((await userRow(teacher.user.id)).isSubscribed).toBe(false);
    expect((await get('/payment/subscription', teacher.auth)).json().data.status).toBe('canceled');
  });

  it('a stale update arriving late is ignored; in the same second the further state wins', async () => {
    const teacher = await customerTeacher();
    const t0 = now();
    const cancelLater = event(
      'customer.subscription.updated',
      subscription('sub_stale', teacher.customerId, 'active', { cancelAtPeriodEnd: true }),
      t0 + 20,
    );
    const older = event(
      'customer.subscription.updated',
      subscription('sub_stale', teacher.customerId, 'active', { cancelAtPeriodEnd: false }),
      t0 + 10,
    );
    await deliver(cancelLater);
    await deliver(older);
    const info = (await get('/payment/subscription', teacher.auth)).json().data;
    expect(info).toMatchObject({ cancelAtPeriodEnd: true, isSubscribed: true });

    // created (incomplete) and updated (active) made in the same second, delivered reversed.
    const other = await customerTeacher();
    const active = event(
      'customer.subscription.updated',
      subscription('sub_same', other.customerId, 'active'),
      t0,
    );
    const incomplete = event(
      'customer.subscription.created',
      subscription('sub_same', other.customerId, 'incomplete'),
      t0,
    );
    await deliver(active);
    await deliver(incomplete);
    expect((await userRow(other.user.id)).isSubscribed).toBe(true);
  });

  it('a failed renewal keeps access as past_due; the retried payment makes it active; one order per invoice', async () => {
    const teacher = await customerTeacher();
    const t0 = now();
    await deliver(
      event(
        'customer.subscription.created',
        subscription('sub_dun', teacher.customerId, 'active'),
        t0,
      ),
    );
    const invoice = (paid: boolean) => ({
      id: 'in_renewal_1',
      object: 'invoice',
      customer: teacher.customerId,
      billing_reason: 'subscription_cycle',
      amount_due: 999,
      amount_paid: paid ? 999 : 0,
      currency: 'usd',
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: 'sub_dun', metadata: {} },
      },
      lines: { data: [{ period: { start: t0, end: t0 + 60 * 86400 } }] },
    });
    await deliver(event('invoice.payment_failed', invoice(false), t0 + 10));
    expect((await get('/payment/subscription', teacher.auth)).json().data).toMatchObject({
      status: 'past_due',
      isSubscribed: true,
    });
    expect((await userRow(teacher.user.id)).isSubscribed).toBe(true);
    let list = (await get('/users/me/orders', teacher.auth)).json();
    expect(list.data[0]).toMatchObject({ product: 'subscription', status: 'failed', amount: 999 });

    const paid = event('invoice.paid', invoice(true), t0 + 20);
    await deliver(paid);
    await deliver(paid);
    const info = (await get('/payment/subscription', teacher.auth)).json().data;
    expect(info.status).toBe('active');
    expect(Date.parse(info.currentPeriodEnd)).toBe((t0 + 60 * 86400) * 1000);
    list = (await get('/users/me/orders', teacher.auth)).json();
    const renewals = list.data.filter((o: { status: string }) => o.status !== 'pending');
    expect(renewals).toHaveLength(1);
    expect(renewals[0]).toMatchObject({ status: 'paid', amount: 999 });
  });

  it('older API shapes are read too (period on the subscription, invoice.subscription)', async () => {
    const teacher = await customerTeacher();
    const end = now() + 10 * 86400;
    await deliver(
      event('customer.subscription.created', {
        id: 'sub_legacy',
        object: 'subscription',
        customer: { id: teacher.customerId, object: 'customer' },
        status: 'trialing',
        cancel_at_period_end: false,
        current_period_end: end,
        metadata: {},
      }),
    );
    const info = (await get('/payment/subscription', teacher.auth)).json().data;
    expect(info).toMatchObject({ status: 'trialing', isSubscribed: true });
    expect(Date.parse(info.currentPeriodEnd)).toBe(end * 1000);
    await deliver(
      event(
        'invoice.payment_failed',
        {
          id: 'in_legacy',
          object: 'invoice',
          customer: teacher.customerId,
          subscription: 'sub_legacy',
          billing_reason: 'subscription_cycle',
          amount_due: 999,
          amount_paid: 0,
          currency: 'usd',
        },
        now() + 1,
      ),
    );
    expect((await get('/payment/subscription', teacher.auth)).json().data.status).toBe('past_due');
  });

  it('a subscription is matched by the user id in its metadata when the customer is unknown', async () => {
    const { user } = await createUser(t.app);
    await deliver(
      event(
        'customer.subscription.created',
        subscription('sub_meta', 'cus_unknown', 'active', { userId: user.id }),
      ),
    );
    expect((await userRow(user.id)).isSubscribed).toBe(true);
    // Nobody to match: acknowledged, nothing changes, no error.
    const lost = await deliver(
      event('customer.subscription.created', subscription('sub_lost', 'cus_nobody', 'active')),
    );
    expect(lost.json().outcome).toBe('applied');
  });

  it('the full plan checkout: session completed + subscription created, in either order', async () => {
    const teacher = await customerTeacher({ generationCredits: 0 });
    const completed = event('checkout.session.completed', {
      id: teacher.start.id,
      object: 'checkout.session',
      mode: 'subscription',
      payment_status: 'paid',
      amount_total: 999,
      currency: 'usd',
      customer: teacher.customerId,
      subscription: 'sub_full',
      payment_intent: null,
      metadata: { orderId: teacher.session.form['metadata[orderId]'], userId: teacher.user.id },
    });
    await deliver(completed);
    // The order is paid; the plan waits for the subscription's own state.
    expect((await userRow(teacher.user.id)).isSubscribed).toBe(false);
    const session = (
      await get(`/payment/checkout-session/${teacher.start.id}`, teacher.auth)
    ).json();
    expect(session.data).toMatchObject({
      status: 'complete',
      order: { status: 'paid', amount: 999 },
    });
    await deliver(
      event(
        'customer.subscription.created',
        subscription('sub_full', teacher.customerId, 'active'),
      ),
    );
    expect((await userRow(teacher.user.id)).isSubscribed).toBe(true);
    expect((await userRow(teacher.user.id)).imageGenerationCredits).toBe(0);
  });

  it('a checkout session cannot pay another order by naming it in its metadata', async () => {
    const victim = await createUser(t.app);
    const start = await post(
      '/payment/create-credit-checkout-session',
      { product: 'modelTrainingCredit' },
      victim.auth,
    );
    const orderId = fake.of('/v1/checkout/sessions').at(-1)!.form['metadata[orderId]'];
    await deliver(
      event('checkout.session.completed', {
        id: 'cs_test_other_session',
        mode: 'payment',
        payment_status: 'paid',
        amount_total: 1,
        currency: 'usd',
        metadata: { orderId },
      }),
    );
    expect((await userRow(victim.user.id)).modelTrainingCredits).toBe(0);
    expect(
      (await get(`/payment/checkout-session/${start.json().id}`, victim.auth)).json().data.status,
    ).toBe('open');
  });
});

describe('webhooks: refunds and sellers', () => {
  it('a full refund marks the order refunded and takes the credits back once', async () => {
    const teacher = await createUser(t.app);
    const res = await post(
      '/payment/create-credit-checkout-session',
      { product: 'modelTrainingCredit' },
      teacher.auth,
    );
    const session = fake.of('/v1/checkout/sessions').at(-1)!;
    await deliver(
      event('checkout.session.completed', {
        id: res.json().id,
        mode: 'payment',
        payment_status: 'paid',
        amount_total: 1000,
        currency: 'usd',
        customer: session.form.customer,
        payment_intent: 'pi_refund_me',
        metadata: { orderId: session.form['metadata[orderId]'] },
      }),
    );
    expect((await userRow(teacher.user.id)).modelTrainingCredits).toBe(1);
    const partial = event('charge.refunded', {
      id: 'ch_1',
      payment_intent: 'pi_refund_me',
      amount: 1000,
      amount_refunded: 300,
      refunded: false,
    });
    await deliver(partial);
    expect((await userRow(teacher.user.id)).modelTrainingCredits).toBe(1);
    const full = event('charge.refunded', {
      id: 'ch_1',
      payment_intent: 'pi_refund_me',
      amount: 1000,
      amount_refunded: 1000,
      refunded: true,
    });
    await deliver(full);
    await deliver({ ...full, id: `${full.id}_again` });
    const row = await userRow(teacher.user.id);
    expect(row.modelTrainingCredits).toBe(0);
    expect(row.imageGenerationCredits).toBe(0);
    const [order] = (await get('/users/me/orders', teacher.auth)).json().data;
    expect(order.status).toBe('refunded');
  });

  it('account.updated on the Connect endpoint completes the seller status; older ones are ignored', async () => {
    const { auth } = await createUser(t.app);
    fake.account = { charges_enabled: false, payouts_enabled: false, details_submitted: false };
    const start = await post('/payment/onboard-user', undefined, auth);
    const accountId = /acct_fake\d+/.exec(start.json().url)![0];
    const t0 = now();
    const done = event(
      'account.updated',
      {
        id: accountId,
        object: 'account',
        charges_enabled: true,
        payouts_enabled: true,
        details_submitted: true,
      },
      t0 + 10,
    );
    const older = event(
      'account.updated',
      {
        id: accountId,
        object: 'account',
        charges_enabled: false,
        payouts_enabled: false,
        details_submitted: true,
      },
      t0 + 5,
    );
    // With the platform's secret the Connect endpoint refuses it.
    expect((await deliver(done, { endpoint: 'webhook/connect' })).statusCode).toBe(400);
    const ok = await deliver(done, { endpoint: 'webhook/connect', secret: CONNECT_SECRET });
    expect(ok.statusCode, ok.body).toBe(200);
    await deliver(older, { endpoint: 'webhook/connect', secret: CONNECT_SECRET });
    expect((await get('/users/me/stripe', auth)).json()).toMatchObject({
      status: 'enabled',
      charges_enabled: true,
    });
  });
});

describe('print orders with Stripe (issue 17)', () => {
  it('collects a shipping address with free shipping, and the paid event makes one print order', async () => {
    const creator = await createUser(t.app);
    const buyer = await createUser(t.app);
    const [generation] = await t.app.db
      .insert(generations)
      .values({
        userId: creator.user.id,
        url: 'stripe-owl',
        prompt: 'an owl',
        status: 'ready',
        provider: 'local',
      })
      .returning();
    const [product] = await t.app.db
      .insert(products)
      .values({
        generationId: generation!.id,
        kind: 'tshirt',
        title: 'T-Shirt',
        url: 't-shirt',
        blueprintId: 50,
        printProviderId: 29,
        priceCents: 2299,
        variants: [{ id: 5003, title: 'L', priceCents: 2299 }],
        images: [],
        provider: 'local',
        providerProductId: 'local-product-stripe',
      })
      .returning();
    const start = await post(
      '/payment/create-dream-booth-product-checkout-session',
      { productId: product!.id, variantId: 5003, quantity: 2 },
      buyer.auth,
    );
    expect(start.statusCode, start.body).toBe(200);
    const session = fake.of('/v1/checkout/sessions').at(-1)!;
    expect(session.form).toMatchObject({
      mode: 'payment',
      'line_items[0][price_data][unit_amount]': '2299',
      'line_items[0][quantity]': '2',
      'shipping_address_collection[allowed_countries][0]': 'US',
      'shipping_options[0][shipping_rate_data][fixed_amount][amount]': '0',
      'shipping_options[0][shipping_rate_data][display_name]': 'Free Shipping',
      'metadata[product]': 'shopProduct',
    });
    expect(session.form['payment_intent_data[transfer_data][destination]']).toBeUndefined();

    const paid = event('checkout.session.completed', {
      id: start.json().id,
      mode: 'payment',
      payment_status: 'paid',
      amount_total: 4598,
      currency: 'usd',
      customer: session.form.customer,
      payment_intent: 'pi_print_1',
      metadata: { orderId: session.form['metadata[orderId]'] },
      collected_information: {
        shipping_details: {
          name: 'Ada Lovelace',
          address: {
            line1: '1 Main St',
            city: 'Boston',
            state: 'MA',
            postal_code: '02108',
            country: 'US',
          },
        },
      },
    });
    await deliver(paid);
    await deliver(paid);
    await t.app.shop.idle();
    const rows = await t.app.db
      .select()
      .from(shopOrders)
      .where(eq(shopOrders.userId, buyer.user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: 'created',
      quantity: 2,
      shippingAddress: { name: 'Ada Lovelace', city: 'Boston', country: 'US' },
    });
  });
});
