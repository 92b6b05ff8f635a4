import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CheckoutAnswerSchema,
  CheckShopGenerationAnswerSchema,
  GenerationAnswerSchema,
  GenerationIdBodySchema,
  GenerationsAnswerSchema,
  GenerationsQuerySchema,
  GenerationUrlQuerySchema,
  ProductAnswerSchema,
  ProductByPredictionQuerySchema,
  ProductByTitleQuerySchema,
  ProductCheckoutBodySchema,
  ProductsAnswerSchema,
  ProductsForGenerationQuerySchema,
  ProductsQuerySchema,
  StartGenerationAnswerSchema,
  StartGenerationBodySchema,
  UseUpscaleBodySchema,
  WasSuccessfulSchema,
} from '@chapterwise/shared';
import { requireUser } from '../../plugins/auth.js';
import type { ShopService } from './shop.service.js';

const tags = ['shop'];
const security = [{ bearer: [] }];
/** Lists change as people browse: a short shared cache, never a stale product for long. */
const PUBLIC_LIST_CACHE = 'public, max-age=15';

/** Starting a generation spends a credit and a provider run: a budget per address. */
const generationRateLimit = { rateLimit: { max: 20, timeWindow: '1 minute' } };
const checkoutRateLimit = { rateLimit: { max: 30, timeWindow: '1 minute' } };

const WEBHOOK_BODY_LIMIT = 256 * 1024;

/**
 * Generations, products and the print checkout (spec §7). Thin: parse, authorise, call the
 * service. Reads are public (guests browse the shop); making, deleting and buying need a session.
 */
