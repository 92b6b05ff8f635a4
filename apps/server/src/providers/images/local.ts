import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { makeCover, photoPalette, renderIllustration, upscaleImage } from './local-render.js';
import {
  ImageProviderError,
  ImageWebhookError,
  type ImageProvider,
  type ImageTask,
  type OutputRef,
  type RunState,
  type StartOptions,
  type WebhookDelivery,
} from './types.js';

export interface LocalImageOptions {
  /** How long a "training" takes, in ms (spread over its progress steps). */
  trainingMs: number;
}

const TRAINING_STEPS = 10;

/**
 * The offline image engine (the default). Honest about what it is: generation draws a
 * deterministic illustration from the prompt's words, labelled "offline preview"; training
 * keeps the photos' colours and makes a cover from them; upscaling really resamples. Runs end
 * inside `start`, so there is nothing to poll and no webhook.
 */
export class LocalImageProvider implements ImageProvider {
  readonly kind = 'local' as const;
  readonly isAsync = false;

  constructor(private readonly options: LocalImageOptions) {}

  async start(task: ImageTask, options: StartOptions = {}): Promise<RunState> {
    const id = `local-${randomUUID()}`;
    if (task.type === 'generate') {
      const modelWords =
        task.model.kind === 'base'
          ? task.model.styleWords
          : [task.model.triggerWord, task.model.subjectClass];
      const palette = task.model.kind === 'custom' ? task.model.palette : [];
      const outputs: OutputRef[] = [];
      for (let index = 0; index < task.numImages; index++) {
        options.signal?.throwIfAborted();
        const data = await renderIllustration({
          prompt: task.prompt,
          width: task.width,
          height: task.height,
          seed: (task.seed + index * 7919) >>> 0,
          modelWords,
          palette,
        });
        outputs.push({ data });
      }
      return { id, status: 'succeeded', outputs };
    }
    if (task.type === 'upscale') {
      try {
        const { data } = await upscaleImage(task.image, task.scale);
        return { id, status: 'succeeded', outputs: [{ data }] };
      } catch {
        return { id, status: 'failed', error: 'The image could not be enlarged.' };
      }
    }
    if (task.photos.length === 0)
      return { id, status: 'failed', error: 'There are no photos to learn from.' };
    const palette = await photoPalette(task.photos);
    const cover = await makeCover(task.photos);
    const pause = this.options.trainingMs / TRAINING_STEPS;
    for (let step = 1; step <= TRAINING_STEPS; step++) {
      options.signal?.throwIfAborted();
      if (pause > 0) await sleep(pause);
      await options.onProgress?.(Math.round((step * 100) / TRAINING_STEPS));
    }
    return { id, status: 'succeeded', cover, palette, version: null };
  }

  get(): Promise<RunState> {
    return Promise.reject(
      new ImageProviderError('Offline runs finish when they start; there is nothing to look up.'),
    );
  }

  async cancel(): Promise<void> {
    // Nothing runs in the background here.
  }

  async download(output: OutputRef): Promise<Buffer> {
    if ('data' in output) return output.data;
    throw new ImageProviderError('The offline engine does not download images.');
  }

  verifyWebhook(): WebhookDelivery {
    throw new ImageWebhookError('The offline image engine takes no webhooks.');
  }
}
