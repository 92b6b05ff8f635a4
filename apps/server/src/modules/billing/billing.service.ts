import type { FastifyBaseLogger } from 'fastify';
import {
  BILLING_MESSAGES,
  CHAPTER_MATERIALS_PRICE_CENTS,
  CURRENCY,
  PRODUCT_CREDITS,
  PRODUCT_INFO,
  SUBSCRIBED_STATUSES,
  SUBSCRIPTION_PRICE_CENTS,
  type BalanceAnswer,
  type BillingProduct,
  type ChapterCheckoutSessionBody,
  type ChapterPack,
  type CheckoutAnswer,
  type CheckoutSession,
  type CheckoutSessionBody,
  type CreditCheckoutSessionBody,
  type Order,
  type PaymentAccount,
  type ShippingAddress,
  type ShopOrderInfo,
  type SubscriptionInfo,
  type UrlAnswer,
  SHIPPING_COUNTRIES,
} from '@chapterwise/shared';
import type { Db } from '../../db/client.js';
import type {
  OrderRow,
  PaymentProviderKind,
  ShopOrderRow,
  SubscriptionRow,
  UserRow,
} from '../../db/schema/index.js';
import { AppError, badRequest, conflict, notFound, paymentRequired } from '../../lib/errors.js';
import {
  LocalPayments,
  PaymentProviderError,
  type LocalSubscription,
  type PaymentEvent,
  type Payments,
} from '../../providers/payments/index.js';
import {
  AccountObject,
  ChargeObject,
  CheckoutSessionObject,
  parseInvoice,
  parseSubscription,
  shippingOf,
} from './billing.events.js';
import {
  presentCheckoutSession,
  presentOrder,
  presentSellerAccount,
  presentSubscription,
} from './billing.presenter.js';
import * as repo from './billing.repository.js';

/** A chapter's ready-made materials as the billing module needs to sell them. */
export interface ChapterPacks {
  /** The chapter's title and how many ready-made materials it has (null: unknown chapter). */
  describe(bookUrl: string, chapterUrl: string): Promise<{ title: string; count: number } | null>;
  /**
   * Copies the chapter's ready-made materials into the user's own, inside `db` (the event's
   * transaction when a purchase is fulfilled). Returns how many were copied.
   */
  copyTo(db: Db, userId: string, bookUrl: string, chapterUrl: string): Promise<number>;
}

/**
 * The shop's part in payment events (print orders): set by the shop module. Billing calls it
 * inside an event's transaction (`onPaid`, `onRefunded`) and after the commit (`after…`), so a
 * print order is paid exactly when its order is, and the printer is called outside the
 * transaction.
 */
export interface ShopOrderHooks {
  onPaid(tx: Db, order: OrderRow, address: ShippingAddress | null): Promise<void>;
  afterPaid(orderId: string): void;
  onRefunded(tx: Db, order: OrderRow): Promise<ShopOrderRow | undefined>;
  afterRefunded(row: ShopOrderRow): void;
  describeOrders(orderIds: string[]): Promise<Map<string, ShopOrderInfo>>;
  refreshOrdersOf(userId: string): Promise<void>;
  sellerEarnings(userId: string): Promise<number>;
}

/** A print order's checkout as the shop asks for it. */
export interface ShopCheckoutInput {
  amountCents: number;
  unitAmountCents: number;
  quantity: number;
  name: string;
  description: string;
  referral: string | undefined;
  returnPath: string;
  transfer: { destination: string; amountCents: number } | null;
  /** Records the print order with the billing order's id, before the provider is asked. */
  record(db: Db, orderId: string): Promise<void>;
}

type AfterCommit = Array<() => void>;

export interface BillingDeps {
  db: Db;
  payments: Payments;
  publicUrl: string;
  log: FastifyBaseLogger;
  chapterPacks: ChapterPacks;
}

/** The event types billing acts on; others are acknowledged and left alone. */
export const HANDLED_EVENTS = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
  'account.updated',
  'charge.refunded',
]);

export type EventOutcome = 'applied' | 'duplicate' | 'ignored';

/** Pending local checkouts older than this expire, as Stripe's do after 24 hours. */
const CHECKOUT_LIFETIME_MS = 24 * 60 * 60 * 1000;

