import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SHOP_CATALOG } from '@chapterwise/shared';
import { PrintifyProvider, mapOrderStatus } from './printify.js';
import { PrintProviderError, PrintWebhookError } from './types.js';

/**
 * The Printify adapter against a fake Printify API served here: the calls it makes (paths,
 * bodies, the bearer token), what it reads back, 429 handling and webhook signatures.
 */

interface Call {
  method: string;
  path: string;
  body: unknown;
  auth: string | undefined;
}

let server: Server;
let base = '';
let calls: Call[] = [];
/** Answers queued per path before the default ones (to play a 429, say). */
let overrides: Array<{
  path: RegExp;
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}> = [];
const orders = new Map<string, { status: string; external_id: string }>();

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

async function handle(req: IncomingMessage, res: ServerResponse) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const path = req.url ?? '';
  const body = text ? JSON.parse(text) : undefined;
  calls.push({ method: req.method ?? '', path, body, auth: req.headers.authorization });
  const override = overrides.findIndex((o) => o.path.test(path));
  if (override >= 0) {
    const [o] = overrides.splice(override, 1);
    return send(res, o!.status, o!.body, o!.headers);
  }
  let m: RegExpExecArray | null;
  if (path === '/v1/uploads/images.json')
    return send(res, 200, { id: 'upload-1', file_name: body.file_name });
  if (
    (m = /^\/v1\/catalog\/blueprints\/(\d+)\/print_providers\/(\d+)\/variants\.json$/.exec(path))
  ) {
    const item = SHOP_CATALOG.find((c) => c.blueprintId === Number(m![1]))!;
    return send(res, 200, {
      id: Number(m[2]),
      variants: [
        ...item.variants.map((v, i) => ({ id: 90_000 + i, title: v.title, options: {} })),
        { id: 99_999, title: 'Something we do not sell', options: {} },
      ],
    });
  }
  if (path === '/v1/shops/42/products.json' && req.method === 'POST') {
    return send(res, 200, { id: `prod-${body.blueprint_id}`, images: [], variants: [] });
  }
  if ((m = /^\/v1\/shops\/42\/products\/(prod-\d+)\/publish\.json$/.exec(path)))
    return send(res, 200, {});
  if ((m = /^\/v1\/shops\/42\/products\/(prod-\d+)\.json$/.exec(path))) {
    return send(res, 200, {
      id: m[1],
      images: Array.from({ length: 3 }, (_, i) => ({
        src: `https://images-api.printify.com/mockup/${m![1]}/${i}.jpg`,
        variant_ids: [90_000],
        position: 'front',
        is_default: i === 0,
      })),
      variants: [{ id: 90_000, title: 'x', price: 100, is_enabled: true }],
    });
  }
  if (path === '/v1/shops/42/orders/shipping.json')
    return send(res, 200, { standard: 499, express: 999 });
  if (path === '/v1/shops/42/orders.json') {
    const existing = [...orders.entries()].find(([, o]) => o.external_id === body.external_id);
    if (existing) return send(res, 400, { errors: { reason: 'external_id already used' } });
    const id = `order-${orders.size + 1}`;
    orders.set(id, { status: 'on-hold', external_id: body.external_id });
    return send(res, 200, { id });
  }
  if ((m = /^\/v1\/shops\/42\/orders\/(order-\d+)\/send_to_production\.json$/.exec(path))) {
    orders.get(m[1]!)!.status = 'sending-to-production';
    return send(res, 200, { id: m[1] });
  }
  if ((m = /^\/v1\/shops\/42\/orders\/(order-\d+)\/cancel\.json$/.exec(path))) {
    const order = orders.get(m[1]!)!;
    if (order.status === 'in-production') return send(res, 400, { errors: { reason: 'Too late' } });
    order.status = 'canceled';
    return send(res, 200, { id: m[1], status: 'canceled' });
  }
  if ((m = /^\/v1\/shops\/42\/orders\/(order-\d+)\.json$/.exec(path))) {
    const order = orders.get(m[1]!)!;
    return send(res, 200, {
      id: m[1],
      status: order.status,
      shipments:
        order.status === 'fulfilled'
          ? [
              {
                carrier: 'usps',
                number: '9400 1000',
                url: 'https://tools.usps.com/t',
                delivered_at: null,
              },
            ]
          : [],
    });
  }
  return send(res, 404, { error: 'not found' });
}

