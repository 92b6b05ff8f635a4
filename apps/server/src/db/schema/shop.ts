import { sql } from 'drizzle-orm';
import {
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type {
  GenerationStatus,
  ProductKind,
  ShippingAddress,
  ShopOrderStatus,
} from '@chapterwise/shared';
import { orders } from './billing.js';
import { generatedImages, imagePredictions, imageUpscales } from './images.js';
import { users } from './users.js';

/** Which print-on-demand adapter made a product or an order. */
export type PrintProviderKind = 'local' | 'printify';

/**
 * An artwork made from a prompt (or from a teacher's upscaled image) and shown in the public
 * gallery: generating → making_products → ready | failed. `url` is its public slug.
 */
export const generations = pgTable(
  'generations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    prompt: text('prompt').notNull(),
    /** The image studio's run that draws the artwork (prompt generations). */
    predictionId: uuid('prediction_id').references(() => imagePredictions.id, {
      onDelete: 'set null',
    }),
    /** The teacher's image the artwork comes from (its upscale when `upscaleId` is set). */
    imageId: uuid('image_id').references(() => generatedImages.id, { onDelete: 'set null' }),
    upscaleId: uuid('upscale_id').references(() => imageUpscales.id, { onDelete: 'set null' }),
    status: text('status').$type<GenerationStatus>().notNull().default('generating'),
    error: text('error'),
    /** The artwork in our storage (PNG). */
    artworkKey: text('artwork_key'),
    provider: text('provider').$type<PrintProviderKind>().notNull(),
    views: integer('views').notNull().default(0),
    /** Items of its products sold (the gallery's "download_count" sort). */
    downloadCount: integer('download_count').notNull().default(0),
    /** A random place in the gallery's "random" order (read from a random start, indexed). */
    shuffle: integer('shuffle')
      .notNull()
      .default(sql`floor(random() * 2147483647)::int`),
    /** While products are being made: who holds the work, until when. */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('generations_url_key').on(t.url),
    index('generations_user_created_idx').on(t.userId, t.createdAt),
    index('generations_ready_created_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'ready'`),
    index('generations_ready_views_idx')
      .on(t.views)
      .where(sql`${t.status} = 'ready'`),
    index('generations_ready_downloads_idx')
      .on(t.downloadCount)
      .where(sql`${t.status} = 'ready'`),
    index('generations_ready_shuffle_idx')
      .on(t.shuffle)
      .where(sql`${t.status} = 'ready'`),
    // Search matches words anywhere in the prompt (ILIKE '%word%'): trigrams make it indexable.
    index('generations_prompt_trgm_idx')
      .using('gin', sql`${t.prompt} gin_trgm_ops`)
      .where(sql`${t.status} = 'ready'`),
    index('generations_prediction_idx').on(t.predictionId),
    index('generations_upscale_idx').on(t.upscaleId),
  ],
);

export interface StoredProductImage {
  /** Our storage key (local mockups) or the provider's picture URL (Printify mockups). */
  key: string | null;
  url: string | null;
  variantIds: number[];
  isDefault: boolean;
}

export interface StoredVariant {
  id: number;
  title: string;
  priceCents: number;
}

/** One product made from a generation: its mockups, variants and the provider's product. */
export const products = pgTable(
  'products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    generationId: uuid('generation_id')
      .notNull()
      .references(() => generations.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<ProductKind>().notNull(),
    title: text('title').notNull(),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    blueprintId: integer('blueprint_id').notNull(),
    printProviderId: integer('print_provider_id').notNull(),
    /** The lowest variant price, in cents. */
    priceCents: integer('price_cents').notNull(),
    variants: jsonb('variants').$type<StoredVariant[]>().notNull(),
    images: jsonb('images').$type<StoredProductImage[]>().notNull(),
    provider: text('provider').$type<PrintProviderKind>().notNull(),
    providerProductId: text('provider_product_id').notNull(),
    views: integer('views').notNull().default(0),
    /** A random place in the shop's "random" order (read from a random start, indexed). */
    shuffle: integer('shuffle')
      .notNull()
      .default(sql`floor(random() * 2147483647)::int`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('products_generation_url_key').on(t.generationId, t.url),
    index('products_shuffle_idx').on(t.shuffle),
    index('products_created_idx').on(t.createdAt),
    index('products_views_idx').on(t.views),
    check('products_price_check', sql`${t.priceCents} >= 0`),
  ],
);

/** Views counted once per visitor per day (a visitor is a user id, or a hash of address and browser). */
export const shopViews = pgTable(
  'shop_views',
  {
    objectId: uuid('object_id').notNull(),
    visitor: text('visitor').notNull(),
    day: date('day').notNull(),
  },
  (t) => [primaryKey({ columns: [t.objectId, t.visitor, t.day] })],
);

/**
 * A print order: one product variant × quantity, tied to the billing order that pays for it.
 * Made with the checkout (awaiting_payment); the paid event adds the address and moves it to
 * `paid`, then the provider's order is made (`created`) and followed to `delivered`.
 */
export const shopOrders = pgTable(
  'shop_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    generationId: uuid('generation_id').references(() => generations.id, {
      onDelete: 'set null',
    }),
    /** The artwork's creator, paid a share when they are an authorised seller. */
    sellerUserId: uuid('seller_user_id').references(() => users.id, { onDelete: 'set null' }),
    sellerShareCents: integer('seller_share_cents').notNull().default(0),
    title: text('title').notNull(),
    variantId: integer('variant_id').notNull(),
    variantTitle: text('variant_title').notNull(),
    quantity: integer('quantity').notNull(),
    unitPriceCents: integer('unit_price_cents').notNull(),
    image: text('image'),
    productPath: text('product_path'),
    shippingAddress: jsonb('shipping_address').$type<ShippingAddress>(),
    provider: text('provider').$type<PrintProviderKind>().notNull(),
    providerProductId: text('provider_product_id').notNull(),
    providerOrderId: text('provider_order_id'),
    status: text('status').$type<ShopOrderStatus>().notNull().default('awaiting_payment'),
    trackingNumber: text('tracking_number'),
    trackingUrl: text('tracking_url'),
    carrier: text('carrier'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastPolledAt: timestamp('last_polled_at', { withTimezone: true }),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('shop_orders_order_key').on(t.orderId),
    uniqueIndex('shop_orders_provider_order_key').on(t.provider, t.providerOrderId),
    index('shop_orders_open_idx')
      .on(t.status, t.updatedAt)
      .where(sql`${t.status} in ('paid', 'created', 'in_production', 'shipped')`),
    index('shop_orders_seller_idx').on(t.sellerUserId),
    check('shop_orders_quantity_check', sql`${t.quantity} between 1 and 10`),
  ],
);

/** Print provider webhook deliveries already applied: a replay finds its id and does nothing. */
export const printWebhookEvents = pgTable('print_webhook_events', {
  id: text('id').primaryKey(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

export type GenerationRow = typeof generations.$inferSelect;
export type ProductRow = typeof products.$inferSelect;
export type NewProductRow = typeof products.$inferInsert;
export type ShopOrderRow = typeof shopOrders.$inferSelect;