const unavailable = (error: unknown, log: FastifyBaseLogger, what: string) => {
  log.error({ err: error }, `payments: could not ${what}`);
  return new AppError(
    'UNAVAILABLE',
    'The payment service could not be reached. Nothing was charged; please try again in a moment.',
  );
};

/**
 * Billing: checkouts, the portal, seller onboarding, orders, and the one function that applies
 * provider events (`applyEvent`). Verified Stripe webhooks and the local test checkout both end
 * there, so a purchase is fulfilled the same way whichever adapter took it, and exactly once.
 */
export class BillingService {
  private shop: ShopOrderHooks | null = null;

  constructor(private readonly deps: BillingDeps) {}

  /** The shop module hands in its part of payment events (print orders). */
  setShopHooks(hooks: ShopOrderHooks): void {
    this.shop = hooks;
  }

  get paymentsKind(): PaymentProviderKind {
    return this.provider;
  }

  private get db() {
    return this.deps.db;
  }

  private get provider(): PaymentProviderKind {
    return this.deps.payments.kind;
  }

  /* --------------------------------------------------------------------------------------- */
  /* Checkout                                                                                 */
  /* --------------------------------------------------------------------------------------- */

  /** The Unlimited plan's hosted checkout (subscription mode). */
  async createSubscriptionCheckout(
    user: UserRow,
    body: CheckoutSessionBody,
  ): Promise<CheckoutAnswer> {
    if (user.isSubscribed) throw conflict(BILLING_MESSAGES.alreadySubscribed);
    return this.startCheckout(user, {
      product: 'subscription',
      mode: 'subscription',
      description: 'Unlimited plan: $9.99 a month',
      referral: body.referral,
      returnPath: body.returnPath ?? '/subscription',
    });
  }

  /** A credit pack's hosted checkout. */
  async createCreditCheckout(
    user: UserRow,
    body: CreditCheckoutSessionBody,
  ): Promise<CheckoutAnswer> {
    return this.startCheckout(user, {
      product: body.product,
      mode: 'payment',
      description: PRODUCT_INFO[body.product].gives,
      referral: body.referral,
      returnPath: body.returnPath ?? '/dashboard',
    });
  }

  /** A chapter's ready-made materials, bought once ($2.99); subscribers add them for free. */
  async createChapterCheckout(
    user: UserRow,
    body: ChapterCheckoutSessionBody,
  ): Promise<CheckoutAnswer> {
    const pack = await this.findChapterPack(body.bookUrl, body.chapterUrl);
    if (user.isSubscribed) {
      throw conflict(
        "Your Unlimited plan includes this chapter's materials: choose Add to my materials.",
      );
    }
    if (await repo.hasPaidChapterOrder(this.db, user.id, body.bookUrl, body.chapterUrl)) {
      throw conflict("You already bought this chapter's materials: they are in Your Materials.");
    }
    return this.startCheckout(user, {
      product: 'chapterMaterials',
      mode: 'payment',
      description: pack.title,
      referral: body.referral,
      returnPath: `/book/${encodeURIComponent(body.bookUrl)}/${encodeURIComponent(body.chapterUrl)}`,
      bookUrl: body.bookUrl,
      chapterUrl: body.chapterUrl,
    });
  }

  private async findChapterPack(bookUrl: string, chapterUrl: string) {
    const pack = await this.deps.chapterPacks.describe(bookUrl, chapterUrl);
    if (!pack || pack.count === 0) throw notFound('This chapter has no ready-made materials yet.');
    return pack;
  }

