import type { ImagesConfig } from '../../config.js';
import { LocalImageProvider } from './local.js';
import { ReplicateImageProvider } from './replicate.js';
import type { ImageProvider } from './types.js';

export * from './types.js';
export { LocalImageProvider } from './local.js';
export { ReplicateImageProvider, WEBHOOK_TOLERANCE_SECONDS } from './replicate.js';
export { normalisePhoto, PhotoError, sniffPhoto } from './photos.js';

/** Chooses the image adapter once, from config (`IMAGE_PROVIDER=local|replicate`). */
export function createImageProvider(config: ImagesConfig): ImageProvider {
  return config.provider === 'replicate'
    ? new ReplicateImageProvider(config)
    : new LocalImageProvider({ trainingMs: config.trainingMs });
}
