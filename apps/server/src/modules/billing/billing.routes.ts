import {
  LocalPayBodySchema,
  BalanceAnswerSchema,
  ChapterCheckoutSessionBodySchema,
  ChapterMaterialsCopyAnswerSchema,
  ChapterPackAnswerSchema,
  ChapterRefSchema,
  CheckoutAnswerSchema,
  CheckoutSessionAnswerSchema,
  CheckoutSessionBodySchema,
  CheckoutSessionParamsSchema,
  CreditCheckoutSessionBodySchema,
  OrdersAnswerSchema,
  OrdersQuerySchema,
  PaymentAccountSchema,
  SubscriptionAnswerSchema,
  SubscriptionInfoSchema,
  UrlAnswerSchema,
} from '@chapterwise/shared';
import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '../../lib/errors.js';
import { requireUser } from '../../plugins/auth.js';
import { WebhookVerificationError, type Payments } from '../../providers/payments/index.js';
import type { BillingService } from './billing.service.js';

const tags = ['billing'];
const security = [{ bearer: [] }];
/** Starting a checkout calls the provider: a generous budget per address, but a budget. */
const checkoutRateLimit = { rateLimit: { max: 30, timeWindow: '1 minute' } };

/**
 * The spec's payment calls (§7 Payment, `/users/me/stripe`, `stripebalance`, `orders`). Thin:
 * authorise, call the service, answer. Nothing here changes credits or the plan: only provider
 * events do (webhooks, or the local test checkout below).
 */
export const billingRoutes = (service: BillingService): FastifyPluginAsyncZod =>
  async function billing(app) {
    app.post(
      '/payment/create-checkout-session',
      {
        config: checkoutRateLimit,
        schema: {
          tags,
          security,
          summary: 'Start the Unlimited plan’s hosted checkout ($9.99 a month)',
          body: CheckoutSessionBodySchema,
          response: { 200: CheckoutAnswerSchema },
        },
      },
      async (request) => {
        const user = await requireUser(request);
        return service.createSubscriptionCheckout(user, request.body);
      },
    );

    app.post(
      '/payment/create-credit-checkout-session',
      {
        config: checkoutRateLimit,
        schema: {
          tags,
          security,
          summary:
            'Start a credit pack’s hosted checkout (modelTrainingCredit or imageGenerationCredits)',
          body: CreditCheckoutSessionBodySchema,
          response: { 200: CheckoutAnswerSchema },
        },
      },
      async (request) => {
        const user = await requireUser(request);
        return service.createCreditCheckout(user, request.body);
      },
    );

    app.post(
      '/payment/creategutenbergbookchaptermaterialcheckoutsession',
      {
        config: checkoutRateLimit,
        schema: {
          tags,
          security,
          summary: 'Start the checkout of a chapter’s ready-made materials ($2.99)',
          body: ChapterCheckoutSessionBodySchema,
          response: { 200: CheckoutAnswerSchema },
        },
      },
      async (request) => {
        const user = await requireUser(request);
        return service.createChapterCheckout(user, request.body);
      },
    );

    app.get(
      '/payment/checkout-session/:id',
      {
        schema: {
          tags,
          security,
          summary: 'One of your checkouts: what it sells and whether it is paid',
          params: CheckoutSessionParamsSchema,
          response: { 200: CheckoutSessionAnswerSchema },
        },
      },
      async (request, reply) => {
        const user = await requireUser(request);
        reply.header('cache-control', 'no-store');
        return { data: await service.getCheckoutSession(user, request.params.id) };
      },
    );

    app.post(
      '/payment/customer-portal',
      {
        config: checkoutRateLimit,
        schema: {
          tags,
          security,
          summary: 'Open the customer portal (cancel or resume the plan, change the card)',
          response: { 200: UrlAnswerSchema },
        },
      },
      async (request) => {
        const user = await requireUser(request);
        return service.createPortalSession(user);
      },
    );

    app.get(
      '/payment/subscription',
      {
        schema: {
          tags,
          security,
          summary: 'Your plan: status, end of the paid period, whether it is set to cancel',
          response: { 200: SubscriptionAnswerSchema },
        },
      },
      async (request, reply) => {
        const user = await requireUser(request);
        reply.header('cache-control', 'no-store');
        return { data: await service.getSubscription(user) };
      },
    );

    app.post(
      '/payment/onboard-user',
      {
        config: checkoutRateLimit,
        schema: {
          tags,
          security,
          summary: 'Start (or continue) seller onboarding: the page to go to',
          response: { 200: UrlAnswerSchema },
        },
      },
      async (request) => {
        const user = await requireUser(request);
        return service.startOnboarding(user);
      },
    );

    app.get(
      '/payment/onboard-user/return',
      {
        schema: {
          tags,
          security,
          summary: 'Back from onboarding: the seller status, read from the provider',
          response: { 200: PaymentAccountSchema },
        },
      },
      async (request, reply) => {
        const user = await requireUser(request);
        reply.header('cache-control', 'no-store');
        return service.finishOnboarding(user);
      },
    );

    app.get(
      '/payment/onboard-user/refresh',
      {
        config: checkoutRateLimit,
        schema: {
          tags,
          security,
          summary: 'The onboarding link expired: a fresh one',
          response: { 200: UrlAnswerSchema },
        },
      },
      async (request, reply) => {
        const user = await requireUser(request);
        reply.header('cache-control', 'no-store');
        return service.startOnboarding(user);
      },
    );

    app.get(
      '/users/me/orders',
      {
        schema: {
          tags,
          security,
          summary: 'Your orders, newest first (amounts in cents)',
          querystring: OrdersQuerySchema,
          response: { 200: OrdersAnswerSchema },
        },
      },
      async (request, reply) => {
        const user = await requireUser(request);
        reply.header('cache-control', 'no-store');
        return service.listOrders(user, request.query);
      },
    );

    app.get(
      '/users/me/stripe',
      {
        schema: {
          tags,
          security,
          summary: 'Your payment (seller) account: charges_enabled, payouts_enabled, status',
          response: { 200: PaymentAccountSchema },
        },
      },
      async (request, reply) => {
        const user = await requireUser(request);
        reply.header('cache-control', 'no-store');
        return service.getPaymentAccount(user);
      },
    );

    app.get(
      '/users/me/stripebalance',
      {
        schema: {
          tags,
          security,
          summary: 'Your seller balance (cents)',
          response: { 200: BalanceAnswerSchema },
        },
      },
      async (request, reply) => {
        const user = await requireUser(request);
        reply.header('cache-control', 'no-store');
        return service.getBalance(user);
      },
    );

    app.get(
      '/payment/chapter-pack',
      {
        schema: {
          tags,
          summary:
            'A chapter’s ready-made materials as a product; with a session, whether you have them',
          querystring: ChapterRefSchema,
          response: { 200: ChapterPackAnswerSchema },
        },
      },
      async (request, reply) => {
        const user = await request.currentUser();
        reply.header('cache-control', 'private, no-store');
        const { bookUrl, chapterUrl } = request.query;
        return { data: await service.getChapterPack(user, bookUrl, chapterUrl) };
      },
    );

    app.post(
      '/materials/addchaptermaterials',
      {
        schema: {
          tags,
          security,
          summary: 'Subscribers: copy a chapter’s ready-made materials into Your Materials',
          body: ChapterRefSchema,
          response: { 200: ChapterMaterialsCopyAnswerSchema },
        },
      },
      async (request) => {
        const user = await requireUser(request);
        return service.addChapterMaterials(user, request.body.bookUrl, request.body.chapterUrl);
      },
    );
  };