  /**
   * Records a pending order at the server's price, then asks the provider for a hosted
   * checkout carrying the order's id. The price never comes from the client.
   */
  private async startCheckout(
    user: UserRow,
    order: {
      product: BillingProduct;
      mode: 'payment' | 'subscription';
      description: string;
      referral: string | undefined;
      returnPath: string;
      bookUrl?: string;
      chapterUrl?: string;
    },
  ): Promise<CheckoutAnswer> {
    const info = PRODUCT_INFO[order.product];
    const row = await repo.insertOrder(this.db, {
      userId: user.id,
      provider: this.provider,
      product: order.product,
      description: order.description,
      amountCents: info.priceCents,
      currency: CURRENCY,
      status: 'pending',
      mode: order.mode,
      referral: order.referral || null,
      returnPath: order.returnPath,
      bookUrl: order.bookUrl ?? null,
      chapterUrl: order.chapterUrl ?? null,
    });
    try {
      const customerId = await this.ensureCustomer(user);
      const session = await this.deps.payments.createCheckoutSession({
        product: order.product,
        mode: order.mode,
        amountCents: info.priceCents,
        name:
          order.product === 'chapterMaterials'
            ? `Ready-made materials: ${order.description}`
            : info.name,
        customerId,
        userId: user.id,
        metadata: {
          orderId: row.id,
          userId: user.id,
          product: order.product,
          ...(order.referral ? { referral: order.referral } : {}),
        },
        successUrl: `${this.deps.publicUrl}/thankyou?session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${this.deps.publicUrl}${order.returnPath}`,
      });
      await repo.setOrderSession(this.db, row.id, session.id);
      return { id: session.id, url: session.url };
    } catch (error) {
      await repo.deleteUnstartedOrder(this.db, row.id);
      if (error instanceof PaymentProviderError)
        throw unavailable(error, this.deps.log, 'start a checkout');
      throw error;
    }
  }

  /**
   * A print order's hosted checkout (issue 17): priced by the shop from the product's variant,
   * with a shipping address collected and free shipping, and a seller's share when there is
   * one. The shop's print order is recorded with the pending order, before the provider.
   */
  async createShopCheckout(user: UserRow, input: ShopCheckoutInput): Promise<CheckoutAnswer> {
    const row = await repo.transaction(this.db, async (tx) => {
      const order = await repo.insertOrder(tx, {
        userId: user.id,
        provider: this.provider,
        product: 'shopProduct',
        description: input.description,
        amountCents: input.amountCents,
        currency: CURRENCY,
        status: 'pending',
        mode: 'payment',
        referral: input.referral || null,
        returnPath: input.returnPath,
      });
      await input.record(tx, order.id);
      return order;
    });
    try {
      const customerId = await this.ensureCustomer(user);
      const session = await this.deps.payments.createCheckoutSession({
        product: 'shopProduct',
        mode: 'payment',
        amountCents: input.amountCents,
        unitAmountCents: input.unitAmountCents,
        quantity: input.quantity,
        name: input.name,
        customerId,
        userId: user.id,
        metadata: {
          orderId: row.id,
          userId: user.id,
          product: 'shopProduct',
          ...(input.referral ? { referral: input.referral } : {}),
        },
        successUrl: `${this.deps.publicUrl}/thankyou?session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${this.deps.publicUrl}${input.returnPath}`,
        shippingCountries: SHIPPING_COUNTRIES,
        transfer: input.transfer,
      });
      await repo.setOrderSession(this.db, row.id, session.id);
      return { id: session.id, url: session.url };
    } catch (error) {
      await repo.deleteUnstartedOrder(this.db, row.id);
      if (error instanceof PaymentProviderError)
        throw unavailable(error, this.deps.log, 'start a checkout');
      throw error;
    }
  }

  /** A user's seller account when onboarding is complete (charges and payouts on), else null. */
  async enabledSellerAccount(userId: string): Promise<{ accountId: string } | null> {
    const account = await repo.findSellerAccount(this.db, userId, this.provider);
    return account?.chargesEnabled && account.payoutsEnabled
      ? { accountId: account.accountId }
      : null;
  }

  /** The buyer's email, for the printer's shipping notices. */
  async buyerEmail(userId: string): Promise<string | null> {
    return repo.findUserEmail(this.db, userId);
  }

  private async withShopOrders(rows: OrderRow[]): Promise<Order[]> {
    const shopIds = rows.filter((r) => r.product === 'shopProduct').map((r) => r.id);
    const described =
      this.shop && shopIds.length ? await this.shop.describeOrders(shopIds) : new Map();
    return rows.map((row) => presentOrder(row, described.get(row.id) ?? null));
  }

  /** The user's customer at the provider, made on first use. */
  private async ensureCustomer(user: UserRow): Promise<string> {
    const known = await repo.findCustomerId(this.db, user.id, this.provider);
    if (known) return known;
    const made = await this.deps.payments.createCustomer({
      userId: user.id,
      email: user.email,
      name: `${user.firstName} ${user.lastName}`.trim(),
    });
    return repo.saveCustomerId(this.db, user.id, this.provider, made);
  }