export const shopRoutes = (service: ShopService): FastifyPluginAsyncZod =>
  async function shop(app) {
    const visitorOf = async (request: FastifyRequest) => {
      const user = await request.currentUser();
      return { user, visitor: service.visitorOf(user, request.ip, request.headers['user-agent']) };
    };

    app.post(
      '/startgeneration',
      {
        config: generationRateLimit,
        schema: {
          tags,
          security,
          summary:
            'Turn a prompt into an artwork and its products (one image credit); poll /checkgeneration',
          body: StartGenerationBodySchema,
          response: { 200: StartGenerationAnswerSchema },
        },
      },
      async (request) => service.startGeneration(await requireUser(request), request.body.prompt),
    );

    app.post(
      '/checkgeneration',
      {
        schema: {
          tags,
          security,
          summary: 'Whether one of your generations is finished (poll every 2 s)',
          body: GenerationIdBodySchema,
          response: { 200: CheckShopGenerationAnswerSchema },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return service.checkGeneration(await requireUser(request), request.body.id);
      },
    );

    app.post(
      '/generate',
      {
        config: generationRateLimit,
        schema: {
          tags,
          security,
          summary: 'Start a generation and wait (up to a minute) for its products',
          body: StartGenerationBodySchema,
          response: { 200: GenerationAnswerSchema },
        },
      },
      async (request) => ({
        data: await service.generate(await requireUser(request), request.body.prompt),
      }),
    );

    app.post(
      '/deletegeneration',
      {
        schema: {
          tags,
          security,
          summary: 'Delete one of your generations and its products',
          body: GenerationIdBodySchema,
          response: { 200: WasSuccessfulSchema },
        },
      },
      async (request) => {
        await service.deleteGeneration(await requireUser(request), request.body.id);
        return { wasSuccessful: true as const };
      },
    );

    app.get(
      '/getgeneration',
      {
        schema: {
          tags,
          summary: 'A generation by its url, with its products (counts a view a day per visitor)',
          querystring: GenerationUrlQuerySchema,
          response: { 200: GenerationAnswerSchema },
        },
      },
      async (request, reply) => {
        const { user, visitor } = await visitorOf(request);
        reply.header('cache-control', 'private, no-store');
        return { data: await service.getGeneration(request.query.url, visitor, user) };
      },
    );

    app.get(
      '/getgenerations',
      {
        schema: {
          tags,
          summary: 'The gallery: sort random | download_count | createdAt | views, searchTerm',
          querystring: GenerationsQuerySchema,
          response: { 200: GenerationsAnswerSchema },
        },
      },
      async (request, reply) => {
        reply.header(
          'cache-control',
          request.query.sort === 'random' ? 'no-store' : PUBLIC_LIST_CACHE,
        );
        return service.listGenerations(request.query);
      },
    );

    app.get(
      '/getproducts',
      {
        schema: {
          tags,
          summary: 'The shop: sort random | views | createdAt | download_count',
          querystring: ProductsQuerySchema,
          response: { 200: ProductsAnswerSchema },
        },
      },
      async (request, reply) => {
        reply.header(
          'cache-control',
          request.query.sort === 'random' ? 'no-store' : PUBLIC_LIST_CACHE,
        );
        return service.listProducts(request.query);
      },
    );

    app.get(
      '/getproductsforgeneration',
      {
        schema: {
          tags,
          summary: 'The products of a generation (by its id or url)',
          querystring: ProductsForGenerationQuerySchema,
          response: { 200: ProductsAnswerSchema },
        },
      },
      async (request) =>
        service.productsForGeneration(request.query.id, await request.currentUser()),
    );

    app.get(
      '/getfeaturedproducts',
      {
        schema: {
          tags,
          summary: 'Featured products (the most viewed, one per artwork)',
          response: { 200: ProductsAnswerSchema },
        },
      },
      async (_request, reply) => {
        reply.header('cache-control', PUBLIC_LIST_CACHE);
        return service.featuredProducts();
      },
    );

    app.get(
      '/getproductbygenerationurlandtitle',
      {
        schema: {
          tags,
          summary: 'A product page: by the generation url and the product title (counts a view)',
          querystring: ProductByTitleQuerySchema,
          response: { 200: ProductAnswerSchema },
        },
      },
      async (request, reply) => {
        const { visitor } = await visitorOf(request);
        reply.header('cache-control', 'private, no-store');
        return {
          data: await service.productByGenerationUrlAndTitle(
            request.query.url,
            request.query.title,
            visitor,
          ),
        };
      },
    );

    app.get(
      '/models/getproductbypredictionurlandtitle',
      {
        schema: {
          tags: ['models', ...tags],
          summary: 'A product made from a teacher’s image: by its prediction url, title, username',
          querystring: ProductByPredictionQuerySchema,
          response: { 200: ProductAnswerSchema },
        },
      },
      async (request, reply) => {
        const { visitor } = await visitorOf(request);
        reply.header('cache-control', 'private, no-store');
        const { url, title, username } = request.query;
        return {
          data: await service.productByPredictionUrlAndTitle(username, url, title, visitor),
        };
      },
    );

    app.post(
      '/models/useupscaleforproductimages',
      {
        config: generationRateLimit,
        schema: {
          tags: ['models', ...tags],
          security,
          summary: 'Make products from one of your finished upscales (no credit)',
          body: UseUpscaleBodySchema,
          response: { 200: GenerationAnswerSchema },
        },
      },
      async (request) => ({
        data: await service.useUpscale(await requireUser(request), request.body.upscaleId),
      }),
    );

    app.post(
      '/payment/create-dream-booth-product-checkout-session',
      {
        config: checkoutRateLimit,
        schema: {
          tags: ['payment', ...tags],
          security,
          summary: 'Buy a product: variant × quantity, shipping address collected, Free Shipping',
          body: ProductCheckoutBodySchema,
          response: { 200: CheckoutAnswerSchema },
        },
      },
      async (request) => service.createCheckout(await requireUser(request), request.body),
    );
  };

/** The print provider's webhook (Printify: `X-Pfy-Signature`), on the raw body. */
export const shopWebhookRoutes = (service: ShopService): FastifyPluginAsync =>
  async function shopWebhook(app) {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );
    app.post(
      '/shop/webhook/printify',
      {
        schema: {
          tags,
          summary: 'Printify webhook (signed: X-Pfy-Signature)',
          response: {
            200: z.object({
              received: z.literal(true),
              outcome: z.enum(['applied', 'duplicate', 'ignored']),
            }),
          },
        },
      },
      async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const outcome = await service.receiveWebhook(request.headers, raw);
        return { received: true as const, outcome };
      },
    );
  };
