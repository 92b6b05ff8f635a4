import type { Config } from '../../config.js';
import { LocalPayments } from './local.js';
import type { Payments } from './payments.js';
import { StripePayments } from './stripe.js';

export type {
  Balance,
  CheckoutInput,
  PaymentEvent,
  Payments,
  SellerAccountState,
} from './payments.js';
export {
  PaymentProviderError,
  WEBHOOK_TOLERANCE_SECONDS,
  WebhookVerificationError,
} from './payments.js';
export {
  addMonth,
  LocalPayments,
  type LocalCheckoutSession,
  type LocalSubscription,
} from './local.js';
export { StripePayments } from './stripe.js';

/** Chooses the payments adapter once, from config (`PAYMENTS=local|stripe`). */
export function createPayments(config: Config): Payments {
  return config.payments.provider === 'stripe'
    ? new StripePayments(config.payments)
    : new LocalPayments(config.publicUrl);
}
