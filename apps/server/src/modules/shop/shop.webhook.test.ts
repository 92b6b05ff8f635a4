import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generations, orders, products, shopOrders } from '../../db/schema/index.js';
import { PrintifyProvider } from '../../providers/print/index.js';
import { createTestApp, createUser, type TestApp } from '../../test/helpers.js';

/**
 * Printify's webhook through the API: a signed order event moves our print order on, once; a
 * replay is a duplicate; a tampered one is a 400. (The adapter's calls are tested against a
 * fake Printify in providers/print/printify.test.ts.)
 */

const SECRET = 'whsec-printify-test-secret';
let t: TestApp;
let shopOrderId = '';

beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      printProvider: new PrintifyProvider({
        provider: 'printify',
        apiToken: 'token-not-used-here',
        shopId: '42',
        webhookSecret: SECRET,
        // Nothing listens here: the events below carry their state, no call is made.
        apiBase: 'http://127.0.0.1:9',
        pollMs: 600_000,
      }),
    },
  );
  const { user } = await createUser(t.app);
  const [generation] = await t.app.db
    .insert(generations)
    .values({ userId: user.id, url: 'owl', prompt: 'owl', status: 'ready', provider: 'printify' })
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
      variants: [{ id: 1, title: '11 oz', priceCents: 1499 }],
      images: [],
      provider: 'printify',
      providerProductId: 'prod-68',
    })
    .returning();
  const [order] = await t.app.db
    .insert(orders)
    .values({
      userId: user.id,
      provider: 'local',
      product: 'shopProduct',
      amountCents: 1499,
      status: 'paid',
      mode: 'payment',
    })
    .returning();
  const [row] = await t.app.db
    .insert(shopOrders)
    .values({
      orderId: order!.id,
      userId: user.id,
      productId: product!.id,
      generationId: generation!.id,
      title: 'Ceramic Mug: Owl',
      variantId: 1,
      variantTitle: '11 oz',
      quantity: 1,
      unitPriceCents: 1499,
      provider: 'printify',
      providerProductId: 'prod-68',
      providerOrderId: 'order-9',
      status: 'created',
      lastPolledAt: new Date(),
    })
    .returning();
  shopOrderId = row!.id;
});
afterAll(() => t.close());

const event = (id: string, status: string, extra: Record<string, unknown> = {}) =>
  Buffer.from(
    JSON.stringify({
      id,
      type: 'order:updated',
      resource: { id: 'order-9', type: 'order', data: { shop_id: 42, status, ...extra } },
    }),
  );
const deliver = (
  raw: Buffer,
  signature = `sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`,
) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/shop/webhook/printify',
    payload: raw,
    headers: { 'content-type': 'application/json', 'x-pfy-signature': signature },
  });
const status = async () =>
  (await t.app.db.select().from(shopOrders).where(eq(shopOrders.id, shopOrderId)))[0]!;

describe('the Printify webhook', () => {
  it('applies a signed event once; a replay is a duplicate', async () => {
    const raw = event('evt-1', 'in-production');
    const first = await deliver(raw);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ received: true, outcome: 'applied' });
    expect((await status()).status).toBe('in_production');
    const replay = await deliver(raw);
    expect(replay.json()).toEqual({ received: true, outcome: 'duplicate' });
  });

  it('refuses a tampered or unsigned event (400) and changes nothing', async () => {
    const raw = event('evt-2', 'canceled');
    const signature = `sha256=${createHmac('sha256', SECRET).update(raw).digest('hex')}`;
    const tampered = Buffer.from(raw.toString().replace('evt-2', 'evt-3'));
    const bad = await deliver(tampered, signature);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.message).toMatch(/signature/);
    expect((await deliver(raw, '')).statusCode).toBe(400);
    expect((await status()).status).toBe('in_production');
  });

  it('never moves an order back: a late "created" after "shipped" changes nothing', async () => {
    await deliver(
      event('evt-4', 'fulfilled', {
        shipments: [{ carrier: 'usps', number: 'TRACK1', url: 'https://t.example/1' }],
      }),
    );
    expect(await status()).toMatchObject({ status: 'shipped', trackingNumber: 'TRACK1' });
    await deliver(event('evt-5', 'on-hold'));
    expect((await status()).status).toBe('shipped');
  });

  it('ignores events about orders that are not ours', async () => {
    const raw = Buffer.from(
      JSON.stringify({
        id: 'evt-6',
        type: 'order:updated',
        resource: { id: 'order-x', type: 'order', data: { status: 'canceled' } },
      }),
    );
    expect((await deliver(raw)).json().outcome).toBe('ignored');
  });
});
