import './zod-setup.js';
import { z } from 'zod';
import { listOf } from './meta.js';
import { ShopOrderInfoSchema } from './shop.js';

/* ------------------------------------------------------------------------------------------ */
/* Prices and what each purchase gives (spec §1, §9). Prices are in cents.                      */
/* ------------------------------------------------------------------------------------------ */

/** Generations a new account gets, with no card (spec §1). */
export const FREE_GENERATIONS = 5;
/** The Unlimited plan: $9.99 a month, cancel any time. */
export const SUBSCRIPTION_PRICE_CENTS = 999;
/** One Model Training Credit: $10.00, with 100 image generation credits included. */
export const MODEL_TRAINING_CREDIT_PRICE_CENTS = 1000;
export const MODEL_TRAINING_INCLUDED_IMAGE_CREDITS = 100;
/** A pack of 100 image generation credits, usable with any model: $5.00. */
export const IMAGE_CREDITS_PRICE_CENTS = 500;
export const IMAGE_CREDITS_PER_PACK = 100;
/** A chapter's ready-made materials, copied into the buyer's own materials: $2.99. */
export const CHAPTER_MATERIALS_PRICE_CENTS = 299;
export const CURRENCY = 'usd';

export const BILLING_PRODUCTS = [
  'subscription',
  'modelTrainingCredit',
  'imageGenerationCredits',
  'chapterMaterials',
  'shopProduct',
] as const;
export type BillingProduct = (typeof BILLING_PRODUCTS)[number];

/** The two credit packs of `create-credit-checkout-session` (spec §7). */
export const CREDIT_PRODUCTS = ['modelTrainingCredit', 'imageGenerationCredits'] as const;
export type CreditProduct = (typeof CREDIT_PRODUCTS)[number];

export interface ProductInfo {
  name: string;
  priceCents: number;
  /** Shown next to the price: "/ month" for the plan. */
  interval: 'month' | null;
  /** What the purchase gives, in plain words. */
  gives: string;
}

/** The name, price and plain-words benefit of each product: the screens and the server agree. */
export const PRODUCT_INFO: Record<BillingProduct, ProductInfo> = {
  subscription: {
    name: 'Unlimited plan',
    priceCents: SUBSCRIPTION_PRICE_CENTS,
    interval: 'month',
    gives: 'Unlimited material generations while the plan is active. Cancel any time.',
  },
  modelTrainingCredit: {
    name: 'Model Training Credit',
    priceCents: MODEL_TRAINING_CREDIT_PRICE_CENTS,
    interval: null,
    gives: `Train one custom image model. Includes ${MODEL_TRAINING_INCLUDED_IMAGE_CREDITS} image generation credits.`,
  },
  imageGenerationCredits: {
    name: 'Image Generation Credits',
    priceCents: IMAGE_CREDITS_PRICE_CENTS,
    interval: null,
    gives: `${IMAGE_CREDITS_PER_PACK} image generation credits, usable with any model.`,
  },
  chapterMaterials: {
    name: "Chapter's ready-made materials",
    priceCents: CHAPTER_MATERIALS_PRICE_CENTS,
    interval: null,
    gives:
      "Copies of this chapter's ready-made materials in Your Materials, to edit, export and file in folders.",
  },
  shopProduct: {
    name: 'Print',
    // Priced per product and variant (see SHOP_CATALOG); the order keeps the amount.
    priceCents: 0,
    interval: null,
    gives: 'Printed and shipped to your address. Free Shipping.',
  },
};

/** Credits each product adds to the buyer's balances once paid. */
export const PRODUCT_CREDITS: Record<
  BillingProduct,
  { imageGenerationCredits: number; modelTrainingCredits: number }
> = {
  subscription: { imageGenerationCredits: 0, modelTrainingCredits: 0 },
  modelTrainingCredit: {
    imageGenerationCredits: MODEL_TRAINING_INCLUDED_IMAGE_CREDITS,
    modelTrainingCredits: 1,
  },
  imageGenerationCredits: {
    imageGenerationCredits: IMAGE_CREDITS_PER_PACK,
    modelTrainingCredits: 0,
  },
  chapterMaterials: { imageGenerationCredits: 0, modelTrainingCredits: 0 },
  shopProduct: { imageGenerationCredits: 0, modelTrainingCredits: 0 },
};

