import './zod-setup.js';
import { z } from 'zod';
import { IMAGE_LIMITS } from './images.js';
import { listOf } from './meta.js';

/**
 * Generations and the print-on-demand shop (spec §1, §3, §7, §9): a prompt becomes an artwork,
 * the artwork becomes products (framed poster, mug, t-shirt, tote) anyone can buy. Wire names
 * follow the spec: `url`, `productIds`, `productImages`, `createdOnDate`, `views`, `price` in
 * cents, `images[].src`, `generationUrl`, `printifyBlueprintId`.
 */

export const PRODUCT_KINDS = ['poster', 'mug', 'tshirt', 'tote'] as const;
export type ProductKind = (typeof PRODUCT_KINDS)[number];

export interface CatalogVariant {
  /** Our variant id (the local adapter's; Printify's come from its catalogue). */
  id: number;
  title: string;
  priceCents: number;
}

export interface CatalogItem {
  kind: ProductKind;
  title: string;
  description: string;
  /** Printify's catalogue ids: the blueprint (product type) and who prints it. */
  blueprintId: number;
  printProviderId: number;
  variants: CatalogVariant[];
}

/**
 * What every artwork is made into. Blueprint 421 and 50 are in the set so the spec's card
 * image rule (`cardImageIndex`) applies; the ids are Printify catalogue ids (decision 024).
 */
export const SHOP_CATALOG: readonly CatalogItem[] = [
  {
    kind: 'poster',
    title: 'Framed Poster',
    description: 'Museum-quality matte paper in a black wooden frame, ready to hang.',
    blueprintId: 421,
    printProviderId: 2,
    variants: [
      { id: 42101, title: '12″ × 16″', priceCents: 3499 },
      { id: 42102, title: '18″ × 24″', priceCents: 4999 },
    ],
  },
  {
    kind: 'mug',
    title: 'Ceramic Mug',
    description: 'Glossy white ceramic, dishwasher and microwave safe.',
    blueprintId: 68,
    printProviderId: 1,
    variants: [
      { id: 6801, title: '11 oz', priceCents: 1499 },
      { id: 6802, title: '15 oz', priceCents: 1799 },
    ],
  },
  {
    kind: 'tshirt',
    title: 'T-Shirt',
    description: 'Soft unisex cotton tee with the artwork printed on the front.',
    blueprintId: 50,
    printProviderId: 29,
    variants: [
      { id: 5001, title: 'S', priceCents: 2299 },
      { id: 5002, title: 'M', priceCents: 2299 },
      { id: 5003, title: 'L', priceCents: 2299 },
      { id: 5004, title: 'XL', priceCents: 2299 },
      { id: 5005, title: '2XL', priceCents: 2499 },
    ],
  },
  {
    kind: 'tote',
    title: 'Tote Bag',
    description: 'Sturdy natural canvas tote for books and lesson plans.',
    blueprintId: 553,
    printProviderId: 1,
    variants: [{ id: 55301, title: '15″ × 16″', priceCents: 1999 }],
  },
];

/** Mockup pictures the local adapter makes of each product. */
export const LOCAL_MOCKUP_VIEWS = 30;

/**
 * Which of a product's images its shop card shows (spec §9): blueprint 421 uses image 20,
 * 50 uses image 29, every other one image 0 (the first when a product has fewer).
 */
export function cardImageIndex(printifyBlueprintId: number | null | undefined): number {
  if (printifyBlueprintId === 421) return 20;
  if (printifyBlueprintId === 50) return 29;
  return 0;
}

/** The picture of a product's card: `cardImageIndex`, or the first image when there are fewer. */
export function cardImageOf<T extends { src: string }>(
  images: readonly T[],
  printifyBlueprintId: number | null | undefined,
): string | null {
  const index = cardImageIndex(printifyBlueprintId);
  return (images[index] ?? images[0])?.src ?? null;
}

/** The sorts of the gallery and the shop (spec §9). */
export const SHOP_SORTS = ['random', 'download_count', 'createdAt', 'views'] as const;
export type ShopSort = (typeof SHOP_SORTS)[number];

/** Most of one product a checkout may take. */
export const MAX_ORDER_QUANTITY = 10;

