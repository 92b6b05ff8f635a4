import { randomBytes } from 'node:crypto';
import type { ShippingAddress, SubscriptionStatus } from '@chapterwise/shared';
import {
  WebhookVerificationError,
  type Balance,
  type CheckoutInput,
  type PaymentEvent,
  type Payments,
} from './payments.js';

/** A checkout session of the local adapter, as the billing module keeps it (in its order). */
export interface LocalCheckoutSession {
  id: string;
  mode: 'payment' | 'subscription';
  amountCents: number;
  currency: string;
  customerId: string;
  userId: string;
  metadata: Record<string, string>;
  /** The address given on the test checkout page (print orders). */
  shipping?: ShippingAddress | undefined;
}

/** A local subscription as the billing module keeps it. */
export interface LocalSubscription {
  id: string;
  customerId: string | null;
  userId: string;
  status: SubscriptionStatus;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: Date | null;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random id in Stripe's style: `cs_local_` and 24 letters and digits. */
function localId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let id = '';
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return `${prefix}_local_${id}`;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** One calendar month later (UTC), as a monthly plan renews. */
export function addMonth(date: Date): Date {
  const next = new Date(date);
  next.setUTCMonth(next.getUTCMonth() + 1);
  return next;
}

/**
 * The offline adapter (the default). Its checkout, portal and onboarding are pages of our own
 * (`/pay/...`), and what happens on them becomes provider events in Stripe's shape, applied by
 * the same function as verified Stripe webhooks. It keeps no state: the billing module passes
 * in the session or subscription an event is about. Nothing is charged.
 */
export class LocalPayments implements Payments {
  readonly kind = 'local' as const;

  constructor(private readonly publicUrl: string) {}

  async createCustomer(): Promise<string> {
    return localId('cus');
  }

  async createCheckoutSession(_input: CheckoutInput): Promise<{ id: string; url: string }> {
    const id = localId('cs');
    return { id, url: `${this.publicUrl}/pay/checkout/${id}` };
  }

  async createPortalSession(_input: {
    customerId: string;
    returnUrl: string;
  }): Promise<{ url: string }> {
    return { url: `${this.publicUrl}/pay/portal` };
  }

  async createSellerAccount(): Promise<string> {
    return localId('acct');
  }

  async createOnboardingLink(input: { accountId: string }): Promise<{ url: string }> {
    return {
      url: `${this.publicUrl}/pay/onboarding?account=${encodeURIComponent(input.accountId)}`,
    };
  }

  /** The local adapter's seller accounts live only in our database (their events put them there). */
  async retrieveSellerAccount(): Promise<null> {
    return null;
  }

  /** Nothing is ever sold through the local adapter: the balance is zero. */
  async retrieveBalance(): Promise<Balance> {
    return { available: 0, pending: 0, currency: 'usd' };
  }

  verifyWebhook(): PaymentEvent {
    throw new WebhookVerificationError(
      'Payments run on the local test checkout (PAYMENTS=local): there are no webhooks to take.',
    );
  }

  /* ------------------------------------------------------------------------------------------ */
  /* Events: what the provider would send after each action on the local pages                   */
  /* ------------------------------------------------------------------------------------------ */

  private event(
    id: string,
    type: string,
    now: Date,
    object: Record<string, unknown>,
    extra: Partial<PaymentEvent> = {},
  ): PaymentEvent {
    return { id, type, created: seconds(now), data: { object }, ...extra };
  }

  private subscriptionObject(sub: LocalSubscription, periodStart: Date | null) {
    const end = sub.currentPeriodEnd ? seconds(sub.currentPeriodEnd) : null;
    return {
      id: sub.id,
      object: 'subscription',
      customer: sub.customerId,
      status: sub.status,
      cancel_at_period_end: sub.cancelAtPeriodEnd,
      canceled_at: sub.canceledAt ? seconds(sub.canceledAt) : null,
      metadata: { userId: sub.userId },
      items: {
        object: 'list',
        data: [
          {
            object: 'subscription_item',
            current_period_start: periodStart ? seconds(periodStart) : null,
            current_period_end: end,
          },
        ],
      },
    };
  }

  private invoiceObject(input: {
    id: string;
    sub: LocalSubscription;
    amountCents: number;
    paid: boolean;
    billingReason: 'subscription_create' | 'subscription_cycle';
    periodStart: Date;
    periodEnd: Date;
  }) {
    return {
      id: input.id,
      object: 'invoice',
      customer: input.sub.customerId,
      billing_reason: input.billingReason,
      status: input.paid ? 'paid' : 'open',
      currency: 'usd',
      amount_due: input.amountCents,
      amount_paid: input.paid ? input.amountCents : 0,
      parent: {
        type: 'subscription_details',
        subscription_details: {
          subscription: input.sub.id,
          metadata: { userId: input.sub.userId },
        },
      },
      lines: {
        object: 'list',
        data: [{ period: { start: seconds(input.periodStart), end: seconds(input.periodEnd) } }],
      },
    };
  }

