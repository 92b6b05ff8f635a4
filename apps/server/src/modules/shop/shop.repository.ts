import {
  and,
  asc,
  desc,
  eq,
  inArray,
  isNull,
  lt,
  or,
  sql,
  type AnyColumn,
  type SQL,
} from 'drizzle-orm';
import type { ShippingAddress, ShopOrderStatus, ShopSort } from '@chapterwise/shared';
import type { Db } from '../../db/client.js';
import {
  generatedImages,
  generations,
  printWebhookEvents,
  products,
  shopOrders,
  shopViews,
  users,
  type GenerationRow,
  type NewProductRow,
  type ProductRow,
  type ShopOrderRow,
  type StoredProductImage,
} from '../../db/schema/index.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (id: string) => UUID.test(id);

export interface GenerationJoin {
  generation: GenerationRow;
  username: string;
}
export interface ProductJoin {
  product: ProductRow;
  generation: GenerationRow;
  username: string;
}

/* ----------------------------------------------------------------------------------------- */
/* Generations                                                                                 */
/* ----------------------------------------------------------------------------------------- */

export async function insertGeneration(
  db: Db,
  values: typeof generations.$inferInsert,
): Promise<GenerationRow> {
  const [row] = await db.insert(generations).values(values).returning();
  return row!;
}

export async function urlTaken(db: Db, url: string): Promise<boolean> {
  const [row] = await db
    .select({ id: generations.id })
    .from(generations)
    .where(eq(generations.url, url))
    .limit(1);
  return Boolean(row);
}

export async function findGeneration(db: Db, id: string): Promise<GenerationRow | undefined> {
  const [row] = await db.select().from(generations).where(eq(generations.id, id)).limit(1);
  return row;
}

export async function findOwnGeneration(
  db: Db,
  userId: string,
  id: string,
): Promise<GenerationRow | undefined> {
  const [row] = await db
    .select()
    .from(generations)
    .where(and(eq(generations.id, id), eq(generations.userId, userId)))
    .limit(1);
  return row;
}

/** A generation with its creator's username, by its public url. */
export async function findGenerationByUrl(
  db: Db,
  url: string,
): Promise<GenerationJoin | undefined> {
  const [row] = await db
    .select({ generation: generations, username: users.username })
    .from(generations)
    .innerJoin(users, eq(users.id, generations.userId))
    .where(eq(generations.url, url))
    .limit(1);
  return row;
}

/** Generations still being made (the sweep finishes those whose client went away). */
export async function listUnfinishedGenerations(db: Db, limit = 20): Promise<GenerationRow[]> {
  return db
    .select()
    .from(generations)
    .where(
      or(
        eq(generations.status, 'generating'),
        and(eq(generations.status, 'making_products'), lt(generations.leaseUntil, new Date())),
      ),
    )
    .orderBy(asc(generations.createdAt))
    .limit(limit);
}

/**
 * Takes the work of making a generation's products: generating → making_products, or a
 * making_products whose worker's lease ran out. Null when someone else holds it.
 */
export async function claimGeneration(
  db: Db,
  id: string,
  leaseMs: number,
): Promise<GenerationRow | undefined> {
  const [row] = await db
    .update(generations)
    .set({
      status: 'making_products',
      leaseUntil: new Date(Date.now() + leaseMs),
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(generations.id, id),
        or(
          eq(generations.status, 'generating'),
          and(
            eq(generations.status, 'making_products'),
            or(isNull(generations.leaseUntil), lt(generations.leaseUntil, new Date())),
          ),
        ),
      ),
    )
    .returning();
  return row;
}

/** Stores the products and makes the generation ready, once (only from making_products). */
export async function finishGeneration(
  db: Db,
  id: string,
  artworkKey: string,
  imageId: string | null,
  rows: NewProductRow[],
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [done] = await tx
      .update(generations)
      .set({
        status: 'ready',
        artworkKey,
        imageId,
        leaseUntil: null,
        error: null,
        updatedAt: new Date(),
      })
      .where(and(eq(generations.id, id), eq(generations.status, 'making_products')))
      .returning({ id: generations.id });
    if (!done) return false;
    if (rows.length) await tx.insert(products).values(rows);
    return true;
  });
}

