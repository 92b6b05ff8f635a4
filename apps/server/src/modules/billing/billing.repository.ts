import { and, count, desc, eq, inArray, isNotNull, lt, lte, ne, sql } from 'drizzle-orm';
import {
  SUBSCRIBED_STATUSES,
  type BillingProduct,
  type OrderStatus,
  type SubscriptionStatus,
} from '@chapterwise/shared';
import type { Db } from '../../db/client.js';
import {
  orders,
  paymentCustomers,
  paymentEvents,
  sellerAccounts,
  subscriptions,
  users,
  type NewOrderRow,
  type OrderRow,
  type PaymentProviderKind,
  type SellerAccountRow,
  type SubscriptionRow,
} from '../../db/schema/index.js';
import { isNewerState, type SubscriptionState } from './billing.events.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (id: string) => UUID.test(id);

/** Runs `work` in one transaction: an event's record and its effects commit together or not at all. */
export function transaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => work(tx as unknown as Db));
}

/* ----------------------------------------------------------------------------------------- */
/* Events                                                                                      */
/* ----------------------------------------------------------------------------------------- */

/**
 * Records an event as applied. False when it already was: the primary key turns a replay, a
 * retry or a duplicate delivery into a no-op (a concurrent twin waits on the key, then finds it).
 */
export async function recordEvent(
  tx: Db,
  event: { id: string; provider: PaymentProviderKind; type: string; createdAt: Date },
): Promise<boolean> {
  const rows = await tx
    .insert(paymentEvents)
    .values(event)
    .onConflictDoNothing()
    .returning({ id: paymentEvents.id });
  return rows.length > 0;
}

export async function eventExists(db: Db, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: paymentEvents.id })
    .from(paymentEvents)
    .where(eq(paymentEvents.id, id))
    .limit(1);
  return !!row;
}

/* ----------------------------------------------------------------------------------------- */
/* Users: credits and the subscribed flag                                                      */
/* ----------------------------------------------------------------------------------------- */

export async function userExists(db: Db, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, id)).limit(1);
  return !!row;
}

/**
 * Locks the user's row for the rest of the transaction, so that two events about the same
 * user (two subscriptions, say) are applied one after the other and the derived flag is right.
 */
export async function lockUser(tx: Db, id: string): Promise<boolean> {
  const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.id, id)).for('update');
  return !!row;
}

export async function addCredits(
  tx: Db,
  userId: string,
  credits: { imageGenerationCredits: number; modelTrainingCredits: number },
): Promise<void> {
  if (!credits.imageGenerationCredits && !credits.modelTrainingCredits) return;
  await tx
    .update(users)
    .set({
      imageGenerationCredits: sql`${users.imageGenerationCredits} + ${credits.imageGenerationCredits}`,
      modelTrainingCredits: sql`${users.modelTrainingCredits} + ${credits.modelTrainingCredits}`,
      updatedAt: new Date(),
    })
    .where(eq(users.id, userId));
}

/** Takes back a refunded purchase's credits, as far as they are left (never below zero). */
export async function removeCredits(
  tx: Db,
  userId: string,
  credits: { imageGenerationCredits: number; modelTrainingCredits: number },
): Promise<void> {
  if (!credits.imageGenerationCredits && !credits.modelTrainingCredits) return;
  await tx
    .update(users)
    .set({
      imageGenerationCredits: sql`greatest(0, ${users.imageGenerationCredits} - ${credits.imageGenerationCredits})`,
      modelTrainingCredits: sql`greatest(0, ${users.modelTrainingCredits} - ${credits.modelTrainingCredits})`,
      updatedAt: new Date(),
    })
    .where(eq(users.id, userId));
}

/**
 * Sets `users.is_subscribed` from the user's subscriptions: true while one of them is active,
 * trialing or past_due. The only writer of the flag.
 */
export async function refreshIsSubscribed(tx: Db, userId: string): Promise<boolean> {
  const [row] = await tx
    .update(users)
    .set({
      isSubscribed: sql`exists (select 1 from ${subscriptions} where ${subscriptions.userId} = ${userId} and ${inArray(subscriptions.status, [...SUBSCRIBED_STATUSES])})`,
    })
    .where(eq(users.id, userId))
    .returning({ isSubscribed: users.isSubscribed });
  return row?.isSubscribed ?? false;
}

/* ----------------------------------------------------------------------------------------- */
/* Customers                                                                                   */
/* ----------------------------------------------------------------------------------------- */