  /**
   * Pay on the test checkout page. A plan starts (subscription created, first invoice paid) and
   * the session completes; a pack's session completes with a payment. Event ids derive from the
   * session's, so paying twice gives the same events (applied once).
   */
  completeCheckout(session: LocalCheckoutSession, now = new Date()): PaymentEvent[] {
    const suffix = session.id.replace(/^cs_local_/, '');
    const events: PaymentEvent[] = [];
    let subscriptionId: string | null = null;
    if (session.mode === 'subscription') {
      subscriptionId = `sub_local_${suffix}`;
      const sub: LocalSubscription = {
        id: subscriptionId,
        customerId: session.customerId,
        userId: session.userId,
        status: 'active',
        currentPeriodEnd: addMonth(now),
        cancelAtPeriodEnd: false,
        canceledAt: null,
      };
      events.push(
        this.event(
          `evt_local_${suffix}_sub_created`,
          'customer.subscription.created',
          now,
          this.subscriptionObject(sub, now),
        ),
        this.event(
          `evt_local_${suffix}_invoice_paid`,
          'invoice.paid',
          now,
          this.invoiceObject({
            id: `in_local_${suffix}`,
            sub,
            amountCents: session.amountCents,
            paid: true,
            billingReason: 'subscription_create',
            periodStart: now,
            periodEnd: sub.currentPeriodEnd!,
          }),
        ),
      );
    }
    events.push(
      this.event(`evt_local_${suffix}_completed`, 'checkout.session.completed', now, {
        id: session.id,
        object: 'checkout.session',
        mode: session.mode,
        status: 'complete',
        payment_status: 'paid',
        amount_total: session.amountCents,
        currency: session.currency,
        customer: session.customerId,
        client_reference_id: session.userId,
        subscription: subscriptionId,
        payment_intent: session.mode === 'payment' ? `pi_local_${suffix}` : null,
        metadata: session.metadata,
        ...(session.shipping
          ? {
              collected_information: {
                shipping_details: {
                  name: session.shipping.name,
                  address: {
                    line1: session.shipping.line1,
                    line2: session.shipping.line2 ?? null,
                    city: session.shipping.city,
                    state: session.shipping.state ?? null,
                    postal_code: session.shipping.postal_code,
                    country: session.shipping.country,
                  },
                },
              },
            }
          : {}),
      }),
    );
    return events;
  }

  /** Cancel on the test checkout page: the session expires unpaid. */
  expireCheckout(session: LocalCheckoutSession, now = new Date()): PaymentEvent[] {
    const suffix = session.id.replace(/^cs_local_/, '');
    return [
      this.event(`evt_local_${suffix}_expired`, 'checkout.session.expired', now, {
        id: session.id,
        object: 'checkout.session',
        mode: session.mode,
        status: 'expired',
        payment_status: 'unpaid',
        amount_total: session.amountCents,
        currency: session.currency,
        customer: session.customerId,
        client_reference_id: session.userId,
        subscription: null,
        payment_intent: null,
        metadata: session.metadata,
      }),
    ];
  }

  /** Cancel (at the end of the period) or resume the plan on the test portal page. */
  setCancelAtPeriodEnd(
    sub: LocalSubscription,
    cancelAtPeriodEnd: boolean,
    now = new Date(),
  ): PaymentEvent[] {
    const changed: LocalSubscription = {
      ...sub,
      cancelAtPeriodEnd,
      canceledAt: cancelAtPeriodEnd ? now : null,
    };
    return [
      this.event(
        localId('evt'),
        'customer.subscription.updated',
        now,
        this.subscriptionObject(changed, null),
      ),
    ];
  }

  /** A renewal payment that fails: the invoice fails and the plan becomes past_due. */
  failRenewal(sub: LocalSubscription, amountCents: number, now = new Date()): PaymentEvent[] {
    const periodStart = sub.currentPeriodEnd ?? now;
    const invoiceId = `in_local_${sub.id.replace(/^sub_local_/, '')}_${seconds(periodStart)}`;
    return [
      this.event(
        localId('evt'),
        'invoice.payment_failed',
        now,
        this.invoiceObject({
          id: invoiceId,
          sub,
          amountCents,
          paid: false,
          billingReason: 'subscription_cycle',
          periodStart,
          periodEnd: addMonth(periodStart),
        }),
      ),
      this.event(
        localId('evt'),
        'customer.subscription.updated',
        now,
        this.subscriptionObject({ ...sub, status: 'past_due' }, null),
      ),
    ];
  }

  /**
   * The end of the paid period (the billing clock, or the portal's test button). A plan set to
   * cancel, or whose payment failed, ends; any other renews for a month with a paid invoice.
   * Event ids derive from the period, so two clocks ending the same period agree.
   */
  endPeriod(sub: LocalSubscription, amountCents: number, now = new Date()): PaymentEvent[] {
    const periodEnd = sub.currentPeriodEnd ?? now;
    const tag = `${sub.id.replace(/^sub_local_/, '')}_${seconds(periodEnd)}`;
    if (sub.cancelAtPeriodEnd || sub.status === 'past_due' || sub.status === 'unpaid') {
      return [
        this.event(
          `evt_local_${tag}_deleted`,
          'customer.subscription.deleted',
          now,
          this.subscriptionObject(
            { ...sub, status: 'canceled', canceledAt: sub.canceledAt ?? now },
            null,
          ),
        ),
      ];
    }
    const renewed: LocalSubscription = { ...sub, currentPeriodEnd: addMonth(periodEnd) };
    return [
      this.event(
        `evt_local_${tag}_invoice_paid`,
        'invoice.paid',
        now,
        this.invoiceObject({
          id: `in_local_${tag}`,
          sub,
          amountCents,
          paid: true,
          billingReason: 'subscription_cycle',
          periodStart: periodEnd,
          periodEnd: renewed.currentPeriodEnd!,
        }),
      ),
      this.event(
        `evt_local_${tag}_renewed`,
        'customer.subscription.updated',
        now,
        this.subscriptionObject(renewed, periodEnd),
      ),
    ];
  }

  /** "Complete onboarding" on the test onboarding page: the account can sell and be paid. */
  completeOnboarding(accountId: string, userId: string, now = new Date()): PaymentEvent[] {
    return [
      this.event(
        localId('evt'),
        'account.updated',
        now,
        {
          id: accountId,
          object: 'account',
          type: 'express',
          charges_enabled: true,
          payouts_enabled: true,
          details_submitted: true,
          metadata: { userId },
        },
        { account: accountId },
      ),
    ];
  }
}
