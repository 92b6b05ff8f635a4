import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generations, orders, products, shopOrders } from '../../db/schema/index.js';
import { FakeStripe } from '../../test/fake-stripe.js';
import { createTestApp, createUser, type TestApp } from '../../test/helpers.js';

/**
 * A seller's share of a print sale with Stripe (issue 17): the real stripe adapter against the
 * fake Stripe API over HTTP, and the paid event delivered to the webhook signed as Stripe signs
 * it. The share is a destination charge (`payment_intent_data.transfer_data`), so it is Stripe
 * that moves it to the seller's connected account, and the balance the account page shows is
 * that account's balance at Stripe.
 */

const WEBHOOK_SECRET = 'whsec_test_shop_platform';
/** Not the default (20), so the test shows the share comes from the setting. */
const SHARE_PERCENT = 25;
const signer = new Stripe('sk_test_signer');
const fake = new FakeStripe();
let t: TestApp;

beforeAll(async () => {
  const base = await fake.start();
  t = await createTestApp({
    STRIPE_SECRET_KEY: 'sk_test_chapterwise_shop',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_PRICE_SUBSCRIPTION: 'price_sub',
    STRIPE_PRICE_MODEL_TRAINING_CREDIT: 'price_mtc',
    STRIPE_PRICE_IMAGE_CREDITS: 'price_img',
    STRIPE_API_BASE: base,
    SHOP_SELLER_SHARE_PERCENT: String(SHARE_PERCENT),
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

let eventCounter = 0;
/** Delivers `checkout.session.completed` for a session as Stripe does: JSON, signed. */
function deliverPaid(session: Record<string, unknown>) {
  eventCounter += 1;
  const payload = JSON.stringify({
    id: `evt_shop_${eventCounter}_${Date.now()}`,
    object: 'event',
    type: 'checkout.session.completed',
    created: Math.floor(Date.now() / 1000),
    data: { object: session },
  });
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/payment/webhook',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'stripe-signature': signer.webhooks.generateTestHeaderString({
        payload,
        secret: WEBHOOK_SECRET,
      }),
    },
    payload,
  });
}

const shipping = {
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
};

/** A seller who went through Connect onboarding at (fake) Stripe; `complete` says how far. */
async function seller(complete: boolean) {
  const teacher = await createUser(t.app);
  fake.account = { charges_enabled: false, payouts_enabled: false, details_submitted: false };
  const start = await post('/payment/onboard-user', undefined, teacher.auth);
  expect(start.statusCode, start.body).toBe(200);
  const accountId = /acct_fake\d+/.exec(start.json().url)![0];
  fake.account = complete
    ? { charges_enabled: true, payouts_enabled: true, details_submitted: true }
    : { charges_enabled: false, payouts_enabled: false, details_submitted: true };
  const back = await get('/payment/onboard-user/return', teacher.auth);
  expect(back.json().status === 'enabled').toBe(complete);
  return { ...teacher, accountId };
}

/** An artwork of the creator with one product: a mug at $14.99 (variant 6801). */
let factoryCount = 0;
async function mugBy(creatorId: string) {
  factoryCount += 1;
  const [generation] = await t.app.db
    .insert(generations)
    .values({
      userId: creatorId,
      url: `stripe-seller-${factoryCount}`,
      prompt: 'a lighthouse in a storm',
      status: 'ready',
      provider: 'local',
    })
    .returning();
  const [product] = await t.app.db
    .insert(products)
    .values({
      generationId: generation!.id,
      kind: 'mug',
      title: 'Ceramic Mug',
      url: 'ceramic-mug',
      blueprintId: 68,
      printProviderId: 1,
      priceCents: 1499,
      variants: [{ id: 6801, title: '11 oz', priceCents: 1499 }],
      images: [],
      provider: 'local',
      providerProductId: `local-product-seller-${factoryCount}`,
    })
    .returning();
  return product!;
}

async function buy(productId: string, quantity: number, buyer: Auth) {
  const start = await post(
    '/payment/create-dream-booth-product-checkout-session',
    { productId, variantId: 6801, quantity },
    buyer,
  );
  expect(start.statusCode, start.body).toBe(200);
  const sessionId = start.json().id as string;
  const request = fake.of('/v1/checkout/sessions').at(-1)!;
  expect(start.json().url).toBe(`https://checkout.stripe.com/c/pay/${sessionId}`);
  return { sessionId, form: request.form };
}

