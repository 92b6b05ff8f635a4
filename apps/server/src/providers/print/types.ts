import type { CatalogItem, ShippingAddress } from '@chapterwise/shared';

/**
 * The print-on-demand provider: turns an artwork into products with mockup pictures, takes
 * orders for them and reports their progress. Adapters: `local` (offline, the default: mockups
 * drawn here with sharp, an order timeline played by a clock, clearly test mode) and `printify`
 * (Printify's API). Neither touches our database or storage: the shop module keeps what they
 * return.
 */
export interface PrintProvider {
  readonly kind: 'local' | 'printify';
  /** Uploads the artwork (PNG) once; products of the same artwork reuse the upload. */
  uploadArtwork(input: { png: Buffer; fileName: string }): Promise<{ id: string }>;
  /**
   * Makes one product of the catalogue from an uploaded artwork, with its variants, prices and
   * mockup pictures, and publishes it.
   */
  createProduct(input: CreateProductInput): Promise<ProviderProduct>;
  /** What shipping an order costs us (the buyer sees Free Shipping), in cents. */
  shippingCost(input: { lineItems: OrderLineItem[]; address: ShippingAddress }): Promise<number>;
  /**
   * Creates the order and sends it to production. `externalId` is our order's id: the
   * provider refuses a second order with it, so a retry never prints twice.
   */
  createOrder(input: CreateOrderInput): Promise<{ id: string }>;
  /** The order's state now (the polling fallback to webhooks). */
  getOrder(id: string): Promise<ProviderOrderState>;
  /** Cancels an order not yet in production; false when it is too late. */
  cancelOrder(id: string): Promise<boolean>;
  /** Checks a webhook's signature and reads it; throws PrintWebhookError when it does not check out. */
  verifyWebhook(
    headers: Record<string, string | string[] | undefined>,
    rawBody: Buffer,
  ): PrintWebhook;
}

export interface CreateProductInput {
  artworkId: string;
  /** The artwork's bytes (the local adapter composes its mockups from them). */
  artwork: Buffer;
  item: CatalogItem;
  title: string;
  description: string;
}

export type MockupRef = { data: Buffer; contentType: string } | { url: string };

export interface ProviderProduct {
  id: string;
  variants: Array<{ id: number; title: string; priceCents: number }>;
  images: Array<{ image: MockupRef; variantIds: number[]; isDefault: boolean }>;
}

export interface OrderLineItem {
  providerProductId: string;
  variantId: number;
  quantity: number;
}

export interface CreateOrderInput {
  externalId: string;
  label: string;
  lineItems: OrderLineItem[];
  address: ShippingAddress;
  email: string;
}

export type ProviderOrderStatus =
  'created' | 'in_production' | 'shipped' | 'delivered' | 'canceled' | 'failed';

export interface ProviderOrderState {
  id: string;
  status: ProviderOrderStatus;
  trackingNumber?: string | null | undefined;
  trackingUrl?: string | null | undefined;
  carrier?: string | null | undefined;
}

export interface PrintWebhook {
  /** The delivery's id: each is applied once. */
  eventId: string;
  type: string;
  /** The provider's id of the order it is about (null: not about an order). */
  orderId: string | null;
  /** The order's new state when the event carries it; null: read the order (getOrder). */
  state: ProviderOrderState | null;
}

/** A webhook whose signature or body does not check out (answered 400). */
export class PrintWebhookError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PrintWebhookError';
  }
}

/** The provider refused a call or could not be reached; `transient` ones are retried later. */
export class PrintProviderError extends Error {
  constructor(
    message: string,
    readonly options: { status?: number; transient?: boolean; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'PrintProviderError';
  }
  get transient(): boolean {
    return this.options.transient ?? false;
  }
}