export async function failGeneration(db: Db, id: string, error: string): Promise<boolean> {
  const [row] = await db
    .update(generations)
    .set({ status: 'failed', error, leaseUntil: null, updatedAt: new Date() })
    .where(
      and(eq(generations.id, id), inArray(generations.status, ['generating', 'making_products'])),
    )
    .returning({ id: generations.id });
  return Boolean(row);
}

/** Deletes one of the user's generations (its products go with it); returns what was stored. */
export async function deleteGeneration(
  db: Db,
  userId: string,
  id: string,
): Promise<
  { generation: GenerationRow; products: ProductRow[]; orderedProductIds: string[] } | undefined
> {
  return db.transaction(async (tx) => {
    const list = await tx.select().from(products).where(eq(products.generationId, id));
    const ordered = await tx
      .selectDistinct({ productId: shopOrders.productId })
      .from(shopOrders)
      .where(eq(shopOrders.generationId, id));
    const [row] = await tx
      .delete(generations)
      .where(and(eq(generations.id, id), eq(generations.userId, userId)))
      .returning();
    return row
      ? {
          generation: row,
          products: list,
          orderedProductIds: ordered.map((o) => o.productId).filter((p): p is string => !!p),
        }
      : undefined;
  });
}

type Col = AnyColumn | SQL;

function orderOf(
  sort: ShopSort,
  columns: { id: Col; createdAt: Col; views: Col; downloads: Col },
  seed: string,
): SQL[] {
  switch (sort) {
    case 'random':
      return [sql`md5(${columns.id}::text || ${seed})`];
    case 'views':
      return [sql`${columns.views} desc`, sql`${columns.createdAt} desc`, sql`${columns.id}`];
    case 'download_count':
      return [sql`${columns.downloads} desc`, sql`${columns.createdAt} desc`, sql`${columns.id}`];
    case 'createdAt':
      return [sql`${columns.createdAt} desc`, sql`${columns.id}`];
  }
}

const escapeLike = (term: string) => term.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The public gallery: ready generations, sorted and searched (words of the prompt). */
export async function listGenerations(
  db: Db,
  query: {
    sort: ShopSort;
    searchTerm?: string | undefined;
    page: number;
    limit: number;
    seed: number;
    /** The total when the caller knows it (a recent count of the same list): not counted again. */
    knownCount?: number | undefined;
  },
): Promise<{ rows: GenerationJoin[]; count: number }> {
  const filters: SQL[] = [eq(generations.status, 'ready')];
  const words = (query.searchTerm ?? '').toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8);
  for (const word of words) {
    filters.push(sql`${generations.prompt} ilike ${`%${escapeLike(word)}%`}`);
  }
  const where = and(...filters);
  const select = () =>
    db
      .select({ generation: generations, username: users.username })
      .from(generations)
      .innerJoin(users, eq(users.id, generations.userId));
  const offset = (query.page - 1) * query.limit;
  const countRows = db
    .select({ count: sql<number>`count(*)::int` })
    .from(generations)
    .where(where);
  if (query.sort === 'random') {
    // From a random point of the shuffled order, wrapping around: read through an index
    // instead of sorting every row by a random key.
    const [after, [total]] = await Promise.all([
      select()
        .where(and(where, sql`${generations.shuffle} >= ${query.seed}`))
        .orderBy(asc(generations.shuffle))
        .limit(query.limit)
        .offset(offset),
      countRows,
    ]);
    let rows = after;
    if (rows.length < query.limit) {
      const [{ count: afterCount } = { count: 0 }] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(generations)
        .where(and(where, sql`${generations.shuffle} >= ${query.seed}`));
      const wrapOffset = Math.max(0, offset - afterCount);
      const before = await select()
        .where(and(where, sql`${generations.shuffle} < ${query.seed}`))
        .orderBy(asc(generations.shuffle))
        .limit(query.limit - rows.length)
        .offset(wrapOffset);
      rows = [...rows, ...before];
    }
    return { rows, count: total?.count ?? 0 };
  }
  const [rows, [total]] = await Promise.all([
    select()
      .where(where)
      .orderBy(
        ...orderOf(
          query.sort,
          {
            id: generations.id,
            createdAt: generations.createdAt,
            views: generations.views,
            downloads: generations.downloadCount,
          },
          String(query.seed),
        ),
      )
      .limit(query.limit)
      .offset(offset),
    countRows,
  ]);
  return { rows, count: total?.count ?? 0 };
}