export async function findCustomerId(
  db: Db,
  userId: string,
  provider: PaymentProviderKind,
): Promise<string | undefined> {
  const [row] = await db
    .select({ customerId: paymentCustomers.customerId })
    .from(paymentCustomers)
    .where(and(eq(paymentCustomers.userId, userId), eq(paymentCustomers.provider, provider)))
    .limit(1);
  return row?.customerId;
}

/**
 * Keeps the user's customer id; when two checkouts raced to make one, the first one stored
 * wins and is returned (the other customer stays unused at the provider).
 */
export async function saveCustomerId(
  db: Db,
  userId: string,
  provider: PaymentProviderKind,
  customerId: string,
): Promise<string> {
  await db.insert(paymentCustomers).values({ userId, provider, customerId }).onConflictDoNothing();
  return (await findCustomerId(db, userId, provider)) ?? customerId;
}

export async function findUserIdByCustomer(
  db: Db,
  provider: PaymentProviderKind,
  customerId: string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ userId: paymentCustomers.userId })
    .from(paymentCustomers)
    .where(
      and(eq(paymentCustomers.provider, provider), eq(paymentCustomers.customerId, customerId)),
    )
    .limit(1);
  return row?.userId;
}

/* ----------------------------------------------------------------------------------------- */
/* Orders                                                                                      */
/* ----------------------------------------------------------------------------------------- */

export async function insertOrder(db: Db, values: NewOrderRow): Promise<OrderRow> {
  const [row] = await db.insert(orders).values(values).returning();
  return row!;
}

export async function setOrderSession(db: Db, orderId: string, sessionId: string): Promise<void> {
  await db
    .update(orders)
    .set({ checkoutSessionId: sessionId, updatedAt: new Date() })
    .where(eq(orders.id, orderId));
}

/** Removes an order whose checkout could not be started (it never was a purchase). */
export async function deleteUnstartedOrder(db: Db, orderId: string): Promise<void> {
  await db.delete(orders).where(and(eq(orders.id, orderId), eq(orders.status, 'pending')));
}

export async function findOrderById(db: Db, id: string): Promise<OrderRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db.select().from(orders).where(eq(orders.id, id)).limit(1);
  return row;
}

/** The order behind a checkout session; with `userId`, only when it is that user's. */
export async function findOrderBySession(
  db: Db,
  sessionId: string,
  userId?: string,
): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(
      and(eq(orders.checkoutSessionId, sessionId), userId ? eq(orders.userId, userId) : undefined),
    )
    .limit(1);
  return row;
}

/**
 * Marks an order paid. Only an unpaid order changes (a conditional UPDATE), so the caller
 * fulfils it exactly once however many events say it was paid. Returns it when it changed.
 */
export async function markOrderPaid(
  tx: Db,
  orderId: string,
  paid: {
    amountCents: number;
    currency: string;
    paidAt: Date;
    paymentIntentId: string | null;
    subscriptionId: string | null;
  },
): Promise<OrderRow | undefined> {
  const [row] = await tx
    .update(orders)
    .set({
      status: 'paid',
      amountCents: paid.amountCents,
      currency: paid.currency,
      paidAt: paid.paidAt,
      providerPaymentIntentId: paid.paymentIntentId,
      providerSubscriptionId: paid.subscriptionId,
      updatedAt: new Date(),
    })
    .where(and(eq(orders.id, orderId), inArray(orders.status, ['pending', 'canceled', 'failed'])))
    .returning();
  return row;
}

/** A checkout left or timed out: its pending order is canceled (a paid one stays paid). */
export async function markOrderCanceled(tx: Db, orderId: string): Promise<boolean> {
  const rows = await tx
    .update(orders)
    .set({ status: 'canceled', updatedAt: new Date() })
    .where(and(eq(orders.id, orderId), eq(orders.status, 'pending')))
    .returning({ id: orders.id });
  return rows.length > 0;
}

/**
 * The order of one renewal invoice, made once per invoice. A failed attempt makes it failed;
 * a later successful attempt makes it paid; nothing makes a paid one failed again.
 */
export async function upsertInvoiceOrder(
  tx: Db,
  values: {
    userId: string;
    provider: PaymentProviderKind;
    invoiceId: string;
    subscriptionId: string;
    amountCents: number;
    currency: string;
    status: 'paid' | 'failed';
    at: Date;
  },
): Promise<void> {
  await tx
    .insert(orders)
    .values({
      userId: values.userId,
      provider: values.provider,
      product: 'subscription',
      description: 'Unlimited plan: monthly renewal',
      amountCents: values.amountCents,
      currency: values.currency,
      status: values.status,
      mode: 'subscription',
      providerInvoiceId: values.invoiceId,
      providerSubscriptionId: values.subscriptionId,
      paidAt: values.status === 'paid' ? values.at : null,
    })
    .onConflictDoUpdate({
      target: orders.providerInvoiceId,
      set: {
        status: values.status,
        amountCents: values.amountCents,
        paidAt: values.status === 'paid' ? values.at : null,
        updatedAt: new Date(),
      },
      setWhere: ne(orders.status, 'paid'),
    });
}

