import type { FastifyBaseLogger } from 'fastify';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import {
  cardImageIndex,
  SHOP_CATALOG,
  SHOP_ORDER_STATUS_LABELS,
  productPath,
  slugify,
  type Generation,
  type Product,
  type ProductCheckoutBody,
  type ProductWithGeneration,
  type ShippingAddress,
  type ShopOrderInfo,
  type ShopSort,
  type CheckShopGenerationAnswer,
  type CheckoutAnswer,
} from '@chapterwise/shared';
import type { Db } from '../../db/client.js';
import type {
  GenerationRow,
  NewProductRow,
  OrderRow,
  ProductRow,
  ShopOrderRow,
  StoredProductImage,
  UserRow,
} from '../../db/schema/index.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import {
  PrintProviderError,
  PrintWebhookError,
  type PrintProvider,
  type ProviderOrderState,
} from '../../providers/print/index.js';
import type { Storage } from '../../providers/storage/index.js';
import type { BillingService } from '../billing/billing.service.js';
import type { ImagesService } from '../images/images.service.js';
import * as repo from './shop.repository.js';

export interface ShopDeps {
  db: Db;
  storage: Storage;
  print: PrintProvider;
  images: ImagesService;
  billing: BillingService;
  log: FastifyBaseLogger;
  /** The share of a sale paid to an authorised seller (percent). */
  sellerSharePercent: number;
  /** Signs visitor ids (views are counted per visitor per day without keeping addresses). */
  visitorSecret: string;
  /** How long a print order's status may be before it is read again from the provider. */
  orderPollMs: number;
}

/** The base model artworks are drawn with. */
const ARTWORK_MODEL = 'base-poster';
/** How long one worker may hold a generation while it makes the products. */
const PRODUCTS_LEASE_MS = 5 * 60_000;
const SUBMIT_LEASE_MS = 2 * 60_000;
/** Attempts at sending a paid order to the printer before it needs a person. */
const MAX_SUBMIT_ATTEMPTS = 8;
/** How long `/generate` waits for the products before answering with the generation as it is. */
const GENERATE_WAIT_MS = 60_000;
export const FEATURED_COUNT = 8;

const today = () => new Date().toISOString().slice(0, 10);

/**
 * Generations and the print-on-demand shop. A prompt becomes an artwork through the image
 * studio's provider (one image credit), then one product per catalogue item through the print
 * provider; paid checkouts become print orders, followed to delivery by webhooks and polling.
 */
/** How long a list's total is reused for its other pages and sorts (it only grows by new artworks). */
const COUNT_TTL_MS = 5_000;

export class ShopService {
  private readonly inFlight = new Set<Promise<unknown>>();
  /** Recent totals of the unsearched gallery and shop (counting 10,000 rows on every page is waste). */
  private readonly counts = new Map<string, { value: number; at: number }>();
  private closed = false;

  constructor(private readonly deps: ShopDeps) {}

  private get db() {
    return this.deps.db;
  }

  get testMode(): boolean {
    return this.deps.print.kind === 'local';
  }