/* ------------------------------------------------------------------------------------------ */
/* Request bodies                                                                               */
/* ------------------------------------------------------------------------------------------ */

/** A referral code from a partner link; kept with the order, never affects the price. */
/** Text without control characters (PostgreSQL refuses a NUL in text; the rest is noise). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;

const Referral = z
  .string()
  .trim()
  .max(100, 'must be at most 100 characters')
  .regex(NO_CONTROL_CHARACTERS, 'must be plain text')
  .optional();

/**
 * Where to come back to when the teacher leaves the checkout without paying: a path on this
 * site (never another origin).
 */
const ReturnPath = z
  .string()
  .max(300, 'must be at most 300 characters')
  // Printable ASCII (browsers percent-encode the rest), no backslash, not `//` (another host).
  .regex(/^\/(?![/\\])[!-[\]-~]*$/, 'must be a path on this site, such as /dashboard')
  .optional();

/** `POST /payment/create-checkout-session`: the plan (a missing body is an empty one). */
export const CheckoutSessionBodySchema = z.preprocess(
  (value) => value ?? {},
  z.object({ referral: Referral, returnPath: ReturnPath }),
);
export type CheckoutSessionBody = z.output<typeof CheckoutSessionBodySchema>;

export const CreditCheckoutSessionBodySchema = z.object({
  referral: Referral,
  returnPath: ReturnPath,
  product: z.enum(CREDIT_PRODUCTS, {
    error: 'must be "modelTrainingCredit" or "imageGenerationCredits"',
  }),
});
export type CreditCheckoutSessionBody = z.output<typeof CreditCheckoutSessionBodySchema>;

const UrlPart = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(300)
  .regex(NO_CONTROL_CHARACTERS, 'must be plain text');

const ChapterRef = { bookUrl: UrlPart, chapterUrl: UrlPart };

export const ChapterCheckoutSessionBodySchema = z.object({
  referral: Referral,
  ...ChapterRef,
});
export type ChapterCheckoutSessionBody = z.output<typeof ChapterCheckoutSessionBodySchema>;

export const ChapterRefSchema = z.object(ChapterRef);

/** Checkout session ids: Stripe's `cs_…` and the local adapter's `cs_local_…`. */
export const CheckoutSessionIdSchema = z
  .string()
  .regex(/^cs_[A-Za-z0-9_]{4,200}$/, 'must be a checkout session id');

export const CheckoutSessionParamsSchema = z.object({ id: CheckoutSessionIdSchema });

/* ------------------------------------------------------------------------------------------ */
/* Answers                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/** A hosted checkout: its id and the page the browser goes to. */
export const CheckoutAnswerSchema = z.object({ id: z.string(), url: z.string() });
export type CheckoutAnswer = z.infer<typeof CheckoutAnswerSchema>;

/** The customer portal and onboarding answers: where the browser goes. */
export const UrlAnswerSchema = z.object({ url: z.string() });
export type UrlAnswer = z.infer<typeof UrlAnswerSchema>;

export const ORDER_STATUSES = ['pending', 'paid', 'failed', 'canceled', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** One purchase. `amount` is in cents (shown divided by 100 in dollars). */
export const OrderSchema = z.object({
  _id: z.string(),
  product: z.enum(BILLING_PRODUCTS),
  productName: z.string(),
  description: z.string(),
  amount: z.number().int().nonnegative(),
  currency: z.string(),
  status: z.enum(ORDER_STATUSES),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  bookUrl: z.string().nullable(),
  chapterUrl: z.string().nullable(),
  /** A print order's product, status and tracking (shop purchases only). */
  shopOrder: ShopOrderInfoSchema.nullable().optional(),
});
export type Order = z.infer<typeof OrderSchema>;

/** `GET /users/me/orders` → `{ data, count }`, newest first. */
export const OrdersAnswerSchema = listOf(OrderSchema);

export const OrdersQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(24),
});