/** A product as a generation lists it: its id and its card picture (spec §9's index rule). */
export interface ProductCard {
  id: string;
  generationId: string;
  card: StoredProductImage | null;
}

/**
 * The products of some generations, in catalogue order, with only their card picture: the
 * index rule is applied in SQL so the 30 mockups of each product are not read for a list.
 */
export async function productCardsOf(db: Db, ids: string[]): Promise<ProductCard[]> {
  if (!ids.length) return [];
  return db
    .select({
      id: products.id,
      generationId: products.generationId,
      card: sql<StoredProductImage | null>`coalesce(${products.images} -> (case ${products.blueprintId} when 421 then 20 when 50 then 29 else 0 end), ${products.images} -> 0)`,
    })
    .from(products)
    .where(inArray(products.generationId, ids))
    .orderBy(asc(products.generationId), asc(products.createdAt), asc(products.kind));
}

const productSold = sql<number>`(select coalesce(sum(${shopOrders.quantity}), 0)::int from ${shopOrders} where ${shopOrders.productId} = ${products.id} and ${shopOrders.status} not in ('awaiting_payment', 'canceled'))`;

/** The shop: products of ready generations, sorted. */
export async function listProducts(
  db: Db,
  query: {
    sort: ShopSort;
    page: number;
    limit: number;
    seed: number;
    knownCount?: number | undefined;
  },
): Promise<{ rows: ProductJoin[]; count: number }> {
  const where = eq(generations.status, 'ready');
  const select = () =>
    db
      .select({ product: products, generation: generations, username: users.username })
      .from(products)
      .innerJoin(generations, eq(generations.id, products.generationId))
      .innerJoin(users, eq(users.id, generations.userId));
  const offset = (query.page - 1) * query.limit;
  const countRows: Promise<Array<{ count: number }>> =
    query.knownCount !== undefined
      ? Promise.resolve([{ count: query.knownCount }])
      : db
          .select({ count: sql<number>`count(*)::int` })
          .from(products)
          .innerJoin(generations, eq(generations.id, products.generationId))
          .where(where);
  if (query.sort === 'random') {
    // From a random point of the shuffled order, wrapping around (see listGenerations).
    const [after, [total]] = await Promise.all([
      select()
        .where(and(where, sql`${products.shuffle} >= ${query.seed}`))
        .orderBy(asc(products.shuffle))
        .limit(query.limit)
        .offset(offset),
      countRows,
    ]);
    let rows = after;
    if (rows.length < query.limit) {
      const before = await select()
        .where(and(where, sql`${products.shuffle} < ${query.seed}`))
        .orderBy(asc(products.shuffle))
        .limit(query.limit - rows.length);
      rows = [...rows, ...before];
    }
    return { rows, count: total?.count ?? 0 };
  }
  const [rows, [total]] = await Promise.all([
    select()
      .where(where)
      .orderBy(
        ...orderOf(
          query.sort,
          {
            id: products.id,
            createdAt: products.createdAt,
            views: products.views,
            downloads: productSold,
          },
          String(query.seed),
        ),
      )
      .limit(query.limit)
      .offset(offset),
    countRows,
  ]);
  return { rows, count: total?.count ?? 0 };
}