  /** One of the user's checkout sessions (another user's is a 404). */
  async getCheckoutSession(user: UserRow, sessionId: string): Promise<CheckoutSession> {
    const order = await repo.findOrderBySession(this.db, sessionId, user.id);
    if (!order) throw notFound('There is no such checkout.');
    const [presented] = await this.withShopOrders([order]);
    return presentCheckoutSession(order, this.deps.publicUrl, presented!);
  }

  /* --------------------------------------------------------------------------------------- */
  /* Portal, subscription, orders                                                             */
  /* --------------------------------------------------------------------------------------- */

  /** The customer portal, where the plan is cancelled or resumed and the card changed. */
  async createPortalSession(user: UserRow): Promise<UrlAnswer> {
    const customerId = await repo.findCustomerId(this.db, user.id, this.provider);
    const subscription = await repo.findCurrentSubscription(this.db, user.id, this.provider);
    if (!customerId || !subscription) throw notFound(BILLING_MESSAGES.noSubscription);
    try {
      return await this.deps.payments.createPortalSession({
        customerId,
        returnUrl: `${this.deps.publicUrl}/account?tab=subscription`,
      });
    } catch (error) {
      if (error instanceof PaymentProviderError)
        throw unavailable(error, this.deps.log, 'open the portal');
      throw error;
    }
  }

  async getSubscription(user: UserRow): Promise<SubscriptionInfo | null> {
    const row = await repo.findCurrentSubscription(this.db, user.id, this.provider);
    return row ? presentSubscription(row) : null;
  }

  async listOrders(
    user: UserRow,
    page: { page: number; limit: number },
  ): Promise<{ data: Order[]; count: number }> {
    // Print orders' status is read again from the printer when it is old (webhooks may be late).
    await this.shop?.refreshOrdersOf(user.id).catch((error: unknown) => {
      this.deps.log.warn({ err: error }, 'shop: could not refresh orders');
    });
    const { rows, count } = await repo.listOrders(this.db, user.id, page);
    return { data: await this.withShopOrders(rows), count };
  }

  /* --------------------------------------------------------------------------------------- */
  /* Seller onboarding                                                                        */
  /* --------------------------------------------------------------------------------------- */

  /** Starts (or continues) seller onboarding: the provider's onboarding page for the user. */
  async startOnboarding(user: UserRow): Promise<UrlAnswer> {
    try {
      let account = await repo.findSellerAccount(this.db, user.id, this.provider);
      if (!account) {
        const accountId = await this.deps.payments.createSellerAccount({
          userId: user.id,
          email: user.email,
        });
        account = await repo.saveSellerAccount(this.db, user.id, this.provider, accountId);
      }
      const base = `${this.deps.publicUrl}/account?tab=seller&onboarding=`;
      return await this.deps.payments.createOnboardingLink({
        accountId: account.accountId,
        refreshUrl: `${base}refresh`,
        returnUrl: `${base}return`,
      });
    } catch (error) {
      if (error instanceof PaymentProviderError)
        throw unavailable(error, this.deps.log, 'start onboarding');
      throw error;
    }
  }

  /**
   * Back from onboarding: reads the account from the provider (webhooks may not have arrived
   * yet) and answers the seller status.
   */
  async finishOnboarding(user: UserRow): Promise<PaymentAccount> {
    const account = await repo.findSellerAccount(this.db, user.id, this.provider);
    if (!account) return presentSellerAccount(undefined);
    let remote;
    try {
      remote = await this.deps.payments.retrieveSellerAccount(account.accountId);
    } catch (error) {
      // The stored state stands; the account.updated webhook brings the news later.
      this.deps.log.warn({ err: error }, 'payments: could not read a seller account');
    }
    if (remote) {
      await repo.updateSellerAccount(
        this.db,
        this.provider,
        account.accountId,
        {
          chargesEnabled: remote.chargesEnabled,
          payoutsEnabled: remote.payoutsEnabled,
          detailsSubmitted: remote.detailsSubmitted,
        },
        new Date(),
      );
    }
    return this.getPaymentAccount(user);
  }

  async getPaymentAccount(user: UserRow): Promise<PaymentAccount> {
    return presentSellerAccount(await repo.findSellerAccount(this.db, user.id, this.provider));
  }

