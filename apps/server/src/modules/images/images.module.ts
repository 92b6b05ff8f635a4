import type { FastifyInstance } from 'fastify';
import { createImageProvider, type ImageProvider } from '../../providers/images/index.js';
import { imagesRoutes, imagesWebhookRoutes } from './images.routes.js';
import { IMAGES_QUEUE, ImagesService } from './images.service.js';

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
  app.addHook('onClose', async () => {
    await service.close();
  });
  await app.register(imagesRoutes(service), { prefix: '/api/v1' });
  await app.register(imagesWebhookRoutes(service), { prefix: '/api/v1' });
}
