import Stripe from 'stripe';
import { CURRENCY, type BillingProduct } from '@chapterwise/shared';
import type { PaymentsConfig } from '../../config.js';
import {
  PaymentProviderError,
  WEBHOOK_TOLERANCE_SECONDS,
  WebhookVerificationError,
  type Balance,
  type CheckoutInput,
  type PaymentEvent,
  type Payments,
  type SellerAccountState,
} from './payments.js';

export type StripePaymentsConfig = Extract<PaymentsConfig, { provider: 'stripe' }>;

/**
 * Stripe: hosted Checkout Sessions (subscription mode for the plan, payment mode for packs),
 * the Customer Portal, Connect Express onboarding, balances, and webhook signatures.
 */
export class StripePayments implements Payments {
  readonly kind = 'stripe' as const;
  private readonly stripe: Stripe;

  constructor(private readonly config: StripePaymentsConfig) {
    this.stripe = new Stripe(config.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      appInfo: { name: 'Chapterwise' },
      ...(config.apiBase
        ? {
            host: config.apiBase.host,
            port: config.apiBase.port,
            protocol: config.apiBase.protocol,
          }
        : {}),
    });
  }

  /** The price id configured for a product; the chapter pack has none (priced inline). */
  private priceOf(product: BillingProduct): string | null {
    switch (product) {
      case 'subscription':
        return this.config.prices.subscription;
      case 'modelTrainingCredit':
        return this.config.prices.modelTrainingCredit;
      case 'imageGenerationCredits':
        return this.config.prices.imageGenerationCredits;
      case 'chapterMaterials':
      case 'shopProduct':
        return null;
    }
  }

  private async call<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw new PaymentProviderError(`Stripe refused to ${what}.`, { cause: error });
    }
  }

  createCustomer(input: { userId: string; email: string; name: string }): Promise<string> {
    return this.call('create a customer', async () => {
      const customer = await this.stripe.customers.create({
        email: input.email,
        ...(input.name ? { name: input.name } : {}),
        metadata: { userId: input.userId },
      });
      return customer.id;
    });
  }

  createCheckoutSession(input: CheckoutInput): Promise<{ id: string; url: string }> {
    const price = this.priceOf(input.product);
    const lineItem: Stripe.Checkout.SessionCreateParams.LineItem = price
      ? { price, quantity: 1 }
      : {
          price_data: {
            currency: CURRENCY,
            unit_amount: input.unitAmountCents ?? input.amountCents,
            product_data: { name: input.name },
          },
          quantity: input.quantity ?? 1,
        };
    const paymentIntentData: Stripe.Checkout.SessionCreateParams.PaymentIntentData = {
      metadata: input.metadata,
      // A seller's share goes to their connected account (destination charge).
      ...(input.transfer
        ? {
            transfer_data: {
              destination: input.transfer.destination,
              amount: input.transfer.amountCents,
            },
          }
        : {}),
    };
    const params: Stripe.Checkout.SessionCreateParams = {
      mode: input.mode,
      customer: input.customerId,
      client_reference_id: input.userId,
      line_items: [lineItem],
      metadata: input.metadata,
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      ...(input.mode === 'subscription'
        ? { subscription_data: { metadata: input.metadata } }
        : { payment_intent_data: paymentIntentData }),
      ...(input.shippingCountries?.length
        ? {
            shipping_address_collection: {
              allowed_countries:
                input.shippingCountries as Stripe.Checkout.SessionCreateParams.ShippingAddressCollection.AllowedCountry[],
            },
            shipping_options: [
              {
                shipping_rate_data: {
                  type: 'fixed_amount',
                  fixed_amount: { amount: 0, currency: CURRENCY },
                  display_name: 'Free Shipping',
                },
              },
            ],
          }
        : {}),
    };
    return this.call('start a checkout', async () => {
      const session = await this.stripe.checkout.sessions.create(params);
      if (!session.url) throw new Error('the checkout session has no url');
      return { id: session.id, url: session.url };
    });
  }

  createPortalSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }> {
    return this.call('open the customer portal', async () => {
      const session = await this.stripe.billingPortal.sessions.create({
        customer: input.customerId,
        return_url: input.returnUrl,
      });
      return { url: session.url };
    });
  }

  createSellerAccount(input: { userId: string; email: string }): Promise<string> {
    return this.call('create a seller account', async () => {
      const account = await this.stripe.accounts.create({
        type: 'express',
        email: input.email,
        metadata: { userId: input.userId },
        capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
      });
      return account.id;
    });
  }

  createOnboardingLink(input: {
    accountId: string;
    refreshUrl: string;
    returnUrl: string;
  }): Promise<{ url: string }> {
    return this.call('start seller onboarding', async () => {
      const link = await this.stripe.accountLinks.create({
        account: input.accountId,
        refresh_url: input.refreshUrl,
        return_url: input.returnUrl,
        type: 'account_onboarding',
      });
      return { url: link.url };
    });
  }

  retrieveSellerAccount(accountId: string): Promise<SellerAccountState> {
    return this.call('read the seller account', async () => {
      const account = await this.stripe.accounts.retrieve(accountId);
      return {
        accountId: account.id,
        chargesEnabled: account.charges_enabled ?? false,
        payoutsEnabled: account.payouts_enabled ?? false,
        detailsSubmitted: account.details_submitted ?? false,
      };
    });
  }

  retrieveBalance(accountId: string): Promise<Balance> {
    return this.call('read the balance', async () => {
      const balance = await this.stripe.balance.retrieve({}, { stripeAccount: accountId });
      const sum = (funds: Array<{ amount: number; currency: string }>) =>
        funds.filter((f) => f.currency === CURRENCY).reduce((total, f) => total + f.amount, 0);
      return {
        available: sum(balance.available),
        pending: sum(balance.pending),
        currency: CURRENCY,
      };
    });
  }

  verifyWebhook(
    rawBody: Buffer,
    signature: string | undefined,
    endpoint: 'account' | 'connect',
  ): PaymentEvent {
    const secret =
      endpoint === 'connect' ? this.config.connectWebhookSecret : this.config.webhookSecret;
    if (!secret) throw new WebhookVerificationError('This webhook endpoint is not configured.');
    if (!signature) throw new WebhookVerificationError('The Stripe-Signature header is missing.');
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(
        rawBody,
        signature,
        secret,
        WEBHOOK_TOLERANCE_SECONDS,
      );
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0] : 'bad signature';
      throw new WebhookVerificationError(`The webhook signature does not check out: ${reason}`);
    }
    return event as unknown as PaymentEvent;
  }
}