describe('a print sale pays an onboarded seller their share through Stripe', () => {
  it('the session is a destination charge of the share; the paid event makes one order; the seller’s balance shows the share', async () => {
    const creator = await seller(true);
    const buyer = await createUser(t.app);
    const mug = await mugBy(creator.user.id);
    const before = await get('/users/me/stripebalance', creator.auth);
    expect(before.json()).toEqual({ balance: { available: 0, pending: 0, currency: 'usd' } });

    const { sessionId, form } = await buy(mug.id, 2, buyer.auth);
    const total = 1499 * 2;
    const share = Math.floor((total * SHARE_PERCENT) / 100);
    expect(share).toBe(749);
    expect(form).toMatchObject({
      mode: 'payment',
      'line_items[0][price_data][unit_amount]': '1499',
      'line_items[0][quantity]': '2',
      'payment_intent_data[transfer_data][destination]': creator.accountId,
      'payment_intent_data[transfer_data][amount]': String(share),
      'payment_intent_data[metadata][product]': 'shopProduct',
      'shipping_address_collection[allowed_countries][0]': 'US',
    });
    // One way to pay the seller: the transfer amount, not an application fee beside it.
    expect(form['payment_intent_data[application_fee_amount]']).toBeUndefined();

    // The buyer pays at Stripe; Stripe sends the signed event (and, as it may, sends it again).
    const completed = fake.pay(sessionId, shipping);
    expect((await deliverPaid(completed)).statusCode).toBe(200);
    expect((await deliverPaid(completed)).statusCode).toBe(200);
    await t.app.shop.idle();

    const paid = await t.app.db.select().from(orders).where(eq(orders.userId, buyer.user.id));
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({
      status: 'paid',
      amountCents: total,
      checkoutSessionId: sessionId,
    });
    const printOrders = await t.app.db
      .select()
      .from(shopOrders)
      .where(eq(shopOrders.userId, buyer.user.id));
    expect(printOrders).toHaveLength(1);
    expect(printOrders[0]).toMatchObject({
      status: 'created',
      quantity: 2,
      sellerUserId: creator.user.id,
      sellerShareCents: share,
      shippingAddress: { name: 'Ada Lovelace', city: 'Boston' },
    });
    const tab = (await get('/users/me/orders', buyer.auth)).json();
    expect(tab.data).toHaveLength(1);

    // The account page's balance is the connected account's balance at Stripe: the share is
    // pending there until Stripe's payout schedule makes it available.
    const balance = await get('/users/me/stripebalance', creator.auth);
    expect(balance.json()).toEqual({ balance: { available: 0, pending: share, currency: 'usd' } });
    expect(fake.of('/v1/balance').at(-1)!.headers['stripe-account']).toBe(creator.accountId);

    // A second sale adds to it.
    const again = await buy(mug.id, 1, buyer.auth);
    expect(again.form['payment_intent_data[transfer_data][amount]']).toBe(
      String(Math.floor((1499 * SHARE_PERCENT) / 100)),
    );
    await deliverPaid(fake.pay(again.sessionId, shipping));
    await t.app.shop.idle();
    expect((await get('/users/me/stripebalance', creator.auth)).json().balance.pending).toBe(
      share + Math.floor((1499 * SHARE_PERCENT) / 100),
    );
  });

  it('a creator whose onboarding is not complete gets no transfer and no share', async () => {
    const creator = await seller(false);
    const buyer = await createUser(t.app);
    const mug = await mugBy(creator.user.id);
    const { sessionId, form } = await buy(mug.id, 1, buyer.auth);
    const transferKeys = Object.keys(form).filter((k) => k.includes('transfer_data'));
    expect(transferKeys).toEqual([]);
    expect(form['payment_intent_data[application_fee_amount]']).toBeUndefined();

    await deliverPaid(fake.pay(sessionId, shipping));
    await t.app.shop.idle();
    const [row] = await t.app.db
      .select()
      .from(shopOrders)
      .where(eq(shopOrders.userId, buyer.user.id));
    expect(row).toMatchObject({ status: 'created', sellerUserId: null, sellerShareCents: 0 });
    const balance = await get('/users/me/stripebalance', creator.auth);
    expect(balance.json()).toEqual({ balance: { available: 0, pending: 0, currency: 'usd' } });
  });

  it('a creator who never started onboarding, or who buys their own artwork, gets no transfer', async () => {
    const newcomer = await createUser(t.app);
    const buyer = await createUser(t.app);
    const theirs = await buy((await mugBy(newcomer.user.id)).id, 1, buyer.auth);
    expect(Object.keys(theirs.form).some((k) => k.includes('transfer_data'))).toBe(false);
    expect((await get('/users/me/stripebalance', newcomer.auth)).json()).toEqual({
      balance: { available: 0, pending: 0, currency: 'usd' },
    });
    expect(fake.of('/v1/balance')).toHaveLength(0);

    const creator = await seller(true);
    const own = await buy((await mugBy(creator.user.id)).id, 1, creator.auth);
    expect(Object.keys(own.form).some((k) => k.includes('transfer_data'))).toBe(false);
  });
});