export async function listProductsOfGeneration(
  db: Db,
  generationId: string,
): Promise<ProductJoin[]> {
  return db
    .select({ product: products, generation: generations, username: users.username })
    .from(products)
    .innerJoin(generations, eq(generations.id, products.generationId))
    .innerJoin(users, eq(users.id, generations.userId))
    .where(eq(products.generationId, generationId))
    .orderBy(asc(products.createdAt), asc(products.kind));
}

/** Featured: the most viewed product of each of the most viewed recent generations. */
export async function featuredProducts(db: Db, limit: number): Promise<ProductJoin[]> {
  const rows = await db
    .select({ product: products, generation: generations, username: users.username })
    .from(products)
    .innerJoin(generations, eq(generations.id, products.generationId))
    .innerJoin(users, eq(users.id, generations.userId))
    .where(eq(generations.status, 'ready'))
    .orderBy(desc(products.views), desc(generations.views), desc(products.createdAt))
    .limit(limit * 4);
  const seen = new Set<string>();
  const out: ProductJoin[] = [];
  for (const row of rows) {
    if (seen.has(row.generation.id)) continue;
    seen.add(row.generation.id);
    out.push(row);
    if (out.length === limit) break;
  }
  return out;
}

export async function findProduct(db: Db, id: string): Promise<ProductJoin | undefined> {
  const [row] = await db
    .select({ product: products, generation: generations, username: users.username })
    .from(products)
    .innerJoin(generations, eq(generations.id, products.generationId))
    .innerJoin(users, eq(users.id, generations.userId))
    .where(and(eq(products.id, id), eq(generations.status, 'ready')))
    .limit(1);
  return row;
}

/** A product by its generation's url and its own title (or the title's slug). */
export async function findProductByUrlAndTitle(
  db: Db,
  generationUrl: string,
  title: string,
): Promise<ProductJoin | undefined> {
  const [row] = await db
    .select({ product: products, generation: generations, username: users.username })
    .from(products)
    .innerJoin(generations, eq(generations.id, products.generationId))
    .innerJoin(users, eq(users.id, generations.userId))
    .where(
      and(
        eq(generations.url, generationUrl),
        eq(generations.status, 'ready'),
        or(eq(products.url, title.toLowerCase()), sql`lower(${products.title}) = lower(${title})`),
      ),
    )
    .limit(1);
  return row;
}

/** The generation made from a user's image (by the image's url), if any. */
export async function findGenerationOfImage(
  db: Db,
  username: string,
  imageUrl: string,
): Promise<GenerationRow | undefined> {
  const [row] = await db
    .select({ generation: generations })
    .from(generations)
    .innerJoin(generatedImages, eq(generatedImages.id, generations.imageId))
    .innerJoin(users, eq(users.id, generations.userId))
    .where(and(eq(users.username, username), eq(generatedImages.url, imageUrl)))
    .orderBy(desc(generations.createdAt))
    .limit(1);
  return row?.generation;
}

export async function findGenerationOfUpscale(
  db: Db,
  upscaleId: string,
): Promise<GenerationRow | undefined> {
  const [row] = await db
    .select()
    .from(generations)
    .where(
      and(
        eq(generations.upscaleId, upscaleId),
        inArray(generations.status, ['generating', 'making_products', 'ready']),
      ),
    )
    .limit(1);
  return row;
}

/* ----------------------------------------------------------------------------------------- */
/* Views: once per visitor per day                                                            */
/* ----------------------------------------------------------------------------------------- */

export async function countView(
  db: Db,
  target: 'generation' | 'product',
  objectId: string,
  visitor: string,
  day: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(shopViews)
      .values({ objectId, visitor, day })
      .onConflictDoNothing()
      .returning({ objectId: shopViews.objectId });
    if (!inserted.length) return false;
    if (target === 'generation') {
      await tx
        .update(generations)
        .set({ views: sql`${generations.views} + 1` })
        .where(eq(generations.id, objectId));
    } else {
      await tx
        .update(products)
        .set({ views: sql`${products.views} + 1` })
        .where(eq(products.id, objectId));
    }
    return true;
  });
}