  async getBalance(user: UserRow): Promise<BalanceAnswer> {
    const account = await repo.findSellerAccount(this.db, user.id, this.provider);
    if (!account) return { balance: { available: 0, pending: 0, currency: CURRENCY } };
    if (this.provider === 'local') {
      // The local adapter moves no money: the balance is the sellers' shares it recorded.
      const earned = (await this.shop?.sellerEarnings(user.id)) ?? 0;
      return { balance: { available: earned, pending: 0, currency: CURRENCY } };
    }
    try {
      return { balance: await this.deps.payments.retrieveBalance(account.accountId) };
    } catch (error) {
      if (error instanceof PaymentProviderError)
        throw unavailable(error, this.deps.log, 'read a balance');
      throw error;
    }
  }

  /* --------------------------------------------------------------------------------------- */
  /* Chapter materials for subscribers                                                        */
  /* --------------------------------------------------------------------------------------- */

  /** A chapter's pack as a product, and whether this teacher has it already (bought or with the plan). */
  async getChapterPack(
    user: UserRow | null,
    bookUrl: string,
    chapterUrl: string,
  ): Promise<ChapterPack> {
    const pack = await this.findChapterPack(bookUrl, chapterUrl);
    return {
      count: pack.count,
      price: CHAPTER_MATERIALS_PRICE_CENTS,
      purchased: user
        ? await repo.hasPaidChapterOrder(this.db, user.id, bookUrl, chapterUrl)
        : false,
      included: user?.isSubscribed ?? false,
    };
  }

  /**
   * Copies a chapter's ready-made materials into Your Materials with no checkout: for
   * subscribers, and for teachers who bought the pack (to get back copies they deleted).
   */
  async addChapterMaterials(
    user: UserRow,
    bookUrl: string,
    chapterUrl: string,
  ): Promise<{ copied: number }> {
    await this.findChapterPack(bookUrl, chapterUrl);
    if (
      !user.isSubscribed &&
      !(await repo.hasPaidChapterOrder(this.db, user.id, bookUrl, chapterUrl))
    ) {
      throw paymentRequired(
        "Adding a chapter's ready-made materials for free needs the Unlimited plan; you can also buy this chapter's pack.",
      );
    }
    const copied = await this.deps.chapterPacks.copyTo(this.db, user.id, bookUrl, chapterUrl);
    return { copied };
  }

  /* --------------------------------------------------------------------------------------- */
  /* Events                                                                                   */
  /* --------------------------------------------------------------------------------------- */

  /**
   * Applies one provider event, once: its id is recorded in the same transaction as its effect,
   * so a replay, a retry or a duplicate changes nothing. Events may arrive in any order; each
   * handler keeps the newest state (see billing.events.ts). Throws on an event it cannot read
   * (the webhook then answers 500 and the provider retries).
   */
  async applyEvent(event: PaymentEvent, provider: PaymentProviderKind): Promise<EventOutcome> {
    if (!HANDLED_EVENTS.has(event.type)) return 'ignored';
    const at = new Date(event.created * 1000);
    const object = event.data.object;
    const after: AfterCommit = [];
    const outcome = await repo.transaction(this.db, async (tx) => {
      const fresh = await repo.recordEvent(tx, {
        id: event.id,
        provider,
        type: event.type,
        createdAt: at,
      });
      if (!fresh) return 'duplicate' as const;
      switch (event.type) {
        case 'checkout.session.completed':
        case 'checkout.session.async_payment_succeeded':
          await this.onCheckoutCompleted(tx, provider, object, at, after);
          break;
        case 'checkout.session.expired':
        case 'checkout.session.async_payment_failed':
          await this.onCheckoutEnded(tx, provider, object);
          break;
        case 'customer.subscription.created':
        case 'customer.subscription.updated':
        case 'customer.subscription.deleted':
          await this.onSubscription(tx, provider, event.type, object, at);
          break;
        case 'invoice.paid':
          await this.onInvoice(tx, provider, true, object, at);
          break;
        case 'invoice.payment_failed':
          await this.onInvoice(tx, provider, false, object, at);
          break;
        case 'account.updated':
          await this.onAccountUpdated(tx, provider, object, at);
          break;
        case 'charge.refunded':
          await this.onChargeRefunded(tx, object, after);
          break;
      }
      return 'applied' as const;
    });
    for (const task of after) task();
    this.deps.log.info({ eventId: event.id, type: event.type, outcome }, 'payment event');
    return outcome;
  }

