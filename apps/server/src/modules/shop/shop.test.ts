import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Generation, Product } from '@chapterwise/shared';
import {
  generations,
  orders,
  products,
  shopOrders,
  users,
  type StoredProductImage,
} from '../../db/schema/index.js';
import { LocalPrintProvider } from '../../providers/print/index.js';
import { createTestApp, createUser, type TestApp } from '../../test/helpers.js';

/**
 * Generations and the shop through the API, with the offline adapters (image studio and
 * print): real artwork, real mockups, the local checkout, and the order clock (controlled here).
 */

let t: TestApp;
let clock = Date.now();
const print = new LocalPrintProvider({ stepMs: 60_000, now: () => clock });

beforeAll(async () => {
  t = await createTestApp({}, { printProvider: print });
});
afterAll(() => t.close());

type Auth = { authorization: string };
const post = (url: string, payload?: unknown, auth?: Auth, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1${url}`,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: { ...(auth ?? {}), ...headers },
  });
const get = (url: string, auth?: Auth, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { ...(auth ?? {}), ...headers } });

const idle = async () => {
  await t.app.images.idle();
  await t.app.shop.idle();
};

async function finishGeneration(id: string, auth: Auth) {
  for (let i = 0; i < 100; i++) {
    const check = await post('/checkgeneration', { id }, auth);
    expect(check.statusCode, check.body).toBe(200);
    if (check.json().finished) return check.json();
    await idle();
  }
  throw new Error('the generation did not finish');
}

/* A factory: a ready generation with products, written directly (no mockups to draw). */
let factoryCount = 0;
async function makeGeneration(
  userId: string,
  values: { prompt: string; views?: number; downloadCount?: number; createdAt?: Date },
) {
  factoryCount += 1;
  const [generation] = await t.app.db
    .insert(generations)
    .values({
      userId,
      url: `factory-${factoryCount}-${Math.random().toString(36).slice(2, 8)}`,
      prompt: values.prompt,
      status: 'ready',
      provider: 'local',
      artworkKey: `shop/factory/${factoryCount}.png`,
      views: values.views ?? 0,
      downloadCount: values.downloadCount ?? 0,
      ...(values.createdAt ? { createdAt: values.createdAt } : {}),
    })
    .returning();
  const images = (n: number): StoredProductImage[] =>
    Array.from({ length: n }, (_, i) => ({
      key: `shop/factory/${factoryCount}-${i}.jpg`,
      url: null,
      variantIds: [],
      isDefault: i === 0,
    }));
  await t.app.db.insert(products).values([
    {
      generationId: generation!.id,
      kind: 'mug',
      title: 'Ceramic Mug',
      url: 'ceramic-mug',
      blueprintId: 68,
      printProviderId: 1,
      priceCents: 1499,
      variants: [{ id: 6801, title: '11 oz', priceCents: 1499 }],
      images: images(3),
      provider: 'local',
      providerProductId: `local-product-f${factoryCount}`,
      views: values.views ?? 0,
      ...(values.createdAt ? { createdAt: values.createdAt } : {}),
    },
  ]);
  return generation!;
}

describe('a prompt becomes an artwork and four products', () => {
  let owner: Awaited<ReturnType<typeof createUser>>;
  let generation: Generation;
  let productList: Product[];

  beforeAll(async () => {
    owner = await createUser(t.app, { imageGenerationCredits: 3 });
    const start = await post(
      '/startgeneration',
      { prompt: 'a red fox reading books under the night sky' },
      owner.auth,
    );
    expect(start.statusCode, start.body).toBe(200);
    const { generationId, url } = start.json();
    expect(url).toMatch(/^a-red-fox-reading-books-under-the-night-[0-9a-f]{6}$/);
    const done = await finishGeneration(generationId, owner.auth);
    expect(done).toMatchObject({ finished: true, status: 'ready', url });
    const read = await get(`/getgeneration?url=${url}`);
    expect(read.statusCode, read.body).toBe(200);
    generation = read.json().data;
    productList = (await get(`/getproductsforgeneration?id=${generationId}`)).json().data;
  });

  it('takes one image credit and shows the artwork with its products', async () => {
    const [row] = await t.app.db.select().from(users).where(eq(users.id, owner.user.id));
    expect(row!.imageGenerationCredits).toBe(2);
    expect(generation).toMatchObject({
      prompt: 'a red fox reading books under the night sky',
      status: 'ready',
      creatorUsername: owner.user.username,
      testMode: true,
    });
    expect(generation.image).toMatch(/^\/uploads\/shop\/.+\.png$/);
    expect(generation.productIds).toHaveLength(4);
    expect(generation.productImages).toHaveLength(4);
    const artwork = await t.app.inject({ method: 'GET', url: generation.image! });
    expect(artwork.statusCode).toBe(200);
    expect(artwork.headers['content-type']).toBe('image/png');
  });

  it('makes a framed poster, a mug, a t-shirt and a tote with 30 mockups each, priced in cents', async () => {
    expect(productList.map((p) => p.title).sort()).toEqual([
      'Ceramic Mug',
      'Framed Poster',
      'T-Shirt',
      'Tote Bag',
    ]);
    for (const product of productList) {
      expect(product.images).toHaveLength(30);
      expect(product.generationUrl).toBe(generation.url);
      expect(product.price).toBe(Math.min(...product.variants.map((v) => v.price)));
      const picture = await t.app.inject({ method: 'GET', url: product.images[5]!.src });
      expect(picture.statusCode).toBe(200);
      expect(picture.headers['content-type']).toBe('image/jpeg');
    }
    const tshirt = productList.find((p) => p.kind === 'tshirt')!;
    expect(tshirt.variants.map((v) => v.title)).toEqual(['S', 'M', 'L', 'XL', '2XL']);
    expect(tshirt.price).toBe(2299);
  });

  it('picks the card image by blueprint: 421 → image 20, 50 → image 29, others image 0', () => {
    const byBlueprint = new Map(productList.map((p) => [p.printifyBlueprintId, p]));
    const poster = byBlueprint.get(421)!;
    const tshirt = byBlueprint.get(50)!;
    expect(poster.cardImage).toBe(poster.images[20]!.src);
    expect(tshirt.cardImage).toBe(tshirt.images[29]!.src);
    for (const product of productList.filter((p) => ![421, 50].includes(p.printifyBlueprintId))) {
      expect(product.cardImage).toBe(product.images[0]!.src);
    }
    // The generation's productImages are the same card pictures, in productIds' order.
    generation.productIds.forEach((id, index) => {
      expect(generation.productImages[index]).toBe(
        productList.find((p) => p._id === id)!.cardImage,
      );
    });
  });

  it('opens a product by its generation url and title (or the title’s slug)', async () => {
    const byTitle = await get(
      `/getproductbygenerationurlandtitle?url=${generation.url}&title=${encodeURIComponent('T-Shirt')}`,
    );
    expect(byTitle.statusCode, byTitle.body).toBe(200);
    expect(byTitle.json().data).toMatchObject({
      title: 'T-Shirt',
      url: 't-shirt',
      generation: { url: generation.url },
    });
    const bySlug = await get(
      `/getproductbygenerationurlandtitle?url=${generation.url}&title=t-shirt`,
    );
    expect(bySlug.json().data._id).toBe(byTitle.json().data._id);
    expect(
      (await get(`/getproductbygenerationurlandtitle?url=${generation.url}&title=Sofa`)).statusCode,
    ).toBe(404);
    expect(
      (await get(`/getproductbygenerationurlandtitle?url=nope&title=t-shirt`)).statusCode,
    ).toBe(404);
    expect((await get(`/getproductbygenerationurlandtitle?url=${generation.url}`)).statusCode).toBe(
      400,
    );
  });

  it('counts a view once per visitor per day', async () => {
    const url = `/getgeneration?url=${generation.url}`;
    const before = (await get(url, owner.auth)).json().data.views;
    expect((await get(url, owner.auth)).json().data.views).toBe(before);
    const guest = { 'user-agent': 'guest-browser-1' };
    const afterGuest = (await get(url, undefined, guest)).json().data.views;
    expect(afterGuest).toBe(before + 1);
    expect((await get(url, undefined, guest)).json().data.views).toBe(before + 1);
    const other = await createUser(t.app);
    expect((await get(url, other.auth)).json().data.views).toBe(before + 2);
  });

  it('is the owner’s to delete: another teacher gets a 404', async () => {
    const other = await createUser(t.app);
    expect((await post('/deletegeneration', { id: generation._id }, other.auth)).statusCode).toBe(
      404,
    );
    expect((await post('/checkgeneration', { id: generation._id }, other.auth)).statusCode).toBe(
      404,
    );
    expect((await post('/deletegeneration', { id: generation._id })).statusCode).toBe(401);
    expect((await post('/deletegeneration', { id: 'nope' }, owner.auth)).statusCode).toBe(400);
  });
});

describe('starting a generation', () => {
  it('needs a session, a prompt, a classroom-safe prompt and an image credit', async () => {
    expect((await post('/startgeneration', { prompt: 'a lighthouse' })).statusCode).toBe(401);
    const poor = await createUser(t.app, { imageGenerationCredits: 0 });
    const noCredit = await post('/startgeneration', { prompt: 'a lighthouse' }, poor.auth);
    expect(noCredit.statusCode).toBe(402);
    expect(noCredit.json().errors.message).toMatch(/image credit/);
    const rich = await createUser(t.app, { imageGenerationCredits: 5 });
    const empty = await post('/startgeneration', { prompt: '   ' }, rich.auth);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors.message).toMatch(/prompt/);
    const blocked = await post('/startgeneration', { prompt: 'a bloody battle' }, rich.auth);
    expect(blocked.statusCode).toBe(400);
    expect(blocked.json().errors.message).toMatch(/"blood/);
    expect(
      (
        await post('/startgeneration', 'not json', rich.auth, {
          'content-type': 'application/json',
        })
      ).statusCode,
    ).toBe(400);
    const [row] = await t.app.db.select().from(users).where(eq(users.id, rich.user.id));
    expect(row!.imageGenerationCredits).toBe(5);
  });

  it('/generate answers the finished generation in one call; the owner deletes it', async () => {
    const teacher = await createUser(t.app, { imageGenerationCredits: 1 });
    const made = await post('/generate', { prompt: 'sunflowers in a blue vase' }, teacher.auth);
    expect(made.statusCode, made.body).toBe(200);
    const data = made.json().data as Generation;
    expect(data.status).toBe('ready');
    expect(data.productIds).toHaveLength(4);
    const deleted = await post('/deletegeneration', { id: data._id }, teacher.auth);
    expect(deleted.json()).toEqual({ wasSuccessful: true });
    expect((await get(`/getgeneration?url=${data.url}`)).statusCode).toBe(404);
    expect((await get(`/getproductsforgeneration?id=${data._id}`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: data.image! })).statusCode).toBe(404);
  });
});

describe('the gallery and the shop', () => {
  let creator: Awaited<ReturnType<typeof createUser>>;
  const day = (n: number) => new Date(Date.UTC(2026, 0, n));

  beforeAll(async () => {
    creator = await createUser(t.app);
    await makeGeneration(creator.user.id, {
      prompt: 'zebra stripes poster',
      views: 5,
      downloadCount: 1,
      createdAt: day(1),
    });
    await makeGeneration(creator.user.id, {
      prompt: 'zebra crossing at night',
      views: 50,
      downloadCount: 0,
      createdAt: day(2),
    });
    await makeGeneration(creator.user.id, {
      prompt: 'zebra in the savanna 100% fun',
      views: 1,
      downloadCount: 9,
      createdAt: day(3),
    });
  });

  const zebras = async (sort: string, extra = '') => {
    const answer = await get(`/getgenerations?sort=${sort}&searchTerm=zebra${extra}&limit=100`);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json() as { data: Generation[]; count: number };
  };

  it('sorts by views, download_count and createdAt, and searches the prompt', async () => {
    expect((await zebras('views')).data.map((g) => g.views)).toEqual([50, 5, 1]);
    expect((await zebras('download_count')).data.map((g) => g.download_count)).toEqual([9, 1, 0]);
    expect((await zebras('createdAt')).data.map((g) => g.prompt)).toEqual([
      'zebra in the savanna 100% fun',
      'zebra crossing at night',
      'zebra stripes poster',
    ]);
    const random = await zebras('random');
    expect(random.count).toBe(3);
    expect(random.data.map((g) => g.prompt).sort()).toHaveLength(3);
    const night = await get('/getgenerations?sort=createdAt&searchTerm=ZEBRA%20night');
    expect(night.json().data.map((g: Generation) => g.prompt)).toEqual(['zebra crossing at night']);
    // LIKE's wildcards are plain characters in a search.
    const percent = await get('/getgenerations?sort=createdAt&searchTerm=100%25');
    expect(percent.json().data.map((g: Generation) => g.prompt)).toEqual([
      'zebra in the savanna 100% fun',
    ]);
    expect((await get('/getgenerations?sort=createdAt&searchTerm=okapi')).json()).toEqual({
      data: [],
      count: 0,
    });
  });

  it('pages with page and limit; a bad sort or limit is a 400', async () => {
    const first = await get('/getgenerations?sort=views&searchTerm=zebra&limit=2&page=1');
    const second = await get('/getgenerations?sort=views&searchTerm=zebra&limit=2&page=2');
    expect(first.json().count).toBe(3);
    expect(first.json().data).toHaveLength(2);
    expect(second.json().data.map((g: Generation) => g.views)).toEqual([1]);
    const bad = await get('/getgenerations?sort=popular');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.message).toMatch(/sort/);
    expect((await get('/getgenerations?sort=views&limit=101')).statusCode).toBe(400);
    expect((await get('/getproducts?sort=price')).statusCode).toBe(400);
  });

  it('lists products by views and featured products one per artwork', async () => {
    const list = (await get('/getproducts?sort=views&limit=100')).json();
    const views = list.data.map((p: Product) => p.views);
    expect(views).toEqual([...views].sort((a: number, b: number) => b - a));
    expect(list.count).toBeGreaterThanOrEqual(3);
    const recent = (await get('/getproducts?sort=createdAt&limit=100')).json().data as Product[];
    const times = recent.map((p) => Date.parse(p.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const featured = (await get('/getfeaturedproducts')).json();
    expect(featured.data.length).toBeGreaterThan(0);
    expect(featured.data.length).toBeLessThanOrEqual(8);
    const urls = featured.data.map((p: Product) => p.generationUrl);
    expect(new Set(urls).size).toBe(urls.length);
    for (const product of (list.data as Product[]).filter((p) => p.printifyBlueprintId === 68)) {
      expect(product.cardImage).toBe(product.images[0]!.src); // blueprint 68: image 0
    }
  });

  it('hides unfinished generations from everyone but their owner', async () => {
    const [pending] = await t.app.db
      .insert(generations)
      .values({
        userId: creator.user.id,
        url: 'still-drawing',
        prompt: 'zebra unfinished',
        status: 'failed',
        error: 'no',
        provider: 'local',
      })
      .returning();
    expect((await get('/getgeneration?url=still-drawing')).statusCode).toBe(404);
    expect((await get('/getgeneration?url=still-drawing', creator.auth)).statusCode).toBe(200);
    expect((await zebras('createdAt')).count).toBe(3);
    expect((await get(`/getproductsforgeneration?id=${pending!.id}`)).statusCode).toBe(404);
  });
});

describe('buying a product', () => {
  let creator: Awaited<ReturnType<typeof createUser>>;
  let buyer: Awaited<ReturnType<typeof createUser>>;
  let mug: Product;
  let poster: Product;
  const address = {
    name: 'Ada Lovelace',
    line1: '12 School Lane',
    city: 'Springfield',
    state: 'IL',
    postal_code: '62701',
    country: 'US',
  };

  beforeAll(async () => {
    creator = await createUser(t.app);
    buyer = await createUser(t.app);
    const generation = await makeGeneration(creator.user.id, { prompt: 'owls on a branch' });
    await t.app.db.insert(products).values({
      generationId: generation.id,
      kind: 'poster',
      title: 'Framed Poster',
      url: 'framed-poster',
      blueprintId: 421,
      printProviderId: 2,
      priceCents: 3499,
      variants: [
        { id: 42101, title: '12″ × 16″', priceCents: 3499 },
        { id: 42102, title: '18″ × 24″', priceCents: 4999 },
      ],
      images: [],
      provider: 'local',
      providerProductId: 'local-product-poster',
    });
    const list = (await get(`/getproductsforgeneration?id=${generation.id}`)).json()
      .data as Product[];
    mug = list.find((p) => p.kind === 'mug')!;
    poster = list.find((p) => p.kind === 'poster')!;
  });

  const checkout = (body: unknown, auth: Auth = buyer.auth) =>
    post('/payment/create-dream-booth-product-checkout-session', body, auth);

  it('refuses an unknown product, a variant of another product, a quantity of 0 or 10,000', async () => {
    const unknown = await checkout({
      productId: '00000000-0000-4000-8000-000000000000',
      variantId: 1,
      quantity: 1,
    });
    expect(unknown.statusCode).toBe(404);
    const otherVariant = await checkout({ productId: mug._id, variantId: 42102, quantity: 1 });
    expect(otherVariant.statusCode).toBe(400);
    expect(otherVariant.json().errors.message).toMatch(/variantId/);
    for (const quantity of [0, 10_000, -1, 1.5]) {
      const bad = await checkout({ productId: mug._id, variantId: 6801, quantity });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors.message).toMatch(/quantity/);
    }
    expect(
      (
        await post('/payment/create-dream-booth-product-checkout-session', {
          productId: mug._id,
          variantId: 6801,
          quantity: 1,
        })
      ).statusCode,
    ).toBe(401);
    expect(await t.app.db.select().from(shopOrders)).toHaveLength(0);
  });

  it('pays on the local checkout with an address; one order is made at the printer, followed to delivery', async () => {
    const start = await checkout({ productId: poster._id, variantId: 42102, quantity: 2 });
    expect(start.statusCode, start.body).toBe(200);
    const { id } = start.json();
    const session = (await get(`/payment/checkout-session/${id}`, buyer.auth)).json().data;
    expect(session.order).toMatchObject({
      product: 'shopProduct',
      amount: 9998,
      status: 'pending',
    });
    expect(session.order.shopOrder).toMatchObject({
      status: 'awaiting_payment',
      quantity: 2,
      variantTitle: '18″ × 24″',
    });

    // Without an address there is nothing to ship to.
    const noAddress = await post(`/payment/local/checkout/${id}/pay`, {}, buyer.auth);
    expect(noAddress.statusCode).toBe(400);
    expect(noAddress.json().errors.message).toMatch(/shipping/);
    const badAddress = await post(
      `/payment/local/checkout/${id}/pay`,
      { shipping: { ...address, postal_code: '' } },
      buyer.auth,
    );
    expect(badAddress.statusCode).toBe(400);

    // Two Pays at once: one payment, one print order.
    const [a, b] = await Promise.all([
      post(`/payment/local/checkout/${id}/pay`, { shipping: address }, buyer.auth),
      post(`/payment/local/checkout/${id}/pay`, { shipping: address }, buyer.auth),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    await idle();

    const rows = await t.app.db
      .select()
      .from(shopOrders)
      .where(eq(shopOrders.userId, buyer.user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'created', quantity: 2, shippingAddress: address });
    expect(rows[0]!.providerOrderId).toMatch(/^local-order-/);

    // A replayed paid event changes nothing.
    const [order] = await t.app.db.select().from(orders).where(eq(orders.id, rows[0]!.orderId));
    const replay = await t.app.billing.applyEvent(
      {
        id: `evt_local_${id.replace(/^cs_local_/, '')}_completed`,
        type: 'checkout.session.completed',
        created: Math.floor(Date.now() / 1000),
        data: {
          object: { id, mode: 'payment', payment_status: 'paid', metadata: { orderId: order!.id } },
        },
      },
      'local',
    );
    expect(replay).toBe('duplicate');
    await idle();
    expect(
      await t.app.db.select().from(shopOrders).where(eq(shopOrders.userId, buyer.user.id)),
    ).toHaveLength(1);

    const ordersTab = async () => (await get('/users/me/orders', buyer.auth)).json().data[0];
    expect((await ordersTab()).shopOrder).toMatchObject({
      status: 'created',
      statusLabel: 'Order placed',
      shipTo: 'Ada Lovelace, Springfield, US',
      testMode: true,
    });
    clock += 61_000;
    expect((await ordersTab()).shopOrder).toMatchObject({
      status: 'in_production',
      statusLabel: 'In production',
    });
    clock += 60_000;
    const shipped = (await ordersTab()).shopOrder;
    expect(shipped).toMatchObject({
      status: 'shipped',
      carrier: expect.stringMatching(/Test carrier/),
    });
    expect(shipped.trackingNumber).toMatch(/^TEST-/);
    clock += 60_000;
    expect((await ordersTab()).shopOrder.status).toBe('delivered');
    // The purchase counts towards the artwork's popularity.
    const [generation] = await t.app.db
      .select()
      .from(generations)
      .where(eq(generations.id, rows[0]!.generationId!));
    expect(generation!.downloadCount).toBe(2);
  });

  it('lists orders newest first', async () => {
    const start = await checkout({ productId: mug._id, variantId: 6801, quantity: 1 });
    await post(`/payment/local/checkout/${start.json().id}/pay`, { shipping: address }, buyer.auth);
    await idle();
    const list = (await get('/users/me/orders', buyer.auth)).json().data;
    expect(list[0].shopOrder.title).toMatch(/^Ceramic Mug/);
    expect(list[1].shopOrder.title).toMatch(/^Framed Poster/);
  });

  it('a refund cancels the printer’s order while it is not in production', async () => {
    const start = await checkout({ productId: mug._id, variantId: 6801, quantity: 1 });
    const { id } = start.json();
    await post(`/payment/local/checkout/${id}/pay`, { shipping: address }, buyer.auth);
    await idle();
    const refund = (n: string) =>
      t.app.billing.applyEvent(
        {
          id: `evt_refund_${n}`,
          type: 'charge.refunded',
          created: Math.floor(Date.now() / 1000),
          data: {
            object: {
              id: `ch_${n}`,
              amount: 1499,
              amount_refunded: 1499,
              refunded: true,
              payment_intent: `pi_local_${id.replace(/^cs_local_/, '')}`,
            },
          },
        },
        'local',
      );
    expect(await refund('a')).toBe('applied');
    await idle();
    const [row] = await t.app.db.select().from(shopOrders).where(eq(shopOrders.status, 'canceled'));
    expect(row).toBeDefined();
    const tab = (await get('/users/me/orders', buyer.auth)).json().data[0];
    expect(tab).toMatchObject({
      status: 'refunded',
      shopOrder: { status: 'canceled', statusLabel: 'Canceled' },
    });
  });

  it('pays the artwork’s creator a share once they are an authorised seller', async () => {
    expect((await get('/users/me/stripebalance', creator.auth)).json().balance.available).toBe(0);
    await post('/payment/onboard-user', undefined, creator.auth);
    await post('/payment/local/onboarding/complete', undefined, creator.auth);
    const start = await checkout({ productId: mug._id, variantId: 6801, quantity: 2 });
    await post(`/payment/local/checkout/${start.json().id}/pay`, { shipping: address }, buyer.auth);
    await idle();
    const [row] = await t.app.db
      .select()
      .from(shopOrders)
      .where(eq(shopOrders.sellerUserId, creator.user.id));
    expect(row!.sellerShareCents).toBe(Math.floor((1499 * 2 * 20) / 100));
    expect((await get('/users/me/stripebalance', creator.auth)).json().balance.available).toBe(599);
    // Buying one's own artwork pays no share.
    const own = await post(
      '/payment/create-dream-booth-product-checkout-session',
      { productId: mug._id, variantId: 6801, quantity: 1 },
      creator.auth,
    );
    expect(own.statusCode).toBe(200);
  });
});

describe('products from a teacher’s own upscaled image', () => {
  it('useupscaleforproductimages makes products reached by prediction url and title', async () => {
    const teacher = await createUser(t.app, { imageGenerationCredits: 2 });
    const made = await post(
      '/models/generatedreamboothimage',
      { modelId: 'base-illustration', prompt: 'a paper boat on a pond', numImages: 1 },
      teacher.auth,
    );
    expect(made.statusCode, made.body).toBe(201);
    await idle();
    const prediction = (
      await get(`/models/getreplicateprediction?id=${made.json().data._id}`, teacher.auth)
    ).json().data;
    const image = prediction.images[0];
    const up = await post(
      '/models/upscaledreamboothimage',
      { imageId: image._id, scale: 2 },
      teacher.auth,
    );
    expect(up.statusCode, up.body).toBe(201);
    await idle();
    const upscaleId = up.json().data._id;

    const other = await createUser(t.app);
    expect(
      (await post('/models/useupscaleforproductimages', { upscaleId }, other.auth)).statusCode,
    ).toBe(404);

    const used = await post('/models/useupscaleforproductimages', { upscaleId }, teacher.auth);
    expect(used.statusCode, used.body).toBe(200);
    await idle();
    const again = await post('/models/useupscaleforproductimages', { upscaleId }, teacher.auth);
    expect(again.json().data._id).toBe(used.json().data._id);
    expect(again.json().data.status).toBe('ready');
    const product = await get(
      `/models/getproductbypredictionurlandtitle?url=${image.predictionUrl}&title=Ceramic%20Mug&username=${teacher.user.username}`,
    );
    expect(product.statusCode, product.body).toBe(200);
    expect(product.json().data).toMatchObject({
      title: 'Ceramic Mug',
      prompt: 'a paper boat on a pond',
    });
    expect(
      (
        await get(
          `/models/getproductbypredictionurlandtitle?url=${image.predictionUrl}&title=Ceramic%20Mug&username=${other.user.username}`,
        )
      ).statusCode,
    ).toBe(404);
    const [row] = await t.app.db.select().from(users).where(eq(users.id, teacher.user.id));
    expect(row!.imageGenerationCredits).toBe(0); // one image, one upscale; products cost nothing
  });
});