/** A checkout session as its own checkout page and /thankyou show it. */
export const CheckoutSessionSchema = z.object({
  id: z.string(),
  /** open: waiting for payment; complete: paid; expired: left or timed out. */
  status: z.enum(['open', 'complete', 'expired']),
  mode: z.enum(['payment', 'subscription']),
  order: OrderSchema,
  gives: z.string(),
  /** Where "Cancel" on the checkout page goes. */
  cancelUrl: z.string(),
});
export type CheckoutSession = z.infer<typeof CheckoutSessionSchema>;
export const CheckoutSessionAnswerSchema = z.object({ data: CheckoutSessionSchema });

export const SUBSCRIPTION_STATUSES = [
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'canceled',
  'unpaid',
  'paused',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * Statuses in which the plan gives unlimited generations. `past_due` keeps access while the
 * provider retries the payment; access ends when the provider ends the subscription.
 */
export const SUBSCRIBED_STATUSES: readonly SubscriptionStatus[] = [
  'active',
  'trialing',
  'past_due',
];

/** The user's plan as the subscription screens show it. */
export const SubscriptionInfoSchema = z.object({
  status: z.enum(SUBSCRIPTION_STATUSES),
  isSubscribed: z.boolean(),
  /** When the period paid for ends: the plan renews then, or ends if cancelled. */
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
});
export type SubscriptionInfo = z.infer<typeof SubscriptionInfoSchema>;

/** `GET /payment/subscription` → `{ data }`, null when the user never subscribed. */
export const SubscriptionAnswerSchema = z.object({ data: SubscriptionInfoSchema.nullable() });

export const SELLER_STATUSES = ['restricted', 'pending', 'enabled'] as const;
export type SellerStatus = (typeof SELLER_STATUSES)[number];

/** What the seller settings show for each status (spec §2: 'Restricted' until onboarding). */
export const SELLER_STATUS_LABELS: Record<SellerStatus, string> = {
  restricted: 'Restricted',
  pending: 'Pending verification',
  enabled: 'Authorized seller',
};

/** `GET /users/me/stripe`: payment account info (spec §3) and the seller status it gives. */
export const PaymentAccountSchema = z.object({
  charges_enabled: z.boolean(),
  payouts_enabled: z.boolean(),
  details_submitted: z.boolean(),
  status: z.enum(SELLER_STATUSES),
});
export type PaymentAccount = z.infer<typeof PaymentAccountSchema>;

/** `GET /users/me/stripebalance`: the seller account's balance, in cents. */
export const BalanceAnswerSchema = z.object({
  balance: z.object({
    available: z.number().int(),
    pending: z.number().int(),
    currency: z.string(),
  }),
});
export type BalanceAnswer = z.infer<typeof BalanceAnswerSchema>;

/**
 * `GET /payment/chapter-pack?bookUrl&chapterUrl`: a chapter's ready-made materials as a
 * product, and what the asking teacher may do (buy it, or add it: with the plan or once bought).
 */
export const ChapterPackSchema = z.object({
  count: z.number().int().nonnegative(),
  price: z.number().int().nonnegative(),
  /** The teacher bought this chapter's pack already. */
  purchased: z.boolean(),
  /** The teacher's plan includes it (subscribed). */
  included: z.boolean(),
});
export type ChapterPack = z.infer<typeof ChapterPackSchema>;
export const ChapterPackAnswerSchema = z.object({ data: ChapterPackSchema });

/** `POST /materials/addchaptermaterials` (subscribers, or once bought): how many were copied. */
export const ChapterMaterialsCopyAnswerSchema = z.object({
  copied: z.number().int().nonnegative(),
});

/** Texts of the billing screens the spec fixes (§2, §8). */
export const BILLING_MESSAGES = {
  onboardingFailed: '<Something went wrong>',
  testCheckoutBanner: 'Test checkout — no card is charged.',
  alreadySubscribed: 'You already have the Unlimited plan. Manage it from your account.',
  noSubscription: 'You have no subscription to manage yet.',
  pastDue:
    'Your last payment did not go through. Your plan stays active while the payment is retried: please update your card in Manage Subscription.',
} as const;