  private async orderOfSession(
    tx: Db,
    provider: PaymentProviderKind,
    session: CheckoutSessionObject,
  ): Promise<OrderRow | undefined> {
    const byId = session.metadata.orderId
      ? await repo.findOrderById(tx, session.metadata.orderId)
      : undefined;
    const order = byId ?? (await repo.findOrderBySession(tx, session.id));
    // The order named in the metadata must be the one this session was made for, by this provider.
    if (!order || order.provider !== provider) return undefined;
    if (order.checkoutSessionId && order.checkoutSessionId !== session.id) return undefined;
    return order;
  }

  private async onCheckoutCompleted(
    tx: Db,
    provider: PaymentProviderKind,
    object: unknown,
    at: Date,
    after: AfterCommit,
  ): Promise<void> {
    const session = CheckoutSessionObject.parse(object);
    const order = await this.orderOfSession(tx, provider, session);
    if (!order) {
      this.deps.log.warn({ sessionId: session.id }, 'payments: a completed checkout has no order');
      return;
    }
    // Some payment methods settle later: async_payment_succeeded brings the payment then.
    if (session.payment_status === 'unpaid') return;
    if (session.customer) await repo.saveCustomerId(tx, order.userId, provider, session.customer);
    const paid = await repo.markOrderPaid(tx, order.id, {
      amountCents: session.amount_total ?? order.amountCents,
      currency: session.currency ?? order.currency,
      paidAt: at,
      paymentIntentId: session.payment_intent,
      subscriptionId: session.subscription,
    });
    if (!paid) return;
    await repo.addCredits(tx, paid.userId, PRODUCT_CREDITS[paid.product]);
    if (paid.product === 'chapterMaterials' && paid.bookUrl && paid.chapterUrl) {
      await this.deps.chapterPacks.copyTo(tx, paid.userId, paid.bookUrl, paid.chapterUrl);
    }
    if (paid.product === 'shopProduct' && this.shop) {
      const shop = this.shop;
      await shop.onPaid(tx, paid, shippingOf(session));
      after.push(() => shop.afterPaid(paid.id));
    }
  }

  private async onCheckoutEnded(
    tx: Db,
    provider: PaymentProviderKind,
    object: unknown,
  ): Promise<void> {
    const session = CheckoutSessionObject.parse(object);
    const order = await this.orderOfSession(tx, provider, session);
    if (order) await repo.markOrderCanceled(tx, order.id);
  }

  /** Our user for a provider object: by its customer, else by the user id we put in its metadata. */
  private async userOf(
    tx: Db,
    provider: PaymentProviderKind,
    customerId: string | null,
    metadataUserId: string | null,
  ): Promise<string | undefined> {
    if (customerId) {
      const byCustomer = await repo.findUserIdByCustomer(tx, provider, customerId);
      if (byCustomer) return byCustomer;
    }
    if (metadataUserId && (await repo.userExists(tx, metadataUserId))) return metadataUserId;
    return undefined;
  }

  private async onSubscription(
    tx: Db,
    provider: PaymentProviderKind,
    type: string,
    object: unknown,
    at: Date,
  ): Promise<void> {
    const state = parseSubscription(object);
    if (type === 'customer.subscription.deleted') state.status = 'canceled';
    const userId = await this.userOf(tx, provider, state.customerId, state.userId);
    if (!userId) {
      this.deps.log.warn({ subscriptionId: state.id }, 'payments: a subscription has no user');
      return;
    }
    await repo.lockUser(tx, userId);
    await repo.applySubscriptionState(tx, provider, userId, state, at);
    await repo.refreshIsSubscribed(tx, userId);
  }

  private async onInvoice(
    tx: Db,
    provider: PaymentProviderKind,
    paid: boolean,
    object: unknown,
    at: Date,
  ): Promise<void> {
    const invoice = parseInvoice(object);
    if (!invoice.subscriptionId) return; // Not a plan's invoice: nothing of ours.
    const known = await repo.findSubscription(tx, provider, invoice.subscriptionId);
    const userId =
      known?.userId ?? (await this.userOf(tx, provider, invoice.customerId, invoice.userId));
    if (!userId) {
      this.deps.log.warn({ invoiceId: invoice.id }, 'payments: an invoice has no user');
      return;
    }
    await repo.lockUser(tx, userId);
    await repo.applyInvoiceToSubscription(tx, provider, invoice.subscriptionId, {
      paid,
      periodEnd: invoice.periodEnd,
      at,
    });
    await repo.refreshIsSubscribed(tx, userId);
    // The first invoice is the checkout's own order; renewals are orders of their own.
    const amount = paid ? invoice.amountPaid : invoice.amountDue;
    if (invoice.billingReason !== 'subscription_create' && amount > 0) {
      await repo.upsertInvoiceOrder(tx, {
        userId,
        provider,
        invoiceId: invoice.id,
        subscriptionId: invoice.subscriptionId,
        amountCents: amount,
        currency: invoice.currency,
        status: paid ? 'paid' : 'failed',
        at,
      });
    }
  }

