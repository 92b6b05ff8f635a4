import {
  PRODUCT_INFO,
  SUBSCRIBED_STATUSES,
  type CheckoutSession,
  type Order,
  type PaymentAccount,
  type ShopOrderInfo,
  type SubscriptionInfo,
} from '@chapterwise/shared';
import type { OrderRow, SellerAccountRow, SubscriptionRow } from '../../db/schema/index.js';

/** An order in wire names; `amount` stays in cents. */
export function presentOrder(row: OrderRow, shopOrder: ShopOrderInfo | null = null): Order {
  return {
    _id: row.id,
    product: row.product,
    productName: PRODUCT_INFO[row.product].name,
    description: row.description,
    amount: row.amountCents,
    currency: row.currency,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt ? row.paidAt.toISOString() : null,
    bookUrl: row.bookUrl,
    chapterUrl: row.chapterUrl,
    ...(row.product === 'shopProduct' ? { shopOrder } : {}),
  };
}

/** A checkout session as the test checkout page and /thankyou show it. */
export function presentCheckoutSession(
  row: OrderRow,
  publicUrl: string,
  order: Order = presentOrder(row),
): CheckoutSession {
  const status =
    row.status === 'paid' || row.status === 'refunded'
      ? 'complete'
      : row.status === 'pending'
        ? 'open'
        : 'expired';
  return {
    id: row.checkoutSessionId ?? '',
    status,
    mode: row.mode,
    order,
    gives: PRODUCT_INFO[row.product].gives,
    cancelUrl: `${publicUrl}${row.returnPath ?? '/subscription'}`,
  };
}

export function presentSubscription(row: SubscriptionRow): SubscriptionInfo {
  return {
    status: row.status,
    isSubscribed: SUBSCRIBED_STATUSES.includes(row.status),
    currentPeriodEnd: row.currentPeriodEnd ? row.currentPeriodEnd.toISOString() : null,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
  };
}

/** Payment account info (spec §3) and the seller status: 'Restricted' until onboarding is done. */
export function presentSellerAccount(row: SellerAccountRow | undefined): PaymentAccount {
  const chargesEnabled = row?.chargesEnabled ?? false;
  const payoutsEnabled = row?.payoutsEnabled ?? false;
  const detailsSubmitted = row?.detailsSubmitted ?? false;
  return {
    charges_enabled: chargesEnabled,
    payouts_enabled: payoutsEnabled,
    details_submitted: detailsSubmitted,
    status:
      chargesEnabled && payoutsEnabled ? 'enabled' : detailsSubmitted ? 'pending' : 'restricted',
  };
}
