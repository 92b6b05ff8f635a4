import type { FastifyInstance } from 'fastify';
import { createPrintProvider, type PrintProvider } from '../../providers/print/index.js';
import { shopRoutes, shopWebhookRoutes } from './shop.routes.js';
import { ShopService } from './shop.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    shop: ShopService;
  }
}

/** How often the shop's clock finishes abandoned generations and follows open print orders. */
const SWEEP_INTERVAL_MS = 5_000;

/**
 * Wires the shop into the app: the print provider chosen by the config (`PRINT_PROVIDER`), the
 * service (also `app.shop`), its part in billing's payment events, the routes, the webhook and
 * (when this process runs jobs) its clock.
 */
export async function registerShop(app: FastifyInstance, provider?: PrintProvider): Promise<void> {
  const config = app.config.shop;
  const print = provider ?? createPrintProvider(config.print);
  const service = new ShopService({
    db: app.db,
    storage: app.storage,
    print,
    images: app.images,
    billing: app.billing,
    log: app.log,
    sellerSharePercent: config.sellerSharePercent,
    visitorSecret: app.config.jwtSecret,
    // The local timeline is a clock: read it at each look. Printify is polled behind webhooks.
    orderPollMs: config.print.provider === 'printify' ? config.print.pollMs : 0,
  });
  app.decorate('shop', service);
  app.billing.setShopHooks({
    onPaid: (tx, order, address) => service.onPaid(tx, order, address),
    afterPaid: (orderId) => service.afterPaid(orderId),
    onRefunded: (tx, order) => service.onRefunded(tx, order),
    afterRefunded: (row) => service.afterRefunded(row),
    describeOrders: (ids) => service.describeOrders(ids),
    refreshOrdersOf: (userId) => service.refreshOrdersOf(userId),
    sellerEarnings: (userId) => service.sellerEarnings(userId),
  });
  app.log.info(`shop: print provider ${print.kind}${print.kind === 'local' ? ' (test mode)' : ''}`);
  await app.register(shopRoutes(service), { prefix: '/api/v1' });
  await app.register(shopWebhookRoutes(service), { prefix: '/api/v1' });
  if (app.config.jobsEnabled) {
    let timer: NodeJS.Timeout | undefined;
    let running = false;
    const tick = () => {
      if (running) return;
      running = true;
      void app.database
        .withLock('chapterwise:shop-clock', () => service.sweep().then(() => {}))
        .catch((error: unknown) => app.log.error({ err: error }, 'shop clock failed'))
        .finally(() => {
          running = false;
        });
    };
    app.addHook('onReady', async () => {
      timer = setInterval(tick, SWEEP_INTERVAL_MS);
      timer.unref();
    });
    app.addHook('onClose', async () => {
      if (timer) clearInterval(timer);
    });
  }
  app.addHook('onClose', async () => {
    await service.close();
  });
}