/* ----------------------------------------------------------------------------------------- */
/* Print orders                                                                               */
/* ----------------------------------------------------------------------------------------- */

export async function insertShopOrder(
  db: Db,
  values: typeof shopOrders.$inferInsert,
): Promise<ShopOrderRow> {
  const [row] = await db.insert(shopOrders).values(values).returning();
  return row!;
}

export async function findShopOrderByOrder(
  db: Db,
  orderId: string,
): Promise<ShopOrderRow | undefined> {
  const [row] = await db.select().from(shopOrders).where(eq(shopOrders.orderId, orderId)).limit(1);
  return row;
}

export async function findShopOrder(db: Db, id: string): Promise<ShopOrderRow | undefined> {
  const [row] = await db.select().from(shopOrders).where(eq(shopOrders.id, id)).limit(1);
  return row;
}

export async function shopOrdersOf(db: Db, orderIds: string[]): Promise<ShopOrderRow[]> {
  if (!orderIds.length) return [];
  return db.select().from(shopOrders).where(inArray(shopOrders.orderId, orderIds));
}

/**
 * awaiting_payment → paid with the address, once (inside the payment event's transaction), and
 * the items count towards the generation's popularity.
 */
export async function markShopOrderPaid(
  tx: Db,
  orderId: string,
  address: ShippingAddress | null,
): Promise<ShopOrderRow | undefined> {
  const [row] = await tx
    .update(shopOrders)
    .set({
      status: address ? 'paid' : 'failed',
      shippingAddress: address,
      error: address ? null : 'The checkout did not collect a shipping address.',
      updatedAt: new Date(),
    })
    .where(and(eq(shopOrders.orderId, orderId), eq(shopOrders.status, 'awaiting_payment')))
    .returning();
  if (row?.generationId) {
    await tx
      .update(generations)
      .set({ downloadCount: sql`${generations.downloadCount} + ${row.quantity}` })
      .where(eq(generations.id, row.generationId));
  }
  return row;
}

/** Takes the work of sending a paid order to the printer (a lease, so one worker does it). */
export async function claimShopOrderSubmit(
  db: Db,
  id: string,
  leaseMs: number,
): Promise<ShopOrderRow | undefined> {
  const [row] = await db
    .update(shopOrders)
    .set({
      leaseUntil: new Date(Date.now() + leaseMs),
      attempts: sql`${shopOrders.attempts} + 1`,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(shopOrders.id, id),
        eq(shopOrders.status, 'paid'),
        or(isNull(shopOrders.leaseUntil), lt(shopOrders.leaseUntil, new Date())),
      ),
    )
    .returning();
  return row;
}

export async function setShopOrderSubmitted(
  db: Db,
  id: string,
  providerOrderId: string,
): Promise<boolean> {
  const [row] = await db
    .update(shopOrders)
    .set({
      status: 'created',
      providerOrderId,
      submittedAt: new Date(),
      lastPolledAt: new Date(),
      leaseUntil: null,
      error: null,
      updatedAt: new Date(),
    })
    .where(and(eq(shopOrders.id, id), eq(shopOrders.status, 'paid')))
    .returning({ id: shopOrders.id });
  return Boolean(row);
}

export async function releaseShopOrder(db: Db, id: string, error: string, fail: boolean) {
  await db
    .update(shopOrders)
    .set({
      leaseUntil: null,
      error,
      ...(fail ? { status: 'failed' as const } : {}),
      updatedAt: new Date(),
    })
    .where(and(eq(shopOrders.id, id), eq(shopOrders.status, 'paid')));
}

const RANK: Record<ShopOrderStatus, number> = {
  awaiting_payment: 0,
  paid: 1,
  created: 2,
  in_production: 3,
  shipped: 4,
  delivered: 5,
  failed: 6,
  canceled: 7,
};

