import type { FastifyInstance } from 'fastify';
import { createPayments, type Payments } from '../../providers/payments/index.js';
import { billingRoutes, localPaymentRoutes, webhookRoutes } from './billing.routes.js';
import { BillingService, type ChapterPacks } from './billing.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    billing: BillingService;
  }
}

/** How often the local billing clock renews or ends plans whose period is over. */
const LOCAL_CLOCK_INTERVAL_MS = 60_000;

export interface RegisterBillingOptions {
  /** The adapter to use instead of the config's (tests). */
  payments?: Payments;
  chapterPacks?: ChapterPacks;
}

/**
 * A chapter's ready-made materials as billing sells them: counted and copied by the materials
 * service, named from the catalogue.
 */
function chapterPacksOf(app: FastifyInstance): ChapterPacks {
  return {
    async describe(bookUrl, chapterUrl) {
      const { count } = await app.materials.chapterMaterials(bookUrl, chapterUrl);
      if (count === 0) return null;
      const chapter = await app.books.getChapter(bookUrl, chapterUrl).catch(() => null);
      const title = chapter
        ? `${chapter.data.book.title}: ${chapter.data.chapter.title}`
        : `${bookUrl}, ${chapterUrl}`;
      return { title, count };
    },
    copyTo: (db, userId, bookUrl, chapterUrl) =>
      app.materials.copyChapterMaterials(userId, bookUrl, chapterUrl, db),
  };
}

/**
 * Wires billing into the app: the payments adapter chosen by the config, the service (also
 * `app.billing`), the API routes, the signed webhooks, and with the local adapter its test
 * pages' calls and its billing clock.
 */
export async function registerBilling(
  app: FastifyInstance,
  options: RegisterBillingOptions = {},
): Promise<void> {
  const payments = options.payments ?? createPayments(app.config);
  const service = new BillingService({
    db: app.db,
    payments,
    publicUrl: app.config.publicUrl,
    log: app.log,
    chapterPacks: options.chapterPacks ?? chapterPacksOf(app),
  });
  app.decorate('billing', service);
  await app.register(billingRoutes(service), { prefix: '/api/v1' });
  await app.register(webhookRoutes(service, payments), { prefix: '/api/v1' });
  if (payments.kind === 'local') {
    if (app.config.isProduction) {
      app.log.warn(
        'payments: PAYMENTS=local: the test checkout charges no card and every purchase is free',
      );
    }
    await app.register(localPaymentRoutes(service), { prefix: '/api/v1' });
    if (app.config.jobsEnabled) {
      let timer: NodeJS.Timeout | undefined;
      // One instance at a time runs the clock (an advisory lock on PostgreSQL); its updates
      // are conditional, so a tick that finds nothing to do changes nothing.
      const tick = () =>
        void app.database
          .withLock('chapterwise:billing-clock', () => service.runLocalClock().then(() => {}))
          .catch((error: unknown) => app.log.error({ err: error }, 'local billing clock failed'));
      app.addHook('onReady', async () => {
        timer = setInterval(tick, LOCAL_CLOCK_INTERVAL_MS);
        timer.unref();
        setTimeout(tick, 1000).unref();
      });
      app.addHook('onClose', async () => {
        if (timer) clearInterval(timer);
      });
    }
  } else {
    app.log.info('payments: Stripe');
  }
}