export async function findOrderByPaymentIntent(
  tx: Db,
  paymentIntentId: string,
): Promise<OrderRow | undefined> {
  const [row] = await tx
    .select()
    .from(orders)
    .where(eq(orders.providerPaymentIntentId, paymentIntentId))
    .limit(1);
  return row;
}

/** A paid order refunded in full. Returns it when it changed (so credits are taken back once). */
export async function markOrderRefunded(tx: Db, orderId: string): Promise<OrderRow | undefined> {
  const [row] = await tx
    .update(orders)
    .set({ status: 'refunded', updatedAt: new Date() })
    .where(and(eq(orders.id, orderId), eq(orders.status, 'paid')))
    .returning();
  return row;
}

/** A user's orders, newest first. */
export async function listOrders(
  db: Db,
  userId: string,
  page: { page: number; limit: number },
): Promise<{ rows: OrderRow[]; count: number }> {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(orders)
      .where(eq(orders.userId, userId))
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    db.select({ n: count() }).from(orders).where(eq(orders.userId, userId)),
  ]);
  return { rows, count: total?.n ?? 0 };
}

/** Whether the user already bought (and was not refunded) this chapter's pack. */
export async function hasPaidChapterOrder(
  db: Db,
  userId: string,
  bookUrl: string,
  chapterUrl: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.userId, userId),
        eq(orders.product, 'chapterMaterials' satisfies BillingProduct),
        eq(orders.bookUrl, bookUrl),
        eq(orders.chapterUrl, chapterUrl),
        eq(orders.status, 'paid' satisfies OrderStatus),
      ),
    )
    .limit(1);
  return !!row;
}

/** Pending checkouts of a provider started before `before` (the local clock expires them). */
export async function listStalePendingOrders(
  db: Db,
  provider: PaymentProviderKind,
  before: Date,
  limit = 100,
): Promise<OrderRow[]> {
  return db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.provider, provider),
        eq(orders.status, 'pending'),
        isNotNull(orders.checkoutSessionId),
        lt(orders.createdAt, before),
      ),
    )
    .orderBy(orders.createdAt)
    .limit(limit);
}

/* ----------------------------------------------------------------------------------------- */
/* Subscriptions                                                                               */
/* ----------------------------------------------------------------------------------------- */

export async function findSubscription(
  db: Db,
  provider: PaymentProviderKind,
  subscriptionId: string,
): Promise<SubscriptionRow | undefined> {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.provider, provider),
        eq(subscriptions.providerSubscriptionId, subscriptionId),
      ),
    )
    .limit(1);
  return row;
}

/**
 * Stores a subscription as an event describes it, unless what we hold is newer (see
 * `isNewerState`): the first event about it inserts it, later ones update it in order, stale
 * or replayed ones change nothing. Call with the user locked.
 */
export async function applySubscriptionState(
  tx: Db,
  provider: PaymentProviderKind,
  userId: string,
  state: SubscriptionState,
  at: Date,
): Promise<'inserted' | 'updated' | 'stale'> {
  const fields = {
    status: state.status,
    providerCustomerId: state.customerId,
    currentPeriodEnd: state.currentPeriodEnd,
    cancelAtPeriodEnd: state.cancelAtPeriodEnd,
    canceledAt: state.canceledAt,
    providerUpdatedAt: at,
  };
  const inserted = await tx
    .insert(subscriptions)
    .values({ userId, provider, providerSubscriptionId: state.id, ...fields })
    .onConflictDoNothing()
    .returning({ id: subscriptions.id });
  if (inserted.length) return 'inserted';
  const [current] = await tx
    .select()
    .from(subscriptions)
    .where(
      and(eq(subscriptions.provider, provider), eq(subscriptions.providerSubscriptionId, state.id)),
    )
    .for('update');
  if (
    !current ||
    !isNewerState(
      { status: current.status, at: current.providerUpdatedAt },
      { status: state.status, at },
    )
  ) {
    return 'stale';
  }
  await tx
    .update(subscriptions)
    .set({ ...fields, updatedAt: new Date() })
    .where(eq(subscriptions.id, current.id));
  return 'updated';
}

