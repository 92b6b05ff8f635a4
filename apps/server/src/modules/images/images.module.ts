import type { FastifyInstance } from 'fastify';
import { createImageProvider, type ImageProvider } from '../../providers/images/index.js';
import { imagesRoutes, imagesWebhookRoutes } from './images.routes.js';
import { IMAGES_QUEUE, IMAGES_SWEEP_QUEUE, ImagesService } from './images.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    images: ImagesService;
  }
}

/**
 * Wires the image studio into the app: the provider chosen by the config (`IMAGE_PROVIDER`),
 * the service (also `app.images`, for tests and the shop), its job handler, the webhook and the
 * routes under /api/v1.
 */
export async function registerImages(
  app: FastifyInstance,
  provider?: ImageProvider,
): Promise<void> {
  const config = app.config.images;
  const chosen = provider ?? createImageProvider(config);
  const service = new ImagesService({
    db: app.db,
    jobs: app.jobs,
    provider: chosen,
    storage: app.storage,
    log: app.log,
    webhookUrl:
      config.provider === 'replicate' && config.webhookSecret
        ? `${app.config.publicUrl}/api/v1/models/webhook/replicate`
        : undefined,
    pollMs: config.provider === 'replicate' ? config.pollMs : 1000,
  });
  if (config.provider === 'replicate') service.baseProviderModel = config.models.generate;
  app.decorate('images', service);
  app.jobs.define<{ kind: 'prediction' | 'upscale' | 'training'; id: string; poll?: number }>(
    IMAGES_QUEUE,
    async (data) => {
      await service.runJob(data);
    },
  );
  // The sweep of runs a crash or restart left behind: a pg-boss job at boot and every minute
  // (once per tick across instances). Without the queue (the embedded database with
  // JOBS_ENABLED=false), this process sweeps its own in-process runs at boot and every minute.
  const sweep = async () => {
    await service.recoverStalled();
  };
  app.jobs.define(IMAGES_SWEEP_QUEUE, sweep);
  let timer: NodeJS.Timeout | undefined;
  if (app.config.jobsEnabled) {
    app.jobs.every(IMAGES_SWEEP_QUEUE, '* * * * *');
    app.jobs.whenStarted(() => app.jobs.send(IMAGES_SWEEP_QUEUE, {}));
  } else if (app.database.kind === 'pglite' && app.config.env !== 'test') {
    const run = () =>
      void sweep().catch((error: unknown) => app.log.error({ err: error }, 'image sweep failed'));
    app.addHook('onReady', async () => {
      setTimeout(run, 1000).unref();
      timer = setInterval(run, 60_000);
      timer.unref();
    });
  }
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    await service.close();
  });
  await app.register(imagesRoutes(service), { prefix: '/api/v1' });
  await app.register(imagesWebhookRoutes(service), { prefix: '/api/v1' });
}