  private async onAccountUpdated(
    tx: Db,
    provider: PaymentProviderKind,
    object: unknown,
    at: Date,
  ): Promise<void> {
    const account = AccountObject.parse(object);
    const changed = await repo.updateSellerAccount(
      tx,
      provider,
      account.id,
      {
        chargesEnabled: account.charges_enabled ?? false,
        payoutsEnabled: account.payouts_enabled ?? false,
        detailsSubmitted: account.details_submitted ?? false,
      },
      at,
    );
    if (!changed) this.deps.log.info({ accountId: account.id }, 'payments: account event unused');
  }

  private async onChargeRefunded(tx: Db, object: unknown, after: AfterCommit): Promise<void> {
    const charge = ChargeObject.parse(object);
    // A partial refund leaves the purchase (and what it gave) as it is.
    if (!charge.refunded || !charge.payment_intent) return;
    const order = await repo.findOrderByPaymentIntent(tx, charge.payment_intent);
    if (!order) return;
    const refunded = await repo.markOrderRefunded(tx, order.id);
    if (refunded) await repo.removeCredits(tx, refunded.userId, PRODUCT_CREDITS[refunded.product]);
    if (refunded?.product === 'shopProduct' && this.shop) {
      const shop = this.shop;
      const row = await shop.onRefunded(tx, refunded);
      if (row) after.push(() => shop.afterRefunded(row));
    }
  }

  /* --------------------------------------------------------------------------------------- */
  /* The local adapter's pages                                                                */
  /* --------------------------------------------------------------------------------------- */

  private get local(): LocalPayments {
    const payments = this.deps.payments;
    if (!(payments instanceof LocalPayments)) throw notFound();
    return payments;
  }

  private async localSession(user: UserRow, sessionId: string) {
    const order = await repo.findOrderBySession(this.db, sessionId, user.id);
    if (!order || order.provider !== 'local') throw notFound('There is no such checkout.');
    const customerId = await repo.findCustomerId(this.db, user.id, 'local');
    return {
      order,
      session: {
        id: sessionId,
        mode: order.mode,
        amountCents: order.amountCents,
        currency: order.currency,
        customerId: customerId ?? '',
        userId: user.id,
        metadata: { orderId: order.id, userId: user.id, product: order.product },
      },
    };
  }

  private async applyAll(events: PaymentEvent[]): Promise<void> {
    for (const event of events) await this.applyEvent(event, 'local');
  }

  /**
   * Pay on the test checkout page: completes one of the caller's own pending checkouts, at the
   * price the server set when it was made. Answers where the browser goes next.
   */
  async payLocalCheckout(
    user: UserRow,
    sessionId: string,
    shipping?: ShippingAddress,
  ): Promise<UrlAnswer> {
    const { order, session } = await this.localSession(user, sessionId);
    if (order.status === 'paid' || order.status === 'refunded')
      throw conflict('This checkout is already paid.');
    if (order.status !== 'pending')
      throw conflict('This checkout has expired. Please start again.');
    if (order.product === 'subscription' && user.isSubscribed)
      throw conflict(BILLING_MESSAGES.alreadySubscribed);
    if (
      order.product === 'chapterMaterials' &&
      order.bookUrl &&
      order.chapterUrl &&
      (await repo.hasPaidChapterOrder(this.db, user.id, order.bookUrl, order.chapterUrl))
    ) {
      throw conflict("You already bought this chapter's materials: they are in Your Materials.");
    }
    if (order.product === 'shopProduct' && !shipping) {
      throw badRequest(
        'Invalid field "shipping": a shipping address is required for a print order.',
      );
    }
    const [first, ...rest] = this.local.completeCheckout(
      order.product === 'shopProduct' ? { ...session, shipping } : session,
    );
    // Two Pays at once both find the order pending. Each event is recorded once, so the Pay
    // that finds the session's first event already recorded is the second one.
    if (first && (await this.applyEvent(first, 'local')) === 'duplicate')
      throw conflict('This checkout is already paid.');
    await this.applyAll(rest);
    return {
      url: `${this.deps.publicUrl}/thankyou?session_id=${encodeURIComponent(sessionId)}`,
    };
  }

