import type {
  BalanceAnswer,
  CheckoutAnswer,
  CheckoutSession,
  CreditProduct,
  Order,
  PaymentAccount,
  ShippingAddress,
  SubscriptionInfo,
  UrlAnswer,
} from '@chapterwise/shared';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';

/** Query keys of the billing feature. */
export const billingKeys = {
  all: ['billing'] as const,
  subscription: ['billing', 'subscription'] as const,
  orders: (limit: number) => ['billing', 'orders', limit] as const,
  account: ['billing', 'account'] as const,
  balance: ['billing', 'balance'] as const,
  session: (id: string) => ['billing', 'session', id] as const,
};

/**
 * A partner's referral code, from `?ref=` on the page that starts the checkout (kept with the
 * order; it never changes a price).
 */
export function currentReferral(): string | undefined {
  if (typeof window === 'undefined') return undefined;
  const ref = new URLSearchParams(window.location.search).get('ref')?.trim();
  return ref ? ref.slice(0, 100) : undefined;
}

/** Where the checkout's Cancel comes back to: this page. */
function here(): string {
  return `${window.location.pathname}${window.location.search}`.slice(0, 300);
}

/* ------------------------------------------------------------------------------------------ */
/* Starting a checkout, the portal, onboarding: each answers the page the browser goes to      */
/* ------------------------------------------------------------------------------------------ */

export const createSubscriptionCheckout = () =>
  apiRequest<CheckoutAnswer>('/payment/create-checkout-session', {
    method: 'POST',
    body: { referral: currentReferral(), returnPath: here() },
  });

export const createCreditCheckout = (product: CreditProduct) =>
  apiRequest<CheckoutAnswer>('/payment/create-credit-checkout-session', {
    method: 'POST',
    body: { product, referral: currentReferral(), returnPath: here() },
  });

export const createChapterCheckout = (bookUrl: string, chapterUrl: string) =>
  apiRequest<CheckoutAnswer>('/payment/creategutenbergbookchaptermaterialcheckoutsession', {
    method: 'POST',
    body: { bookUrl, chapterUrl, referral: currentReferral() },
  });

export const openCustomerPortal = () =>
  apiRequest<UrlAnswer>('/payment/customer-portal', { method: 'POST' });

export const startOnboarding = () =>
  apiRequest<Partial<UrlAnswer>>('/payment/onboard-user', { method: 'POST' });

export const refreshOnboarding = () =>
  apiRequest<Partial<UrlAnswer>>('/payment/onboard-user/refresh');

export const returnFromOnboarding = () =>
  apiRequest<PaymentAccount>('/payment/onboard-user/return');

export const addChapterMaterials = (bookUrl: string, chapterUrl: string) =>
  apiRequest<{ copied: number }>('/materials/addchaptermaterials', {
    method: 'POST',
    body: { bookUrl, chapterUrl },
  });

/** Sends the browser to a provider page (a hosted checkout, the portal, onboarding). */
export function goTo(url: string): void {
  window.location.assign(url);
}

/* ------------------------------------------------------------------------------------------ */
/* The local adapter's test pages                                                              */
/* ------------------------------------------------------------------------------------------ */

export const payTestCheckout = (id: string, shipping?: ShippingAddress) =>
  apiRequest<UrlAnswer>(`/payment/local/checkout/${encodeURIComponent(id)}/pay`, {
    method: 'POST',
    ...(shipping ? { body: { shipping } } : {}),
  });

export const cancelTestCheckout = (id: string) =>
  apiRequest<UrlAnswer>(`/payment/local/checkout/${encodeURIComponent(id)}/cancel`, {
    method: 'POST',
  });

export type TestPortalAction = 'cancel' | 'resume' | 'fail-payment' | 'end-period';

export const testPortalAction = (action: TestPortalAction) =>
  apiRequest<{ data: SubscriptionInfo }>(`/payment/local/portal/${action}`, {
    method: 'POST',
  }).then((answer) => answer.data);

export const completeTestOnboarding = () =>
  apiRequest<UrlAnswer>('/payment/local/onboarding/complete', { method: 'POST' });

/* ------------------------------------------------------------------------------------------ */
/* Reads                                                                                        */
/* ------------------------------------------------------------------------------------------ */

export function useSubscription(enabled = true) {
  return useQuery({
    queryKey: billingKeys.subscription,
    queryFn: () =>
      apiRequest<{ data: SubscriptionInfo | null }>('/payment/subscription').then((a) => a.data),
    enabled,
    staleTime: 0,
  });
}

export function useOrders(limit = 24) {
  return useQuery({
    queryKey: billingKeys.orders(limit),
    queryFn: () =>
      apiRequest<{ data: Order[]; count: number }>('/users/me/orders', { query: { limit } }),
    staleTime: 0,
    // Print orders move on (in production, shipped…): look again while one is on its way.
    refetchInterval: (query) =>
      query.state.data?.data.some(
        (order) =>
          order.shopOrder &&
          ['paid', 'created', 'in_production', 'shipped'].includes(order.shopOrder.status),
      )
        ? 3000
        : false,
  });
}

export function usePaymentAccount() {
  return useQuery({
    queryKey: billingKeys.account,
    queryFn: () => apiRequest<PaymentAccount>('/users/me/stripe'),
    staleTime: 0,
  });
}

export function useBalance(enabled: boolean) {
  return useQuery({
    queryKey: billingKeys.balance,
    queryFn: () => apiRequest<BalanceAnswer>('/users/me/stripebalance').then((a) => a.balance),
    enabled,
  });
}

/**
 * One of the user's checkouts. While it waits for the provider's word (`open`), it is asked
 * again every 2 seconds for up to a minute.
 */
export function useCheckoutSession(id: string, poll = false) {
  return useQuery({
    queryKey: billingKeys.session(id),
    queryFn: () =>
      apiRequest<{ data: CheckoutSession }>(
        `/payment/checkout-session/${encodeURIComponent(id)}`,
      ).then((a) => a.data),
    enabled: !!id,
    retry: false,
    staleTime: 0,
    refetchInterval: (query) =>
      poll && query.state.data?.status === 'open' && query.state.dataUpdateCount < 30
        ? 2000
        : false,
  });
}