const SECRET = 'whsec-printify-test-secret';
let printify: PrintifyProvider;

beforeAll(async () => {
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  printify = new PrintifyProvider({
    provider: 'printify',
    apiToken: 'printify-token-123',
    shopId: '42',
    webhookSecret: SECRET,
    apiBase: base,
    pollMs: 1000,
  });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  calls = [];
  overrides = [];
});

const address = {
  name: 'Ada King Lovelace',
  line1: '12 School Lane',
  city: 'Springfield',
  state: 'IL',
  postal_code: '62701',
  country: 'US' as const,
};

describe('Printify adapter', () => {
  it('uploads the artwork once, base64, with the bearer token', async () => {
    const png = Buffer.from('not really a png');
    expect(await printify.uploadArtwork({ png, fileName: 'owl.png' })).toEqual({ id: 'upload-1' });
    expect(calls[0]).toMatchObject({
      method: 'POST',
      path: '/v1/uploads/images.json',
      body: { file_name: 'owl.png', contents: png.toString('base64') },
      auth: 'Bearer printify-token-123',
    });
  });

  it('creates, publishes and reads back a product: our variants priced, the mockups', async () => {
    const tshirt = SHOP_CATALOG.find((c) => c.kind === 'tshirt')!;
    const made = await printify.createProduct({
      artworkId: 'upload-1',
      artwork: Buffer.alloc(0),
      item: tshirt,
      title: 'Owl T-Shirt',
      description: 'An owl.',
    });
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET /v1/catalog/blueprints/50/print_providers/29/variants.json',
      'POST /v1/shops/42/products.json',
      'POST /v1/shops/42/products/prod-50/publish.json',
      'GET /v1/shops/42/products/prod-50.json',
    ]);
    const create = calls[1]!.body as Record<string, unknown>;
    expect(create).toMatchObject({ title: 'Owl T-Shirt', blueprint_id: 50, print_provider_id: 29 });
    // Only the catalogue's variants we sell, at our prices.
    expect(create.variants).toEqual(
      tshirt.variants.map((v, i) => ({ id: 90_000 + i, price: v.priceCents, is_enabled: true })),
    );
    expect(create.print_areas).toEqual([
      {
        variant_ids: tshirt.variants.map((_, i) => 90_000 + i),
        placeholders: [
          { position: 'front', images: [{ id: 'upload-1', x: 0.5, y: 0.5, scale: 1, angle: 0 }] },
        ],
      },
    ]);
    expect(made.id).toBe('prod-50');
    expect(made.variants.map((v) => v.title)).toEqual(['S', 'M', 'L', 'XL', '2XL']);
    expect(made.images).toHaveLength(3);
    expect(made.images[0]).toEqual({
      image: { url: 'https://images-api.printify.com/mockup/prod-50/0.jpg' },
      variantIds: [90_000],
      isDefault: true,
    });
  });

  it('asks the shipping cost for an address', async () => {
    const cost = await printify.shippingCost({
      lineItems: [{ providerProductId: 'prod-50', variantId: 90_000, quantity: 2 }],
      address,
    });
    expect(cost).toBe(499);
    expect(calls[0]!.body).toMatchObject({
      line_items: [{ product_id: 'prod-50', variant_id: 90_000, quantity: 2 }],
      address_to: {
        first_name: 'Ada King',
        last_name: 'Lovelace',
        country: 'US',
        zip: '62701',
        region: 'IL',
      },
    });
  });

  it('creates an order with our id, sends it to production, and never prints it twice', async () => {
    const input = {
      externalId: 'our-order-1',
      label: 'Chapterwise our-orde',
      lineItems: [{ providerProductId: 'prod-50', variantId: 90_001, quantity: 1 }],
      address,
      email: 'ada@example.org',
    };
    const { id } = await printify.createOrder(input);
    expect(calls.map((c) => c.path)).toEqual([
      '/v1/shops/42/orders.json',
      `/v1/shops/42/orders/${id}/send_to_production.json`,
    ]);
    expect(calls[0]!.body).toMatchObject({
      external_id: 'our-order-1',
      shipping_method: 1,
      address_to: { email: 'ada@example.org', address1: '12 School Lane', city: 'Springfield' },
    });
    expect((await printify.getOrder(id)).status).toBe('created');
    await expect(printify.createOrder(input)).rejects.toThrow(/external_id already used/);

    orders.get(id)!.status = 'in-production';
    expect((await printify.getOrder(id)).status).toBe('in_production');
    expect(await printify.cancelOrder(id)).toBe(false);
    orders.get(id)!.status = 'fulfilled';
    expect(await printify.getOrder(id)).toEqual({
      id,
      status: 'shipped',
      trackingNumber: '9400 1000',
      trackingUrl: 'https://tools.usps.com/t',
      carrier: 'usps',
    });
  });

  it('cancels an order still on hold', async () => {
    const { id } = await printify.createOrder({
      externalId: 'our-order-2',
      label: 'x',
      lineItems: [{ providerProductId: 'prod-50', variantId: 90_001, quantity: 1 }],
      address,
      email: '',
    });
    expect(await printify.cancelOrder(id)).toBe(true);
    expect((await printify.getOrder(id)).status).toBe('canceled');
  });

  it('waits out a 429 (Retry-After) and tries again; gives up on a long one', async () => {
    overrides.push({ path: /uploads/, status: 429, headers: { 'retry-after': '1' }, body: {} });
    const started = Date.now();
    expect(await printify.uploadArtwork({ png: Buffer.from('x'), fileName: 'a.png' })).toEqual({
      id: 'upload-1',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(calls.filter((c) => c.path.includes('uploads'))).toHaveLength(2);

    overrides.push({ path: /uploads/, status: 429, headers: { 'retry-after': '3600' }, body: {} });
    const error = await printify
      .uploadArtwork({ png: Buffer.from('x'), fileName: 'a.png' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PrintProviderError);
    expect((error as PrintProviderError).transient).toBe(true);
    expect((error as PrintProviderError).options.status).toBe(429);
  });

  it('shows Printify’s reason when it refuses a call', async () => {
    overrides.push({
      path: /products\.json/,
      status: 400,
      body: { errors: { reason: 'Bad blueprint' } },
    });
    const error = await printify
      .createProduct({
        artworkId: 'upload-1',
        artwork: Buffer.alloc(0),
        item: SHOP_CATALOG[1]!,
        title: 'Mug',
        description: '',
      })
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe('Printify refused the request: Bad blueprint.');
    expect((error as PrintProviderError).transient).toBe(false);
  });
});

describe('Printify webhooks', () => {
  const body = (extra: Record<string, unknown> = {}) =>
    Buffer.from(
      JSON.stringify({
        id: 'evt-1',
        type: 'order:updated',
        created_at: '2026-11-27 12:00:00+00:00',
        resource: { id: 'order-9', type: 'order', data: { shop_id: 42, status: 'in-production' } },
        ...extra,
      }),
    );
  const sign = (raw: Buffer, secret = SECRET) =>
    `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

  it('reads a validly signed order event', () => {
    const raw = body();
    expect(printify.verifyWebhook({ 'x-pfy-signature': sign(raw) }, raw)).toEqual({
      eventId: 'evt-1',
      type: 'order:updated',
      orderId: 'order-9',
      state: {
        id: 'order-9',
        status: 'in_production',
        trackingNumber: null,
        trackingUrl: null,
        carrier: null,
      },
    });
  });

  it('refuses a tampered body, a wrong secret and a missing signature', () => {
    const raw = body();
    const tampered = Buffer.from(raw.toString().replace('in-production', 'canceled'));
    expect(() => printify.verifyWebhook({ 'x-pfy-signature': sign(raw) }, tampered)).toThrow(
      PrintWebhookError,
    );
    expect(() =>
      printify.verifyWebhook({ 'x-pfy-signature': sign(raw, 'another-secret') }, raw),
    ).toThrow(/does not check out/);
    expect(() => printify.verifyWebhook({}, raw)).toThrow(/missing/);
  });

  it('maps Printify’s order statuses', () => {
    expect(mapOrderStatus('on-hold', false)).toBe('created');
    expect(mapOrderStatus('sending-to-production', false)).toBe('created');
    expect(mapOrderStatus('in-production', false)).toBe('in_production');
    expect(mapOrderStatus('fulfilled', false)).toBe('shipped');
    expect(mapOrderStatus('fulfilled', true)).toBe('delivered');
    expect(mapOrderStatus('canceled', false)).toBe('canceled');
    expect(mapOrderStatus('has-issues', false)).toBe('failed');
  });
});
