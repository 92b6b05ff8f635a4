import {
  ShippingAddressSchema,
  SUBSCRIPTION_STATUSES,
  type ShippingAddress,
  type SubscriptionStatus,
} from '@chapterwise/shared';
import { z } from 'zod';

/**
 * The parts of provider event objects billing reads, parsed tolerantly: unknown fields are
 * ignored, and both the older and the current Stripe API shapes are understood (the period end
 * moved from the subscription to its items, an invoice's subscription moved under `parent`).
 */

/** An id, or the expanded object carrying it. */
const Ref = z
  .union([z.string(), z.object({ id: z.string() })])
  .nullish()
  .transform((value) => (value == null ? null : typeof value === 'string' ? value : value.id));

const Metadata = z
  .record(z.string(), z.unknown())
  .nullish()
  .transform((value) => {
    const out: Record<string, string> = {};
    for (const [key, v] of Object.entries(value ?? {})) if (typeof v === 'string') out[key] = v;
    return out;
  });

const ShippingDetails = z
  .object({
    name: z.string().nullish(),
    address: z
      .object({
        line1: z.string().nullish(),
        line2: z.string().nullish(),
        city: z.string().nullish(),
        state: z.string().nullish(),
        postal_code: z.string().nullish(),
        country: z.string().nullish(),
      })
      .nullish(),
  })
  .nullish();

export const CheckoutSessionObject = z.object({
  id: z.string(),
  /** Older API versions put the collected address here… */
  shipping_details: ShippingDetails,
  /** …newer ones here. */
  collected_information: z.object({ shipping_details: ShippingDetails }).nullish(),
  customer_details: z.object({ name: z.string().nullish() }).nullish(),
  mode: z.enum(['payment', 'subscription', 'setup']),
  payment_status: z.string().nullish(),
  amount_total: z.number().int().nullish(),
  currency: z.string().nullish(),
  customer: Ref,
  subscription: Ref,
  payment_intent: Ref,
  client_reference_id: z.string().nullish(),
  metadata: Metadata,
});
export type CheckoutSessionObject = z.infer<typeof CheckoutSessionObject>;

const SubscriptionObjectSchema = z.object({
  id: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  customer: Ref,
  cancel_at_period_end: z.boolean().nullish(),
  canceled_at: z.number().nullish(),
  current_period_end: z.number().nullish(),
  items: z
    .object({ data: z.array(z.object({ current_period_end: z.number().nullish() })) })
    .nullish(),
  metadata: Metadata,
});

/** A subscription reduced to what we keep of it. */
export interface SubscriptionState {
  id: string;
  status: SubscriptionStatus;
  customerId: string | null;
  userId: string | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: Date | null;
}

const fromSeconds = (value: number | null | undefined) =>
  value == null ? null : new Date(value * 1000);

export function parseSubscription(object: unknown): SubscriptionState {
  const sub = SubscriptionObjectSchema.parse(object);
  // Since API version 2025-03-31 the period lives on each item; all items share it here.
  const periodEnd =
    sub.current_period_end ??
    sub.items?.data.reduce<number | null>(
      (latest, item) =>
        item.current_period_end != null && (latest == null || item.current_period_end > latest)
          ? item.current_period_end
          : latest,
      null,
    );
  return {
    id: sub.id,
    status: sub.status,
    customerId: sub.customer,
    userId: sub.metadata.userId ?? null,
    currentPeriodEnd: fromSeconds(periodEnd),
    cancelAtPeriodEnd: sub.cancel_at_period_end ?? false,
    canceledAt: fromSeconds(sub.canceled_at),
  };
}

const InvoiceObjectSchema = z.object({
  id: z.string(),
  customer: Ref,
  billing_reason: z.string().nullish(),
  amount_paid: z.number().int().nullish(),
  amount_due: z.number().int().nullish(),
  currency: z.string().nullish(),
  subscription: Ref,
  parent: z
    .object({
      subscription_details: z.object({ subscription: Ref, metadata: Metadata }).nullish(),
    })
    .nullish(),
  lines: z
    .object({
      data: z.array(z.object({ period: z.object({ end: z.number().nullish() }).nullish() })),
    })
    .nullish(),
});

export interface InvoiceState {
  id: string;
  customerId: string | null;
  subscriptionId: string | null;
  userId: string | null;
  billingReason: string | null;
  amountPaid: number;
  amountDue: number;
  currency: string;
  /** The end of the latest period the invoice covers. */
  periodEnd: Date | null;
}

export function parseInvoice(object: unknown): InvoiceState {
  const invoice = InvoiceObjectSchema.parse(object);
  const details = invoice.parent?.subscription_details;
  const periodEnd = (invoice.lines?.data ?? []).reduce<number | null>((latest, line) => {
    const end = line.period?.end;
    return end != null && (latest == null || end > latest) ? end : latest;
  }, null);
  return {
    id: invoice.id,
    customerId: invoice.customer,
    subscriptionId: invoice.subscription ?? details?.subscription ?? null,
    userId: details?.metadata.userId ?? null,
    billingReason: invoice.billing_reason ?? null,
    amountPaid: invoice.amount_paid ?? 0,
    amountDue: invoice.amount_due ?? 0,
    currency: invoice.currency ?? 'usd',
    periodEnd: fromSeconds(periodEnd),
  };
}

export const AccountObject = z.object({
  id: z.string(),
  charges_enabled: z.boolean().nullish(),
  payouts_enabled: z.boolean().nullish(),
  details_submitted: z.boolean().nullish(),
  metadata: Metadata,
});

export const ChargeObject = z.object({
  id: z.string(),
  payment_intent: Ref,
  amount: z.number().int(),
  amount_refunded: z.number().int(),
  refunded: z.boolean(),
});

/**
 * How far along its life a subscription status is. Events made in the same second are ordered
 * by this: a late `created` (incomplete) never overwrites the `updated` (active) beside it.
 */
export const STATUS_RANK: Record<SubscriptionStatus, number> = {
  incomplete: 0,
  trialing: 1,
  active: 2,
  past_due: 2,
  unpaid: 3,
  paused: 3,
  incomplete_expired: 4,
  canceled: 4,
};

/** Statuses a subscription never leaves: an ended subscription is not started again. */
export const FINAL_STATUSES: readonly SubscriptionStatus[] = ['canceled', 'incomplete_expired'];

/**
 * Whether an event made at `eventAt` about a subscription in `next` should replace what we
 * hold (`current`, last changed by an event made at `currentAt`).
 */
export function isNewerState(
  current: { status: SubscriptionStatus; at: Date },
  next: { status: SubscriptionStatus; at: Date },
): boolean {
  if (FINAL_STATUSES.includes(current.status)) return false;
  if (next.at.getTime() > current.at.getTime()) return true;
  if (next.at.getTime() < current.at.getTime()) return false;
  return STATUS_RANK[next.status] >= STATUS_RANK[current.status];
}

/** The shipping address a checkout collected (either API shape), or null when it has none. */
export function shippingOf(session: CheckoutSessionObject): ShippingAddress | null {
  const details =
    session.collected_information?.shipping_details ?? session.shipping_details ?? null;
  const a = details?.address;
  const parsed = ShippingAddressSchema.safeParse({
    name: details?.name ?? session.customer_details?.name ?? '',
    line1: a?.line1 ?? '',
    line2: a?.line2 ?? undefined,
    city: a?.city ?? '',
    state: a?.state ?? undefined,
    postal_code: a?.postal_code ?? '',
    country: a?.country ?? '',
  });
  return parsed.success ? parsed.data : null;
}
