import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { BillingProduct, OrderStatus, SubscriptionStatus } from '@chapterwise/shared';
import { users } from './users.js';

/** Which payments adapter made a record: the offline test checkout or Stripe. */
export type PaymentProviderKind = 'local' | 'stripe';

/**
 * Every provider event applied, by its id. The row is inserted in the same transaction as the
 * event's effect, so a replayed or retried event finds its id and changes nothing.
 */
export const paymentEvents = pgTable('payment_events', {
  id: text('id').primaryKey(),
  provider: text('provider').$type<PaymentProviderKind>().notNull(),
  type: text('type').notNull(),
  /** When the provider made the event (its `created`). */
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  processedAt: timestamp('processed_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The provider's customer for a user (one per provider), made at the first checkout. */
export const paymentCustomers = pgTable(
  'payment_customers',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').$type<PaymentProviderKind>().notNull(),
    customerId: text('customer_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.provider] }),
    uniqueIndex('payment_customers_provider_customer_key').on(t.provider, t.customerId),
  ],
);

/**
 * A subscription as the provider last described it. `provider_updated_at` is the creation time
 * of the newest event applied to it: older events arriving late change nothing.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').$type<PaymentProviderKind>().notNull(),
    providerSubscriptionId: text('provider_subscription_id').notNull(),
    providerCustomerId: text('provider_customer_id'),
    status: text('status').$type<SubscriptionStatus>().notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    providerUpdatedAt: timestamp('provider_updated_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('subscriptions_provider_subscription_key').on(t.provider, t.providerSubscriptionId),
    index('subscriptions_user_idx').on(t.userId),
    index('subscriptions_period_end_idx').on(t.provider, t.currentPeriodEnd),
  ],
);

/**
 * One purchase: made pending when a checkout starts, paid (and fulfilled, exactly once) when
 * the provider says so. Renewals of the plan are orders too, one per invoice.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').$type<PaymentProviderKind>().notNull(),
    product: text('product').$type<BillingProduct>().notNull(),
    description: text('description').notNull().default(''),
    /** In cents: the server's price when made, the provider's amount once paid. */
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    status: text('status').$type<OrderStatus>().notNull().default('pending'),
    mode: text('mode').$type<'payment' | 'subscription'>().notNull(),
    checkoutSessionId: text('checkout_session_id'),
    providerInvoiceId: text('provider_invoice_id'),
    providerPaymentIntentId: text('provider_payment_intent_id'),
    providerSubscriptionId: text('provider_subscription_id'),
    bookUrl: text('book_url'),
    chapterUrl: text('chapter_url'),
    referral: text('referral'),
    /** Where the checkout's Cancel goes back to (a path on this site). */
    returnPath: text('return_path'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('orders_user_created_idx').on(t.userId, t.createdAt),
    uniqueIndex('orders_checkout_session_key').on(t.checkoutSessionId),
    uniqueIndex('orders_invoice_key').on(t.providerInvoiceId),
    index('orders_payment_intent_idx').on(t.providerPaymentIntentId),
    index('orders_pending_idx')
      .on(t.provider, t.createdAt)
      .where(sql`${t.status} = 'pending'`),
    check('orders_amount_check', sql`${t.amountCents} >= 0`),
    check(
      'orders_status_check',
      sql`${t.status} in ('pending', 'paid', 'failed', 'canceled', 'refunded')`,
    ),
  ],
);

/**
 * A user's connected (seller) account. Selling needs charges and payouts enabled, which the
 * provider turns on when onboarding is complete ('Restricted' until then).
 */
export const sellerAccounts = pgTable(
  'seller_accounts',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').$type<PaymentProviderKind>().notNull(),
    accountId: text('account_id').notNull(),
    chargesEnabled: boolean('charges_enabled').notNull().default(false),
    payoutsEnabled: boolean('payouts_enabled').notNull().default(false),
    detailsSubmitted: boolean('details_submitted').notNull().default(false),
    providerUpdatedAt: timestamp('provider_updated_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.provider] }),
    uniqueIndex('seller_accounts_provider_account_key').on(t.provider, t.accountId),
  ],
);

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;
export type NewOrderRow = typeof orders.$inferInsert;
export type SellerAccountRow = typeof sellerAccounts.$inferSelect;