const PortalActionParamsSchema = z.object({
  action: z.enum(['cancel', 'resume', 'fail-payment', 'end-period'], {
    error: 'must be cancel, resume, fail-payment or end-period',
  }),
});

/**
 * The local adapter's pages' calls (registered only with PAYMENTS=local). Each acts on the
 * caller's own checkout, plan or seller account, and does so by making the provider's events
 * and applying them like verified webhooks.
 */
export const localPaymentRoutes = (service: BillingService): FastifyPluginAsyncZod =>
  async function localPayments(app) {
    app.post(
      '/payment/local/checkout/:id/pay',
      {
        schema: {
          tags,
          security,
          summary:
            'Test checkout: Pay (no card is charged); print orders give the shipping address',
          params: CheckoutSessionParamsSchema,
          body: LocalPayBodySchema,
          response: { 200: UrlAnswerSchema },
        },
      },
      async (request) => {
        const user = await requireUser(request);
        return service.payLocalCheckout(user, request.params.id, request.body.shipping);
      },
    );

    app.post(
      '/payment/local/checkout/:id/cancel',
      {
        schema: {
          tags,
          security,
          summary: 'Test checkout: Cancel',
          params: CheckoutSessionParamsSchema,
          response: { 200: UrlAnswerSchema },
        },
      },
      async (request) => {
        const user = await requireUser(request);
        return service.cancelLocalCheckout(user, request.params.id);
      },
    );

    app.post(
      '/payment/local/portal/:action',
      {
        schema: {
          tags,
          security,
          summary: 'Test portal: cancel or resume the plan; test tools',
          params: PortalActionParamsSchema,
          response: { 200: z.object({ data: SubscriptionInfoSchema }) },
        },
      },
      async (request) => {
        const user = await requireUser(request);
        return { data: await service.localPortalAction(user, request.params.action) };
      },
    );

    app.post(
      '/payment/local/onboarding/complete',
      {
        schema: {
          tags,
          security,
          summary: 'Test onboarding: complete it',
          response: { 200: UrlAnswerSchema },
        },
      },
      async (request) => {
        const user = await requireUser(request);
        return service.completeLocalOnboarding(user);
      },
    );
  };

/** A webhook body up to this size; Stripe's events are far smaller. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/**
 * The provider's webhooks: the platform's events and its connected accounts' events. The body
 * is kept as the raw bytes (this scope's only parser), because the signature is over them.
 */
export const webhookRoutes = (service: BillingService, payments: Payments): FastifyPluginAsync =>
  async function webhooks(app) {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );

    const endpoint =
      (which: 'account' | 'connect') =>
      async (request: {
        body: unknown;
        headers: Record<string, string | string[] | undefined>;
      }) => {
        const header = request.headers['stripe-signature'];
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        let event;
        try {
          event = payments.verifyWebhook(
            raw,
            typeof header === 'string' ? header : undefined,
            which,
          );
        } catch (error) {
          if (error instanceof WebhookVerificationError) throw badRequest(error.message);
          throw error;
        }
        const outcome = await service.applyEvent(event, payments.kind);
        return { received: true, outcome };
      };

    const schema = (summary: string) => ({
      tags,
      summary,
      response: {
        200: z.object({
          received: z.literal(true),
          outcome: z.enum(['applied', 'duplicate', 'ignored']),
        }),
      },
    });

    app.post(
      '/payment/webhook',
      { schema: schema('Stripe webhook (signed): checkout, subscription and invoice events') },
      endpoint('account'),
    );
    app.post(
      '/payment/webhook/connect',
      { schema: schema('Stripe Connect webhook (signed): account.updated of sellers') },
      endpoint('connect'),
    );
  };