/** Moves an order forward to the provider's state (never back: late events change nothing). */
export async function applyShopOrderState(
  db: Db,
  id: string,
  state: {
    status: ShopOrderStatus;
    trackingNumber?: string | null | undefined;
    trackingUrl?: string | null | undefined;
    carrier?: string | null | undefined;
  },
): Promise<boolean> {
  const lower = (Object.keys(RANK) as ShopOrderStatus[]).filter(
    (s) => RANK[s] < RANK[state.status] && s !== 'awaiting_payment' && s !== 'paid',
  );
  const [row] = await db
    .update(shopOrders)
    .set({
      status: state.status,
      ...(state.trackingNumber ? { trackingNumber: state.trackingNumber } : {}),
      ...(state.trackingUrl ? { trackingUrl: state.trackingUrl } : {}),
      ...(state.carrier ? { carrier: state.carrier } : {}),
      lastPolledAt: new Date(),
      updatedAt: new Date(),
    })
    .where(
      and(eq(shopOrders.id, id), lower.length ? inArray(shopOrders.status, lower) : sql`false`),
    )
    .returning({ id: shopOrders.id });
  if (!row) {
    await db.update(shopOrders).set({ lastPolledAt: new Date() }).where(eq(shopOrders.id, id));
  }
  return Boolean(row);
}

export async function findShopOrderByProviderId(
  db: Db,
  provider: 'local' | 'printify',
  providerOrderId: string,
): Promise<ShopOrderRow | undefined> {
  const [row] = await db
    .select()
    .from(shopOrders)
    .where(and(eq(shopOrders.provider, provider), eq(shopOrders.providerOrderId, providerOrderId)))
    .limit(1);
  return row;
}

/** Refunded: the order will not be fulfilled (canceled at the printer when still possible). */
export async function markShopOrderCanceled(
  tx: Db,
  orderId: string,
): Promise<ShopOrderRow | undefined> {
  const [row] = await tx
    .update(shopOrders)
    .set({ status: 'canceled', leaseUntil: null, updatedAt: new Date() })
    .where(
      and(
        eq(shopOrders.orderId, orderId),
        inArray(shopOrders.status, ['awaiting_payment', 'paid', 'created', 'failed']),
      ),
    )
    .returning();
  return row;
}

/** Orders the printer still works on (or still to be sent), least recently looked at first. */
export async function listOpenShopOrders(db: Db, limit = 50): Promise<ShopOrderRow[]> {
  return db
    .select()
    .from(shopOrders)
    .where(inArray(shopOrders.status, ['paid', 'created', 'in_production', 'shipped']))
    .orderBy(sql`${shopOrders.lastPolledAt} asc nulls first`)
    .limit(limit);
}

export async function openShopOrdersOfUser(db: Db, userId: string): Promise<ShopOrderRow[]> {
  return db
    .select()
    .from(shopOrders)
    .where(
      and(
        eq(shopOrders.userId, userId),
        inArray(shopOrders.status, ['paid', 'created', 'in_production', 'shipped']),
      ),
    );
}

/** What the user's artworks earned as a seller (cents), from paid print orders. */
export async function sellerEarnings(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${shopOrders.sellerShareCents}), 0)::int` })
    .from(shopOrders)
    .where(
      and(
        eq(shopOrders.sellerUserId, userId),
        inArray(shopOrders.status, ['paid', 'created', 'in_production', 'shipped', 'delivered']),
      ),
    );
  return row?.total ?? 0;
}

export async function recordWebhookEvent(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .insert(printWebhookEvents)
    .values({ id })
    .onConflictDoNothing()
    .returning({ id: printWebhookEvents.id });
  return rows.length > 0;
}

export async function forgetWebhookEvent(db: Db, id: string): Promise<void> {
  await db.delete(printWebhookEvents).where(eq(printWebhookEvents.id, id));
}