  /** Runs work after the answer, tracked so `idle()` and shutdown wait for it. */
  private background(work: () => Promise<unknown>): void {
    if (this.closed) return;
    const promise = work()
      .catch((error: unknown) => this.deps.log.error({ err: error }, 'shop work failed'))
      .finally(() => this.inFlight.delete(promise));
    this.inFlight.add(promise);
  }

  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.idle();
  }

  /* ----------------------------------------------------------------------------------------- */
  /* Presenting                                                                                 */
  /* ----------------------------------------------------------------------------------------- */

  private srcOf(image: StoredProductImage): string {
    return image.key ? this.deps.storage.publicUrl(image.key) : (image.url ?? '');
  }

  presentProduct(join: repo.ProductJoin): Product {
    const { product, generation } = join;
    const images = product.images.map((image) => ({
      src: this.srcOf(image),
      variantIds: image.variantIds,
      isDefault: image.isDefault,
    }));
    const card = images[cardIndex(product)] ?? images[0];
    return {
      _id: product.id,
      title: product.title,
      kind: product.kind,
      description: product.description,
      prompt: generation.prompt,
      price: product.priceCents,
      images,
      cardImage: card?.src ?? null,
      variants: product.variants.map((v) => ({ id: v.id, title: v.title, price: v.priceCents })),
      generationUrl: generation.url,
      url: product.url,
      printifyBlueprintId: product.blueprintId,
      views: product.views,
      creatorUsername: join.username,
      createdAt: product.createdAt.toISOString(),
      testMode: product.provider === 'local',
    };
  }

  presentGeneration(join: repo.GenerationJoin, list: repo.ProductCard[]): Generation {
    const { generation } = join;
    return {
      _id: generation.id,
      url: generation.url,
      prompt: generation.prompt,
      image: generation.artworkKey ? this.deps.storage.publicUrl(generation.artworkKey) : null,
      productIds: list.map((p) => p.id),
      productImages: list.map((p) => (p.card ? this.srcOf(p.card) : '')),
      createdOnDate: generation.createdAt.toISOString(),
      views: generation.views,
      download_count: generation.downloadCount,
      status: generation.status,
      ...(generation.error ? { error: generation.error } : {}),
      creatorUsername: join.username,
      testMode: generation.provider === 'local',
    };
  }

  private async generationWithProducts(join: repo.GenerationJoin): Promise<Generation> {
    const list = await repo.productCardsOf(this.db, [join.generation.id]);
    return this.presentGeneration(join, list);
  }

  /* ----------------------------------------------------------------------------------------- */
  /* Generations                                                                                */
  /* ----------------------------------------------------------------------------------------- */

  private async uniqueUrl(base: string): Promise<string> {
    const stem = slugify(base.split(/\s+/).slice(0, 8).join(' ')).slice(0, 60) || 'artwork';
    for (let attempt = 0; attempt < 5; attempt++) {
      const url = `${stem}-${randomBytes(3).toString('hex')}`;
      if (!(await repo.urlTaken(this.db, url))) return url;
    }
    return `${stem}-${randomBytes(8).toString('hex')}`;
  }

  /**
   * `/startgeneration`: the artwork is drawn by the image studio (one image credit, its
   * moderation and its runs), then the products are made in the background.
   */
  async startGeneration(
    user: UserRow,
    prompt: string,
  ): Promise<{ generationId: string; url: string }> {
    const prediction = await this.deps.images.generate(user, {
      modelId: ARTWORK_MODEL,
      prompt,
      negativePrompt: '',
      numImages: 1,
      aspectRatio: '1:1',
    });
    const row = await repo.insertGeneration(this.db, {
      userId: user.id,
      url: await this.uniqueUrl(prompt),
      prompt,
      predictionId: prediction._id,
      provider: this.deps.print.kind,
      status: 'generating',
    });
    this.background(() => this.advance(row.id));
    return { generationId: row.id, url: row.url };
  }

  /** `/checkgeneration`: where one of the user's generations stands (polled every 2 s). */
  async checkGeneration(user: UserRow, id: string): Promise<CheckShopGenerationAnswer> {
    let row = await repo.findOwnGeneration(this.db, user.id, id);
    if (!row) throw notFound('Generation not found.');
    if (row.status === 'generating' || row.status === 'making_products') {
      this.background(() => this.advance(row!.id));
      // A quick step (the artwork failed, say) shows in this answer already.
      await new Promise((resolve) => setTimeout(resolve, 50));
      row = (await repo.findOwnGeneration(this.db, user.id, id)) ?? row;
    }
    return {
      finished: row.status === 'ready' || row.status === 'failed',
      status: row.status,
      url: row.url,
      ...(row.error ? { error: row.error } : {}),
    };
  }

  /** `/generate`: start and wait (up to a minute) for the products; the generation as it is then. */
  async generate(user: UserRow, prompt: string): Promise<Generation> {
    const { generationId } = await this.startGeneration(user, prompt);
    const until = Date.now() + GENERATE_WAIT_MS;
    for (;;) {
      await this.advance(generationId);
      const row = await repo.findOwnGeneration(this.db, user.id, generationId);
      if (!row || row.status === 'ready' || row.status === 'failed' || Date.now() > until) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const join = await repo.findGenerationByUrl(
      this.db,
      (await repo.findGeneration(this.db, generationId))!.url,
    );
    return this.generationWithProducts(join!);
  }

  /**
   * Moves a generation on: waits for its artwork, then (one worker, under a lease) makes the
   * products and makes it ready. Safe to call any number of times, from anywhere.
   */
  async advance(id: string): Promise<void> {
    const row = await repo.findGeneration(this.db, id);
    if (!row || row.status === 'ready' || row.status === 'failed') return;
    let imageId = row.imageId;
    if (row.predictionId && !row.upscaleId) {
      const state = await this.deps.images.predictionForShop(row.userId, row.predictionId);
      if (!state) {
        await repo.failGeneration(this.db, id, 'The artwork was deleted before it was finished.');
        return;
      }
      if (state.status === 'queued' || state.status === 'running') return;
      if (state.status !== 'succeeded' || !state.imageId) {
        await repo.failGeneration(
          this.db,
          id,
          state.error ?? 'The artwork could not be made. Your credit has been given back.',
        );
        return;
      }
      imageId = state.imageId;
    }
    const claimed = await repo.claimGeneration(this.db, id, PRODUCTS_LEASE_MS);
    if (!claimed) return;
    await this.makeProducts(claimed, imageId);
  }

  private async artworkOf(row: GenerationRow, imageId: string | null): Promise<Buffer | null> {
    if (row.upscaleId) {
      const upscale = await this.deps.images.upscaleForShop(row.userId, row.upscaleId);
      return upscale?.bytes ?? null;
    }
    if (!imageId) return null;
    return (await this.deps.images.imageBytesForShop(row.userId, imageId))?.bytes ?? null;
  }

  private async makeProducts(row: GenerationRow, imageId: string | null): Promise<void> {
    const stored: string[] = [];
    try {
      const artwork = await this.artworkOf(row, imageId);
      if (!artwork) throw new PrintProviderError('The artwork is gone.');
      const artworkKey = `shop/${row.id}/artwork-${randomBytes(6).toString('hex')}.png`;
      await this.deps.storage.put(artworkKey, artwork, { contentType: 'image/png' });
      stored.push(artworkKey);
      const upload = await this.deps.print.uploadArtwork({
        png: artwork,
        fileName: `${row.url}.png`,
      });
      const rows: NewProductRow[] = [];
      for (const item of SHOP_CATALOG) {
        const made = await this.deps.print.createProduct({
          artworkId: upload.id,
          artwork,
          item,
          title: `${titleOf(row.prompt)} ${item.title}`,
          description: `${item.description} Artwork: “${row.prompt}”.`,
        });
        const images: StoredProductImage[] = [];
        for (const [index, mockup] of made.images.entries()) {
          if ('data' in mockup.image) {
            const key = `shop/${row.id}/${item.kind}-${index}-${randomBytes(4).toString('hex')}.jpg`;
            await this.deps.storage.put(key, mockup.image.data, {
              contentType: mockup.image.contentType,
            });
            stored.push(key);
            images.push({
              key,
              url: null,
              variantIds: mockup.variantIds,
              isDefault: mockup.isDefault,
            });
          } else {
            images.push({
              key: null,
              url: mockup.image.url,
              variantIds: mockup.variantIds,
              isDefault: mockup.isDefault,
            });
          }
        }
        rows.push({
          generationId: row.id,
          kind: item.kind,
          title: item.title,
          url: slugify(item.title),
          description: item.description,
          blueprintId: item.blueprintId,
          printProviderId: item.printProviderId,
          priceCents: Math.min(...made.variants.map((v) => v.priceCents)),
          variants: made.variants,
          images,
          provider: this.deps.print.kind,
          providerProductId: made.id,
        });
      }
      const applied = await repo.finishGeneration(this.db, row.id, artworkKey, imageId, rows);
      this.counts.clear();
      if (!applied) await this.forget(stored);
    } catch (error) {
      this.deps.log.error({ err: error, generationId: row.id }, 'could not make products');
      await this.forget(stored);
      const reason =
        error instanceof PrintProviderError ? error.message : 'The products could not be made.';
      await repo.failGeneration(
        this.db,
        row.id,
        `${reason} Your artwork is kept in the image studio.`,
      );
    }
  }

  private async forget(keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => this.deps.storage.delete(key).catch(() => undefined)));
  }

  /** `/deletegeneration`: the owner's generation and its products (another's is a 404). */
  async deleteGeneration(user: UserRow, id: string): Promise<void> {
    const row = await repo.findOwnGeneration(this.db, user.id, id);
    if (!row) throw notFound('Generation not found.');
    if (row.status === 'generating' || row.status === 'making_products') {
      throw conflict('This artwork is still being made. You can delete it once it has finished.');
    }
    const deleted = await repo.deleteGeneration(this.db, user.id, id);
    this.counts.clear();
    if (!deleted) throw notFound('Generation not found.');
    // Pictures of products someone ordered stay: the Orders tab still shows them.
    const ordered = new Set(deleted.orderedProductIds);
    const keys = [
      ...(deleted.generation.artworkKey ? [deleted.generation.artworkKey] : []),
      ...deleted.products
        .filter((p) => !ordered.has(p.id))
        .flatMap((p) => p.images.map((i) => i.key).filter((k): k is string => Boolean(k))),
    ];
    await this.forget(keys);
  }

  /** A visitor id for counting views once a day: the user, else a keyed hash of address and browser. */
  visitorOf(user: UserRow | null, ip: string, userAgent: string | undefined): string {
    if (user) return `u:${user.id}`;
    return `a:${createHash('sha256')
      .update(`${this.deps.visitorSecret}|${ip}|${userAgent ?? ''}`)
      .digest('hex')
      .slice(0, 32)}`;
  }

  /** `/getgeneration?url`: a generation with its products' ids and pictures; counts a view. */
  async getGeneration(
    url: string,
    visitor: string | null,
    viewer: UserRow | null,
  ): Promise<Generation> {
    const join = await repo.findGenerationByUrl(this.db, url);
    // Unfinished and failed generations are their owner's only.
    if (!join || (join.generation.status !== 'ready' && join.generation.userId !== viewer?.id)) {
      throw notFound('There is no artwork at this address.');
    }
    if (visitor && join.generation.status === 'ready') {
      if (await repo.countView(this.db, 'generation', join.generation.id, visitor, today())) {
        join.generation.views += 1;
      }
    }
    return this.generationWithProducts(join);
  }

  private knownCount(key: string | null): number | undefined {
    const entry = key ? this.counts.get(key) : undefined;
    return entry && Date.now() - entry.at < COUNT_TTL_MS ? entry.value : undefined;
  }

  private rememberCount(key: string | null, value: number): void {
    if (key && this.knownCount(key) === undefined) this.counts.set(key, { value, at: Date.now() });
  }

  /** `/getgenerations?sort[&searchTerm]`: the public gallery. */
  async listGenerations(query: {
    sort: ShopSort;
    searchTerm?: string | undefined;
    page: number;
    limit: number;
  }): Promise<{ data: Generation[]; count: number }> {
    const key = query.searchTerm ? null : 'generations';
    const { rows, count } = await repo.listGenerations(this.db, {
      ...query,
      seed: randomInt(0, 2_147_483_647),
      knownCount: this.knownCount(key),
    });
    this.rememberCount(key, count);
    const list = await repo.productCardsOf(
      this.db,
      rows.map((r) => r.generation.id),
    );
    const byGeneration = new Map<string, repo.ProductCard[]>();
    for (const p of list) {
      const entry = byGeneration.get(p.generationId) ?? [];
      entry.push(p);
      byGeneration.set(p.generationId, entry);
    }
    return {
      data: rows.map((r) => this.presentGeneration(r, byGeneration.get(r.generation.id) ?? [])),
      count,
    };
  }

  /* ----------------------------------------------------------------------------------------- */
  /* Products                                                                                   */
  /* ----------------------------------------------------------------------------------------- */

  async listProducts(query: { sort: ShopSort; page: number; limit: number }) {
    const { rows, count } = await repo.listProducts(this.db, {
      ...query,
      seed: randomInt(0, 2_147_483_647),
      knownCount: this.knownCount('products'),
    });
    this.rememberCount('products', count);
    return { data: rows.map((r) => this.presentProduct(r)), count };
  }

  /** `/getproductsforgeneration?id`: by the generation's id or its url. */
  async productsForGeneration(idOrUrl: string, viewer: UserRow | null) {
    const generation = repo.isUuid(idOrUrl)
      ? await repo.findGeneration(this.db, idOrUrl)
      : (await repo.findGenerationByUrl(this.db, idOrUrl))?.generation;
    if (!generation || (generation.status !== 'ready' && generation.userId !== viewer?.id)) {
      throw notFound('There is no artwork with this id.');
    }
    const rows = await repo.listProductsOfGeneration(this.db, generation.id);
    const data = rows.map((r) => this.presentProduct(r));
    return { data, count: data.length };
  }

  async featuredProducts() {
    const data = (await repo.featuredProducts(this.db, FEATURED_COUNT)).map((r) =>
      this.presentProduct(r),
    );
    return { data, count: data.length };
  }

  private async productPage(join: repo.ProductJoin | undefined, visitor: string | null) {
    if (!join) throw notFound('There is no such product.');
    if (visitor && (await repo.countView(this.db, 'product', join.product.id, visitor, today()))) {
      join.product.views += 1;
    }
    const generation = await this.generationWithProducts({
      generation: join.generation,
      username: join.username,
    });
    return { ...this.presentProduct(join), generation } satisfies ProductWithGeneration;
  }

  /** `/getproductbygenerationurlandtitle?url&title`: a product page's data; counts a view. */
  async productByGenerationUrlAndTitle(url: string, title: string, visitor: string | null) {
    return this.productPage(await repo.findProductByUrlAndTitle(this.db, url, title), visitor);
  }

  /** `/models/getproductbypredictionurlandtitle?url&title&username`: a product of a teacher's image. */
  async productByPredictionUrlAndTitle(
    username: string,
    url: string,
    title: string,
    visitor: string | null,
  ) {
    const generation = await repo.findGenerationOfImage(this.db, username, url);
    if (!generation) throw notFound('There is no such product.');
    return this.productPage(
      await repo.findProductByUrlAndTitle(this.db, generation.url, title),
      visitor,
    );
  }

  /**
   * `/models/useupscaleforproductimages`: a finished upscale of the teacher's own image becomes
   * the artwork of products (no credit: the image was paid for). Asking again for the same
   * upscale answers the generation already made.
   */
  async useUpscale(user: UserRow, upscaleId: string): Promise<Generation> {
    const upscale = await this.deps.images.upscaleForShop(user.id, upscaleId);
    if (!upscale) throw notFound('Upscale not found.');
    if (upscale.status !== 'succeeded' || !upscale.bytes) {
      throw conflict('This image is still being enlarged (or it failed). Use a finished upscale.');
    }
    let row = await repo.findGenerationOfUpscale(this.db, upscaleId);
    if (!row) {
      const url = (await repo.urlTaken(this.db, upscale.imageUrl))
        ? await this.uniqueUrl(upscale.prompt || upscale.imageUrl)
        : upscale.imageUrl;
      row = await repo.insertGeneration(this.db, {
        userId: user.id,
        url,
        prompt: upscale.prompt,
        imageId: upscale.imageId,
        upscaleId,
        provider: this.deps.print.kind,
        status: 'generating',
      });
    }
    await this.advance(row.id);
    const join = await repo.findGenerationByUrl(this.db, row.url);
    return this.generationWithProducts(join!);
  }

  /* ----------------------------------------------------------------------------------------- */
  /* Checkout and print orders                                                                  */
  /* ----------------------------------------------------------------------------------------- */

  /**
   * `/payment/create-dream-booth-product-checkout-session`: a hosted checkout for one variant
   * of a product × quantity at the server's price, with free shipping to an address the
   * checkout collects. When the artwork's creator is an authorised seller, a share of the sale
   * goes to them.
   */
  async createCheckout(user: UserRow, body: ProductCheckoutBody): Promise<CheckoutAnswer> {
    const join = await repo.findProduct(this.db, body.productId);
    if (!join) throw notFound('There is no such product.');
    const variant = join.product.variants.find((v) => v.id === body.variantId);
    if (!variant) {
      throw badRequest('Invalid field "variantId": this product has no such variant.');
    }
    const amountCents = variant.priceCents * body.quantity;
    const creatorId = join.generation.userId;
    const seller =
      creatorId !== user.id ? await this.deps.billing.enabledSellerAccount(creatorId) : null;
    const sellerShareCents = seller
      ? Math.floor((amountCents * this.deps.sellerSharePercent) / 100)
      : 0;
    const path = productPath(join.generation.url, join.product.url);
    const card = join.product.images[cardIndex(join.product)] ?? join.product.images[0];
    const title = `${join.product.title}: ${titleOf(join.generation.prompt)}`;
    return this.deps.billing.createShopCheckout(user, {
      amountCents,
      unitAmountCents: variant.priceCents,
      quantity: body.quantity,
      name: `${title} (${variant.title})`,
      description: `${body.quantity} × ${title}, ${variant.title}`,
      referral: body.referral,
      returnPath: path,
      transfer:
        seller && sellerShareCents > 0
          ? { destination: seller.accountId, amountCents: sellerShareCents }
          : null,
      record: async (db, orderId) => {
        await repo.insertShopOrder(db, {
          orderId,
          userId: user.id,
          productId: join.product.id,
          generationId: join.generation.id,
          sellerUserId: seller ? creatorId : null,
          sellerShareCents,
          title,
          variantId: variant.id,
          variantTitle: variant.title,
          quantity: body.quantity,
          unitPriceCents: variant.priceCents,
          image: card ? this.srcOf(card) : null,
          productPath: path,
          provider: join.product.provider,
          providerProductId: join.product.providerProductId,
        });
      },
    });
  }

  /** Inside the paid event's transaction: the print order gets its address and is paid, once. */
  async onPaid(tx: Db, order: OrderRow, address: ShippingAddress | null): Promise<void> {
    const row = await repo.markShopOrderPaid(tx, order.id, address);
    if (row && !address) {
      this.deps.log.error({ orderId: order.id }, 'shop: a paid print order has no address');
    }
  }

  /** After the paid event commits: the order goes to the printer (in the background). */
  afterPaid(orderId: string): void {
    this.background(async () => {
      const row = await repo.findShopOrderByOrder(this.db, orderId);
      if (row) await this.submit(row.id);
    });
  }

  /**
   * Sends a paid order to the printer, once: a lease keeps a second worker out, and our order
   * id is the provider order's external id. An order canceled meanwhile is canceled there too.
   */
  async submit(id: string): Promise<void> {
    const row = await repo.claimShopOrderSubmit(this.db, id, SUBMIT_LEASE_MS);
    if (!row || !row.shippingAddress) return;
    try {
      const buyer = await this.deps.billing.buyerEmail(row.userId);
      const made = await this.deps.print.createOrder({
        externalId: row.id,
        label: `Chapterwise ${row.id.slice(0, 8)}`,
        lineItems: [
          {
            providerProductId: row.providerProductId,
            variantId: row.variantId,
            quantity: row.quantity,
          },
        ],
        address: row.shippingAddress,
        email: buyer ?? '',
      });
      if (!(await repo.setShopOrderSubmitted(this.db, row.id, made.id))) {
        // Refunded while it was being sent: take it back at the printer.
        await this.deps.print.cancelOrder(made.id).catch(() => false);
      }
    } catch (error) {
      const transient = !(error instanceof PrintProviderError) || error.transient;
      const giveUp = !transient || row.attempts >= MAX_SUBMIT_ATTEMPTS;
      this.deps.log.error({ err: error, shopOrderId: row.id, giveUp }, 'shop: order not sent');
      await repo.releaseShopOrder(
        this.db,
        row.id,
        error instanceof Error ? error.message : 'The printer could not take the order.',
        giveUp,
      );
    }
  }

  /** Inside the refund event's transaction: nothing to print any more (if not started). */
  async onRefunded(tx: Db, order: OrderRow): Promise<ShopOrderRow | undefined> {
    const row = await repo.findShopOrderByOrder(tx, order.id);
    if (!row) return undefined;
    if (row.status === 'awaiting_payment' || row.status === 'paid' || row.status === 'failed') {
      return repo.markShopOrderCanceled(tx, order.id);
    }
    return row;
  }

  /** After a refund commits: cancel the provider's order when it is not in production yet. */
  afterRefunded(row: ShopOrderRow): void {
    if (!row.providerOrderId || row.status !== 'created') return;
    const providerOrderId = row.providerOrderId;
    this.background(async () => {
      const canceled = await this.deps.print.cancelOrder(providerOrderId);
      if (canceled) {
        await repo.applyShopOrderState(this.db, row.id, { status: 'canceled' });
      } else {
        this.deps.log.warn({ shopOrderId: row.id }, 'shop: refunded order already in production');
      }
    });
  }

  /** The print orders behind some billing orders, as the Orders tab shows them. */
  async describeOrders(orderIds: string[]): Promise<Map<string, ShopOrderInfo>> {
    const rows = await repo.shopOrdersOf(this.db, orderIds);
    return new Map(rows.map((row) => [row.orderId, this.presentShopOrder(row)]));
  }

  private presentShopOrder(row: ShopOrderRow): ShopOrderInfo {
    const a = row.shippingAddress;
    return {
      title: row.title,
      variantTitle: row.variantTitle,
      quantity: row.quantity,
      image: row.image,
      productPath: row.productPath,
      status: row.status,
      statusLabel: SHOP_ORDER_STATUS_LABELS[row.status],
      trackingNumber: row.trackingNumber,
      trackingUrl: row.trackingUrl,
      carrier: row.carrier,
      shipTo: a ? [a.name, a.city, a.country].filter(Boolean).join(', ') : null,
      testMode: row.provider === 'local',
    };
  }

  /** Reads again the user's open orders whose status is older than `orderPollMs`. */
  async refreshOrdersOf(userId: string): Promise<void> {
    const rows = await repo.openShopOrdersOfUser(this.db, userId);
    await Promise.all(rows.map((row) => this.refresh(row)));
  }

  private async refresh(row: ShopOrderRow, force = false): Promise<void> {
    if (row.status === 'paid') {
      if (!row.leaseUntil || row.leaseUntil < new Date()) await this.submit(row.id);
      return;
    }
    if (!row.providerOrderId) return;
    const age = Date.now() - (row.lastPolledAt ?? row.updatedAt).getTime();
    if (!force && age < this.deps.orderPollMs) return;
    try {
      const state = await this.deps.print.getOrder(row.providerOrderId);
      await this.applyState(row.id, state);
    } catch (error) {
      this.deps.log.warn({ err: error, shopOrderId: row.id }, 'shop: could not read an order');
    }
  }

  private applyState(id: string, state: ProviderOrderState) {
    return repo.applyShopOrderState(this.db, id, state);
  }

  /** The clock: unfinished generations, unsent and open orders (polling behind webhooks). */
  async sweep(): Promise<void> {
    for (const row of await repo.listUnfinishedGenerations(this.db)) await this.advance(row.id);
    for (const row of await repo.listOpenShopOrders(this.db)) await this.refresh(row);
  }

  /** A verified print provider webhook: the order's new state, applied once per delivery. */
  async receiveWebhook(
    headers: Record<string, string | string[] | undefined>,
    rawBody: Buffer,
  ): Promise<'applied' | 'duplicate' | 'ignored'> {
    let delivery;
    try {
      delivery = this.deps.print.verifyWebhook(headers, rawBody);
    } catch (error) {
      if (error instanceof PrintWebhookError) throw badRequest(error.message);
      throw error;
    }
    if (!delivery.orderId) return 'ignored';
    const row = await repo.findShopOrderByProviderId(
      this.db,
      this.deps.print.kind,
      delivery.orderId,
    );
    if (!row) return 'ignored';
    if (!(await repo.recordWebhookEvent(this.db, delivery.eventId))) return 'duplicate';
    try {
      if (delivery.state) await this.applyState(row.id, delivery.state);
      else await this.refresh(row, true);
    } catch (error) {
      // Forget it, so the provider's retry can apply it.
      await repo.forgetWebhookEvent(this.db, delivery.eventId);
      throw error;
    }
    return 'applied';
  }

  /** What a seller's artworks earned in paid print orders (cents). */
  sellerEarnings(userId: string): Promise<number> {
    return repo.sellerEarnings(this.db, userId);
  }
}

function cardIndex(product: ProductRow): number {
  return cardImageIndex(product.blueprintId);
}

/** A short title from a prompt: its first words, capitalised. */
export function titleOf(prompt: string): string {
  const words = prompt.replace(/\s+/g, ' ').trim().split(' ').slice(0, 6).join(' ');
  const short = words.length > 48 ? `${words.slice(0, 47)}…` : words;
  return short.charAt(0).toUpperCase() + short.slice(1);
}