export const GENERATION_STATUSES = ['generating', 'making_products', 'ready', 'failed'] as const;
export type GenerationStatus = (typeof GENERATION_STATUSES)[number];

export const SHOP_ORDER_STATUSES = [
  'awaiting_payment',
  'paid',
  'created',
  'in_production',
  'shipped',
  'delivered',
  'canceled',
  'failed',
] as const;
export type ShopOrderStatus = (typeof SHOP_ORDER_STATUSES)[number];

/** How each print order status reads in the Orders tab. */
export const SHOP_ORDER_STATUS_LABELS: Record<ShopOrderStatus, string> = {
  awaiting_payment: 'Awaiting payment',
  paid: 'Paid: sending to the printer',
  created: 'Order placed',
  in_production: 'In production',
  shipped: 'Shipped',
  delivered: 'Delivered',
  canceled: 'Canceled',
  failed: 'Needs attention: we will contact you',
};

/** Countries the shop ships to (Stripe's `shipping_address_collection.allowed_countries`). */
export const SHIPPING_COUNTRIES = ['US', 'CA', 'GB', 'IE', 'AU', 'NZ', 'DE', 'FR', 'NL'] as const;

const Uuid = z.uuid({ error: 'must be an id' });
const requiredText = (max: number) =>
  z
    .string({ error: 'is required' })
    .trim()
    .min(1, { error: 'is required' })
    .max(max, { error: `must be at most ${max} characters` });

/* ----------------------------------------------------------------------------------------- */
/* Wire shapes                                                                                */
/* ----------------------------------------------------------------------------------------- */

export const ProductImageSchema = z.object({
  src: z.string(),
  /** The variants this mockup shows (all when empty). */
  variantIds: z.array(z.number().int()),
  isDefault: z.boolean(),
});
export type ProductImage = z.infer<typeof ProductImageSchema>;

export const ProductVariantSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  /** In cents. */
  price: z.number().int().nonnegative(),
});
export type ProductVariant = z.infer<typeof ProductVariantSchema>;

export const ProductSchema = z.object({
  _id: z.string(),
  title: z.string(),
  kind: z.enum(PRODUCT_KINDS),
  description: z.string(),
  prompt: z.string(),
  /** The lowest variant price, in cents (shown divided by 100 in dollars). */
  price: z.number().int().nonnegative(),
  images: z.array(ProductImageSchema),
  /** The image the shop card shows (spec §9's index rule). */
  cardImage: z.string().nullable(),
  variants: z.array(ProductVariantSchema),
  generationUrl: z.string(),
  /** The product's part of its page address: `/shop/{generationUrl}/{url}`. */
  url: z.string(),
  printifyBlueprintId: z.number().int(),
  views: z.number().int().nonnegative(),
  creatorUsername: z.string(),
  createdAt: z.string(),
  /** Made by the offline print adapter: test mode, nothing is printed. */
  testMode: z.boolean(),
});
export type Product = z.infer<typeof ProductSchema>;

export const GenerationSchema = z.object({
  _id: z.string(),
  url: z.string(),
  prompt: z.string(),
  /** The artwork (null until it is made). */
  image: z.string().nullable(),
  productIds: z.array(z.string()),
  /** Each product's card picture, in the order of productIds. */
  productImages: z.array(z.string()),
  createdOnDate: z.string(),
  views: z.number().int().nonnegative(),
  /** Items of its products sold. */
  download_count: z.number().int().nonnegative(),
  status: z.enum(GENERATION_STATUSES),
  error: z.string().optional(),
  creatorUsername: z.string(),
  testMode: z.boolean(),
});
export type Generation = z.infer<typeof GenerationSchema>;

export const GenerationAnswerSchema = z.object({ data: GenerationSchema });
export const GenerationsAnswerSchema = listOf(GenerationSchema);
export const ProductsAnswerSchema = listOf(ProductSchema);
export const ProductAnswerSchema = z.object({
  data: ProductSchema.extend({ generation: GenerationSchema }),
});
export type ProductWithGeneration = z.infer<typeof ProductAnswerSchema>['data'];

/* ----------------------------------------------------------------------------------------- */
/* Requests                                                                                   */
/* ----------------------------------------------------------------------------------------- */