  /** Cancel on the test checkout page: the checkout expires and the browser goes back. */
  async cancelLocalCheckout(user: UserRow, sessionId: string): Promise<UrlAnswer> {
    const { order, session } = await this.localSession(user, sessionId);
    if (order.status === 'paid') throw conflict('This checkout is already paid.');
    if (order.status === 'pending') await this.applyAll(this.local.expireCheckout(session));
    return { url: `${this.deps.publicUrl}${order.returnPath ?? '/subscription'}` };
  }

  private toLocal(row: SubscriptionRow): LocalSubscription {
    return {
      id: row.providerSubscriptionId,
      customerId: row.providerCustomerId,
      userId: row.userId,
      status: row.status,
      currentPeriodEnd: row.currentPeriodEnd,
      cancelAtPeriodEnd: row.cancelAtPeriodEnd,
      canceledAt: row.canceledAt,
    };
  }

  /**
   * The test portal's actions on the caller's own plan: cancel at the end of the period,
   * resume, and two test tools (a failed renewal payment; the period ending now).
   */
  async localPortalAction(
    user: UserRow,
    action: 'cancel' | 'resume' | 'fail-payment' | 'end-period',
  ): Promise<SubscriptionInfo> {
    const local = this.local;
    const row = await repo.findCurrentSubscription(this.db, user.id, 'local');
    if (!row || !SUBSCRIBED_STATUSES.includes(row.status))
      throw notFound(BILLING_MESSAGES.noSubscription);
    const sub = this.toLocal(row);
    const events =
      action === 'cancel'
        ? sub.cancelAtPeriodEnd
          ? []
          : local.setCancelAtPeriodEnd(sub, true)
        : action === 'resume'
          ? sub.cancelAtPeriodEnd
            ? local.setCancelAtPeriodEnd(sub, false)
            : []
          : action === 'fail-payment'
            ? sub.status === 'past_due'
              ? []
              : local.failRenewal(sub, SUBSCRIPTION_PRICE_CENTS)
            : local.endPeriod(sub, SUBSCRIPTION_PRICE_CENTS);
    await this.applyAll(events);
    const after = await repo.findSubscription(this.db, 'local', sub.id);
    return presentSubscription(after!);
  }

  /** "Complete onboarding" on the test onboarding page; answers the way back to the account. */
  async completeLocalOnboarding(user: UserRow): Promise<UrlAnswer> {
    const local = this.local;
    const account = await repo.findSellerAccount(this.db, user.id, 'local');
    if (!account) throw notFound('Start seller onboarding from your account first.');
    await this.applyAll(local.completeOnboarding(account.accountId, user.id));
    return { url: `${this.deps.publicUrl}/account?tab=seller&onboarding=return` };
  }

  /**
   * The local billing clock (the provider's own schedule, played here): plans whose period is
   * over renew or end, and checkouts left open for a day expire. Returns how many it moved.
   */
  async runLocalClock(now = new Date()): Promise<number> {
    const local = this.local;
    let moved = 0;
    for (const row of await repo.listLocalSubscriptionsDue(this.db, now)) {
      try {
        await this.applyAll(local.endPeriod(this.toLocal(row), SUBSCRIPTION_PRICE_CENTS, now));
        moved += 1;
      } catch (error) {
        this.deps.log.error({ err: error, subscriptionId: row.id }, 'local billing clock failed');
      }
    }
    const before = new Date(now.getTime() - CHECKOUT_LIFETIME_MS);
    for (const order of await repo.listStalePendingOrders(this.db, 'local', before)) {
      await this.applyAll(
        local.expireCheckout(
          {
            id: order.checkoutSessionId!,
            mode: order.mode,
            amountCents: order.amountCents,
            currency: order.currency,
            customerId: '',
            userId: order.userId,
            metadata: { orderId: order.id, userId: order.userId, product: order.product },
          },
          now,
        ),
      );
      moved += 1;
    }
    return moved;
  }
}
