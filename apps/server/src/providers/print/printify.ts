import { createHmac, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { ShippingAddress } from '@chapterwise/shared';
import type { ShopConfig } from '../../config.js';
import {
  PrintProviderError,
  PrintWebhookError,
  type CreateOrderInput,
  type CreateProductInput,
  type OrderLineItem,
  type PrintProvider,
  type PrintWebhook,
  type ProviderOrderState,
  type ProviderOrderStatus,
  type ProviderProduct,
} from './types.js';

export type PrintifyConfig = Extract<ShopConfig['print'], { provider: 'printify' }>;

/** Times a 429 or a 5xx is retried before the call fails. */
const MAX_RETRIES = 3;
/** The longest pause a `Retry-After` may ask for before we give up instead. */
const MAX_RETRY_AFTER_MS = 30_000;

const UploadAnswer = z.object({ id: z.string() });
const VariantsAnswer = z.object({
  variants: z.array(z.object({ id: z.number().int(), title: z.string() })),
});
const ProductAnswer = z.object({
  id: z.string(),
  images: z
    .array(
      z.object({
        src: z.string(),
        variant_ids: z.array(z.number().int()).default([]),
        is_default: z.boolean().default(false),
      }),
    )
    .default([]),
  variants: z
    .array(
      z.object({
        id: z.number().int(),
        title: z.string(),
        price: z.number().int(),
        is_enabled: z.boolean().default(true),
      }),
    )
    .default([]),
});
const OrderAnswer = z.object({
  id: z.string(),
  status: z.string(),
  shipments: z
    .array(
      z.object({
        carrier: z.string().nullish(),
        number: z.string().nullish(),
        url: z.string().nullish(),
        delivered_at: z.string().nullish(),
      }),
    )
    .nullish(),
});
const ShippingAnswer = z.object({ standard: z.number().int() });
const WebhookBody = z.object({
  id: z.string(),
  type: z.string(),
  resource: z.object({
    id: z.string(),
    type: z.string(),
    data: z.record(z.string(), z.unknown()).nullish(),
  }),
});

/** Printify's order statuses in ours. */
export function mapOrderStatus(status: string, delivered: boolean): ProviderOrderStatus {
  switch (status) {
    case 'in-production':
      return 'in_production';
    case 'fulfilled':
    case 'partially-fulfilled':
    case 'shipped':
      return delivered ? 'delivered' : 'shipped';
    case 'delivered':
      return 'delivered';
    case 'canceled':
    case 'cancelled':
      return 'canceled';
    case 'has-issues':
    case 'unfulfillable':
      return 'failed';
    default:
      // pending, on-hold, sending-to-production, payment-not-received: placed, not printing yet.
      return 'created';
  }
}

function splitName(name: string): { first_name: string; last_name: string } {
  const parts = name.trim().split(/\s+/);
  const last = parts.length > 1 ? parts.pop()! : '';
  return { first_name: parts.join(' '), last_name: last };
}

/**
 * Printify (https://developers.printify.com): the artwork is uploaded once, each catalogue item
 * becomes a product (blueprint + print provider, our variants priced, the artwork centred on the
 * front), published, and read back for its mockups. Paid checkouts become orders (`external_id`
 * is ours, so a retry is refused rather than printed twice) sent to production. Order status
 * comes from signed webhooks (`X-Pfy-Signature: sha256=HMAC(body)`), with polling as the fallback.
 */
export class PrintifyProvider implements PrintProvider {
  readonly kind = 'printify' as const;

  constructor(private readonly config: PrintifyConfig) {}

  private get shop() {
    return `/v1/shops/${this.config.shopId}`;
  }

  private async call<T>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    schema: z.ZodType<T>,
    body?: unknown,
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(`${this.config.apiBase}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${this.config.apiToken}`,
            'content-type': 'application/json',
            'user-agent': 'Chapterwise',
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(60_000),
        });
      } catch (error) {
        if (attempt < MAX_RETRIES) {
          await sleep(500 * 2 ** attempt);
          continue;
        }
        throw new PrintProviderError('Printify could not be reached.', {
          transient: true,
          cause: error,
        });
      }
      if (response.status === 429 || response.status >= 500) {
        const retryAfter = Number(response.headers.get('retry-after'));
        const waitMs =
          Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 1000 * 2 ** attempt;
        if (attempt < MAX_RETRIES && waitMs <= MAX_RETRY_AFTER_MS) {
          await response.body?.cancel();
          await sleep(waitMs);
          continue;
        }
        throw new PrintProviderError(
          response.status === 429 ? 'Printify asked us to slow down.' : 'Printify failed.',
          { status: response.status, transient: true },
        );
      }
      const text = await response.text();
      if (!response.ok) {
        let detail = '';
        try {
          const parsed = JSON.parse(text) as { message?: unknown; errors?: { reason?: unknown } };
          detail = String(parsed.errors?.reason ?? parsed.message ?? '');
        } catch {
          // Not JSON: no detail.
        }
        throw new PrintProviderError(
          `Printify refused the request${detail ? `: ${detail.slice(0, 200)}` : ''}.`,
          { status: response.status },
        );
      }
      try {
        return schema.parse(text ? JSON.parse(text) : {});
      } catch (error) {
        throw new PrintProviderError('Printify answered in a way we do not understand.', {
          cause: error,
        });
      }
    }
  }

  async uploadArtwork(input: { png: Buffer; fileName: string }): Promise<{ id: string }> {
    const answer = await this.call('POST', '/v1/uploads/images.json', UploadAnswer, {
      file_name: input.fileName,
      contents: input.png.toString('base64'),
    });
    return { id: answer.id };
  }

  async createProduct(input: CreateProductInput): Promise<ProviderProduct> {
    const { item } = input;
    const catalog = await this.call(
      'GET',
      `/v1/catalog/blueprints/${item.blueprintId}/print_providers/${item.printProviderId}/variants.json`,
      VariantsAnswer,
    );
    // Our variants are matched to the catalogue's by title ("11 oz", "M", "18″ × 24″"…).
    const norm = (t: string) => t.toLowerCase().replace(/[^a-z0-9]+/g, '');
    const chosen = item.variants
      .map((ours) => {
        const theirs = catalog.variants.find(
          (v) => norm(v.title) === norm(ours.title) || norm(v.title).startsWith(norm(ours.title)),
        );
        return theirs ? { id: theirs.id, title: ours.title, priceCents: ours.priceCents } : null;
      })
      .filter((v): v is NonNullable<typeof v> => v !== null);
    if (!chosen.length) {
      throw new PrintProviderError(
        `None of our ${item.title} variants is offered by print provider ${item.printProviderId}.`,
      );
    }
    const created = await this.call('POST', `${this.shop}/products.json`, ProductAnswer, {
      title: input.title,
      description: input.description,
      blueprint_id: item.blueprintId,
      print_provider_id: item.printProviderId,
      variants: chosen.map((v) => ({ id: v.id, price: v.priceCents, is_enabled: true })),
      print_areas: [
        {
          variant_ids: chosen.map((v) => v.id),
          placeholders: [
            {
              position: 'front',
              images: [{ id: input.artworkId, x: 0.5, y: 0.5, scale: 1, angle: 0 }],
            },
          ],
        },
      ],
    });
    await this.call('POST', `${this.shop}/products/${created.id}/publish.json`, z.unknown(), {
      title: true,
      description: true,
      images: true,
      variants: true,
      tags: true,
      keyFeatures: true,
      shipping_template: true,
    });
    // The mockups are made with the product; the published product lists them.
    const product = await this.call(
      'GET',
      `${this.shop}/products/${created.id}.json`,
      ProductAnswer,
    );
    return {
      id: product.id,
      variants: chosen,
      images: product.images.map((image) => ({
        image: { url: image.src },
        variantIds: image.variant_ids,
        isDefault: image.is_default,
      })),
    };
  }

  private addressTo(address: ShippingAddress, email?: string) {
    return {
      ...splitName(address.name),
      ...(email ? { email } : {}),
      country: address.country,
      region: address.state ?? '',
      address1: address.line1,
      address2: address.line2 ?? '',
      city: address.city,
      zip: address.postal_code,
    };
  }

  private lineItems(items: OrderLineItem[]) {
    return items.map((item) => ({
      product_id: item.providerProductId,
      variant_id: item.variantId,
      quantity: item.quantity,
    }));
  }

  async shippingCost(input: {
    lineItems: OrderLineItem[];
    address: ShippingAddress;
  }): Promise<number> {
    const answer = await this.call('POST', `${this.shop}/orders/shipping.json`, ShippingAnswer, {
      line_items: this.lineItems(input.lineItems),
      address_to: this.addressTo(input.address),
    });
    return answer.standard;
  }

  async createOrder(input: CreateOrderInput): Promise<{ id: string }> {
    const order = await this.call(
      'POST',
      `${this.shop}/orders.json`,
      z.object({ id: z.string() }),
      {
        external_id: input.externalId,
        label: input.label,
        line_items: this.lineItems(input.lineItems),
        shipping_method: 1,
        send_shipping_notification: true,
        address_to: this.addressTo(input.address, input.email),
      },
    );
    await this.call('POST', `${this.shop}/orders/${order.id}/send_to_production.json`, z.unknown());
    return { id: order.id };
  }

  private stateOf(order: z.infer<typeof OrderAnswer>): ProviderOrderState {
    const shipment = order.shipments?.[0];
    return {
      id: order.id,
      status: mapOrderStatus(order.status, Boolean(shipment?.delivered_at)),
      trackingNumber: shipment?.number ?? null,
      trackingUrl: shipment?.url ?? null,
      carrier: shipment?.carrier ?? null,
    };
  }

  async getOrder(id: string): Promise<ProviderOrderState> {
    return this.stateOf(await this.call('GET', `${this.shop}/orders/${id}.json`, OrderAnswer));
  }

  async cancelOrder(id: string): Promise<boolean> {
    try {
      const order = await this.call('POST', `${this.shop}/orders/${id}/cancel.json`, OrderAnswer);
      return mapOrderStatus(order.status, false) === 'canceled';
    } catch (error) {
      // Printify refuses to cancel an order already in production.
      if (error instanceof PrintProviderError && !error.transient) return false;
      throw error;
    }
  }

  verifyWebhook(
    headers: Record<string, string | string[] | undefined>,
    rawBody: Buffer,
  ): PrintWebhook {
    const secret = this.config.webhookSecret;
    if (!secret) throw new PrintWebhookError('Printify webhooks are not configured.');
    const header = headers['x-pfy-signature'];
    const given = (Array.isArray(header) ? header[0] : header)?.trim();
    if (!given) throw new PrintWebhookError('The X-Pfy-Signature header is missing.');
    const expected = `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
    const a = Buffer.from(given);
    const b = Buffer.from(expected);
    if (a.length !== b.length || !timingSafeEqual(a, b)) {
      throw new PrintWebhookError('The webhook signature does not check out.');
    }
    let body: z.infer<typeof WebhookBody>;
    try {
      body = WebhookBody.parse(JSON.parse(rawBody.toString('utf8')));
    } catch {
      throw new PrintWebhookError('The webhook body is not a Printify event.');
    }
    if (body.resource.type !== 'order') {
      return { eventId: body.id, type: body.type, orderId: null, state: null };
    }
    const parsed = OrderAnswer.partial({ id: true, status: true }).safeParse(
      body.resource.data ?? {},
    );
    const status = parsed.success ? parsed.data.status : undefined;
    const state =
      parsed.success && status
        ? this.stateOf({ ...parsed.data, id: body.resource.id, status })
        : null;
    return { eventId: body.id, type: body.type, orderId: body.resource.id, state };
  }
}