export const StartGenerationBodySchema = z.object({
  prompt: requiredText(IMAGE_LIMITS.promptChars),
});
export type StartGenerationBody = z.infer<typeof StartGenerationBodySchema>;

/** `/startgeneration` → the new generation's id and url; poll `/checkgeneration` every 2 s. */
export const StartGenerationAnswerSchema = z.object({
  generationId: z.string(),
  url: z.string(),
});

export const GenerationIdBodySchema = z.object({ id: Uuid });

export const CheckShopGenerationAnswerSchema = z.object({
  finished: z.boolean(),
  status: z.enum(GENERATION_STATUSES),
  url: z.string(),
  error: z.string().optional(),
});
export type CheckShopGenerationAnswer = z.infer<typeof CheckShopGenerationAnswerSchema>;

const Sort = z.enum(SHOP_SORTS, { error: `must be one of ${SHOP_SORTS.join(', ')}` });
const Page = {
  page: z.coerce.number({ error: 'must be a number' }).int().min(1).default(1),
  limit: z.coerce.number({ error: 'must be a number' }).int().min(1).max(100).default(24),
};

export const GenerationsQuerySchema = z.object({
  sort: Sort.default('createdAt'),
  searchTerm: z.string().trim().max(200, { error: 'must be at most 200 characters' }).optional(),
  ...Page,
});
export const ProductsQuerySchema = z.object({
  sort: Sort.default('views'),
  ...Page,
});
export const GenerationUrlQuerySchema = z.object({ url: requiredText(200) });
export const ProductsForGenerationQuerySchema = z.object({ id: requiredText(200) });
export const ProductByTitleQuerySchema = z.object({
  url: requiredText(200),
  title: requiredText(200),
});
export const ProductByPredictionQuerySchema = z.object({
  url: requiredText(200),
  title: requiredText(200),
  username: requiredText(60),
});
export const UseUpscaleBodySchema = z.object({
  /** A finished upscale of one of the teacher's images. */
  upscaleId: Uuid,
});

/** A shipping address (Stripe's address fields). */
export const ShippingAddressSchema = z.object({
  name: requiredText(100),
  line1: requiredText(200),
  line2: z.string().trim().max(200).optional(),
  city: requiredText(100),
  state: z.string().trim().max(100).optional(),
  postal_code: requiredText(20),
  country: z.enum(SHIPPING_COUNTRIES, {
    error: `must be one of the countries we ship to (${SHIPPING_COUNTRIES.join(', ')})`,
  }),
});
export type ShippingAddress = z.infer<typeof ShippingAddressSchema>;

export const ProductCheckoutBodySchema = z.object({
  productId: Uuid,
  variantId: z.coerce
    .number({ error: 'must be a variant id' })
    .int({ error: 'must be a variant id' }),
  quantity: z.coerce
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: `must be between 1 and ${MAX_ORDER_QUANTITY}` })
    .max(MAX_ORDER_QUANTITY, { error: `must be between 1 and ${MAX_ORDER_QUANTITY}` })
    .default(1),
  referral: z.string().trim().max(100).optional(),
});
export type ProductCheckoutBody = z.infer<typeof ProductCheckoutBodySchema>;

/** The local checkout's Pay for a print order carries the address Stripe would collect. */
export const LocalPayBodySchema = z.preprocess(
  (value) => value ?? {},
  z.object({ shipping: ShippingAddressSchema.optional() }),
);

/** A print order as the Orders tab shows it. */
export const ShopOrderInfoSchema = z.object({
  title: z.string(),
  variantTitle: z.string(),
  quantity: z.number().int(),
  image: z.string().nullable(),
  productPath: z.string().nullable(),
  status: z.enum(SHOP_ORDER_STATUSES),
  statusLabel: z.string(),
  trackingNumber: z.string().nullable(),
  trackingUrl: z.string().nullable(),
  carrier: z.string().nullable(),
  shipTo: z.string().nullable(),
  testMode: z.boolean(),
});
export type ShopOrderInfo = z.infer<typeof ShopOrderInfoSchema>;

/** The page address of a product. */
export function productPath(generationUrl: string, productUrl: string): string {
  return `/shop/${encodeURIComponent(generationUrl)}/${encodeURIComponent(productUrl)}`;
}
