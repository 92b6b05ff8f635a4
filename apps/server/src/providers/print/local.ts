import { createHash, randomBytes } from 'node:crypto';
import { LOCAL_MOCKUP_VIEWS } from '@chapterwise/shared';
import { renderMockups } from './local-mockups.js';
import {
  PrintProviderError,
  PrintWebhookError,
  type CreateOrderInput,
  type CreateProductInput,
  type PrintProvider,
  type PrintWebhook,
  type ProviderOrderState,
  type ProviderOrderStatus,
  type ProviderProduct,
} from './types.js';

export interface LocalPrintOptions {
  /** How long each step of an order's timeline takes (created → in production → shipped → delivered). */
  stepMs: number;
  /** Mockups per product. */
  views?: number;
  now?: () => number;
}

const TIMELINE: ProviderOrderStatus[] = ['created', 'in_production', 'shipped', 'delivered'];

/**
 * The offline print adapter (the default): test mode, nothing is printed or shipped. Products
 * get mockups composed here (local-mockups.ts); an order's id carries the moment it was made,
 * and its status is read from a clock: one step every `stepMs` (created → in production →
 * shipped, with a placeholder tracking number → delivered). It keeps no state of its own.
 */
export class LocalPrintProvider implements PrintProvider {
  readonly kind = 'local' as const;

  constructor(private readonly options: LocalPrintOptions) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  async uploadArtwork(input: { png: Buffer }): Promise<{ id: string }> {
    return { id: `local-art-${createHash('sha256').update(input.png).digest('hex').slice(0, 16)}` };
  }

  async createProduct(input: CreateProductInput): Promise<ProviderProduct> {
    const mockups = await renderMockups(
      input.artwork,
      input.item.kind,
      this.options.views ?? LOCAL_MOCKUP_VIEWS,
    );
    return {
      id: `local-product-${randomBytes(8).toString('hex')}`,
      variants: input.item.variants.map((v) => ({ ...v })),
      images: mockups.map((data, index) => ({
        image: { data, contentType: 'image/jpeg' },
        variantIds: [],
        isDefault: index === 0,
      })),
    };
  }

  /** Free in test mode. */
  async shippingCost(): Promise<number> {
    return 0;
  }

  async createOrder(input: CreateOrderInput): Promise<{ id: string }> {
    if (!input.lineItems.length) throw new PrintProviderError('An order needs at least one item.');
    // The id carries when it was made (the clock reads the timeline from it) and our order id
    // (the same order asked twice gives the same id: one order).
    const digest = createHash('sha256').update(input.externalId).digest('hex').slice(0, 12);
    return { id: `local-order-${this.now().toString(36)}-${digest}` };
  }

  private madeAt(id: string): number {
    const match = /^local-order-([0-9a-z]+)-[0-9a-f]{12}$/.exec(id);
    if (!match) throw new PrintProviderError('There is no such test order.', { status: 404 });
    return parseInt(match[1]!, 36);
  }

  async getOrder(id: string): Promise<ProviderOrderState> {
    const elapsed = Math.max(0, this.now() - this.madeAt(id));
    const step = Math.min(
      TIMELINE.length - 1,
      Math.floor(elapsed / Math.max(1, this.options.stepMs)),
    );
    const status = TIMELINE[step]!;
    const shipped = status === 'shipped' || status === 'delivered';
    const number = `TEST-${id.slice(-8).toUpperCase()}`;
    return {
      id,
      status,
      trackingNumber: shipped ? number : null,
      trackingUrl: null,
      carrier: shipped ? 'Test carrier (nothing is shipped)' : null,
    };
  }

  /** Test orders can be canceled until they go into production. */
  async cancelOrder(id: string): Promise<boolean> {
    return (await this.getOrder(id)).status === 'created';
  }

  verifyWebhook(): PrintWebhook {
    throw new PrintWebhookError('The offline print adapter sends no webhooks.');
  }
}
