import type { BillingProduct } from '@chapterwise/shared';

/**
 * A provider event in Stripe's shape: `{ id, type, created, data: { object } }`. Verified
 * Stripe webhooks and the local adapter's events are both this, and both are applied by the
 * same function (modules/billing), which reads `data.object` through its own schemas.
 */
export interface PaymentEvent {
  id: string;
  type: string;
  /** Seconds since the epoch when the provider made the event. */
  created: number;
  /** The connected account an event is about (Connect events). */
  account?: string | null | undefined;
  data: { object: Record<string, unknown> };
}

export interface CheckoutInput {
  product: BillingProduct;
  mode: 'payment' | 'subscription';
  /** The server's price, in cents (used where the provider has no price id for it). */
  amountCents: number;
  /** What the buyer sees on the checkout page. */
  name: string;
  customerId: string;
  /** Our user id (`client_reference_id`). */
  userId: string;
  /** Copied onto the session (and onto the subscription in subscription mode). */
  metadata: Record<string, string>;
  /** `{CHECKOUT_SESSION_ID}` in it is replaced by the session's id. */
  successUrl: string;
  cancelUrl: string;
  /** A print order: the price of one item and how many (`amountCents` is the total). */
  unitAmountCents?: number;
  quantity?: number;
  /** Countries a shipping address is collected for (print orders; shipping is free). */
  shippingCountries?: readonly string[];
  /** Part of the payment sent to a seller's connected account (Connect). */
  transfer?: { destination: string; amountCents: number } | null;
}

/** A connected (seller) account's capabilities as the provider reports them. */
export interface SellerAccountState {
  accountId: string;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  detailsSubmitted: boolean;
}

export interface Balance {
  /** In cents. */
  available: number;
  pending: number;
  currency: string;
}

/** Raised for a webhook whose signature, timestamp or body does not check out (a 400). */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** Raised when the provider refuses a call or cannot be reached (a 502/503 for the caller). */
export class PaymentProviderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PaymentProviderError';
  }
}

/**
 * The payments provider: hosted checkout, the customer portal, seller onboarding, balances, and
 * webhook verification. Adapters: `local` (offline test checkout, the default) and `stripe`.
 * Neither changes our data: every effect comes from events applied by the billing module.
 */
export interface Payments {
  readonly kind: 'local' | 'stripe';
  createCustomer(input: { userId: string; email: string; name: string }): Promise<string>;
  createCheckoutSession(input: CheckoutInput): Promise<{ id: string; url: string }>;
  createPortalSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
  createSellerAccount(input: { userId: string; email: string }): Promise<string>;
  createOnboardingLink(input: {
    accountId: string;
    refreshUrl: string;
    returnUrl: string;
  }): Promise<{ url: string }>;
  /** The account as the provider sees it now; null when the adapter keeps no state of its own. */
  retrieveSellerAccount(accountId: string): Promise<SellerAccountState | null>;
  retrieveBalance(accountId: string): Promise<Balance>;
  /**
   * Checks a webhook's signature over the raw body (and its age) and returns the event.
   * `endpoint` picks the secret: the platform's events or its connected accounts' events.
   */
  verifyWebhook(
    rawBody: Buffer,
    signature: string | undefined,
    endpoint: 'account' | 'connect',
  ): PaymentEvent;
}

/** How old (in seconds) a signed webhook may be: older ones are refused as possible replays. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