/**
 * What an invoice event says about its subscription: paid brings a past_due plan back to
 * active and may extend the period; failed makes an active plan past_due. Applied only when
 * the invoice event is not older than what we hold. Returns the user it concerns, if any.
 */
export async function applyInvoiceToSubscription(
  tx: Db,
  provider: PaymentProviderKind,
  subscriptionId: string,
  outcome: { paid: boolean; periodEnd: Date | null; at: Date },
): Promise<string | undefined> {
  const [current] = await tx
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.provider, provider),
        eq(subscriptions.providerSubscriptionId, subscriptionId),
      ),
    )
    .for('update');
  if (!current) return undefined;
  if (outcome.at.getTime() < current.providerUpdatedAt.getTime()) return current.userId;
  let status: SubscriptionStatus = current.status;
  if (outcome.paid && (status === 'past_due' || status === 'unpaid')) status = 'active';
  if (!outcome.paid && (status === 'active' || status === 'trialing')) status = 'past_due';
  const periodEnd =
    outcome.paid &&
    outcome.periodEnd &&
    (!current.currentPeriodEnd || outcome.periodEnd > current.currentPeriodEnd)
      ? outcome.periodEnd
      : current.currentPeriodEnd;
  if (status !== current.status || periodEnd !== current.currentPeriodEnd) {
    await tx
      .update(subscriptions)
      .set({
        status,
        currentPeriodEnd: periodEnd,
        providerUpdatedAt: outcome.at,
        updatedAt: new Date(),
      })
      .where(eq(subscriptions.id, current.id));
  }
  return current.userId;
}

/**
 * The subscription the screens talk about: one that gives the plan now if any, else the most
 * recently changed one.
 */
export async function findCurrentSubscription(
  db: Db,
  userId: string,
  provider?: PaymentProviderKind,
): Promise<SubscriptionRow | undefined> {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, userId),
        provider ? eq(subscriptions.provider, provider) : undefined,
      ),
    )
    .orderBy(
      desc(sql`${inArray(subscriptions.status, [...SUBSCRIBED_STATUSES])}`),
      desc(subscriptions.providerUpdatedAt),
      desc(subscriptions.createdAt),
    )
    .limit(1);
  return row;
}

/** Local subscriptions whose paid period is over (the local billing clock ends or renews them). */
export async function listLocalSubscriptionsDue(
  db: Db,
  now: Date,
  limit = 100,
): Promise<SubscriptionRow[]> {
  return db
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.provider, 'local'),
        inArray(subscriptions.status, [...SUBSCRIBED_STATUSES, 'unpaid']),
        lte(subscriptions.currentPeriodEnd, now),
      ),
    )
    .orderBy(subscriptions.currentPeriodEnd)
    .limit(limit);
}

/* ----------------------------------------------------------------------------------------- */
/* Seller accounts                                                                             */
/* ----------------------------------------------------------------------------------------- */

export async function findUserEmail(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email ?? null;
}

export async function findSellerAccount(
  db: Db,
  userId: string,
  provider: PaymentProviderKind,
): Promise<SellerAccountRow | undefined> {
  const [row] = await db
    .select()
    .from(sellerAccounts)
    .where(and(eq(sellerAccounts.userId, userId), eq(sellerAccounts.provider, provider)))
    .limit(1);
  return row;
}

/** Keeps a new seller account; when two requests raced, the first one stored is returned. */
export async function saveSellerAccount(
  db: Db,
  userId: string,
  provider: PaymentProviderKind,
  accountId: string,
): Promise<SellerAccountRow> {
  await db.insert(sellerAccounts).values({ userId, provider, accountId }).onConflictDoNothing();
  return (await findSellerAccount(db, userId, provider))!;
}

/**
 * Sets a seller account's capabilities from the provider, unless what we hold came from a
 * newer event or read. Returns whether it changed.
 */
export async function updateSellerAccount(
  tx: Db,
  provider: PaymentProviderKind,
  accountId: string,
  state: { chargesEnabled: boolean; payoutsEnabled: boolean; detailsSubmitted: boolean },
  at: Date,
): Promise<boolean> {
  const rows = await tx
    .update(sellerAccounts)
    .set({ ...state, providerUpdatedAt: at, updatedAt: new Date() })
    .where(
      and(
        eq(sellerAccounts.provider, provider),
        eq(sellerAccounts.accountId, accountId),
        sql`(${sellerAccounts.providerUpdatedAt} is null or ${sellerAccounts.providerUpdatedAt} <= ${at.toISOString()}::timestamptz)`,
      ),
    )
    .returning({ userId: sellerAccounts.userId });
  return rows.length > 0;
}
