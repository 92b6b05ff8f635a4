import type { AspectRatio, SubjectClass, UpscaleFactor } from '@chapterwise/shared';

/**
 * The image provider: text to image, upscaling and fine-tuning ("training") of a custom
 * model. Adapters: `local` (offline, the default: deterministic illustrations labelled
 * "offline preview", real resampling) and `replicate` (Replicate's HTTP API). Neither touches
 * our database or storage: the images module stores what they return. The print-on-demand
 * shop (issue 17) uses the same interface for its product pictures.
 */
export interface ImageProvider {
  readonly kind: 'local' | 'replicate';
  /** Whether runs finish asynchronously (webhooks or polling) rather than inside `start`. */
  readonly isAsync: boolean;
  /**
   * Starts a run. Local runs do the work and return it finished; remote runs return their id
   * and `running` (the caller then waits for a webhook or polls `get`).
   */
  start(task: ImageTask, options?: StartOptions): Promise<RunState>;
  /** The current state of a remote run. */
  get(type: TaskType, id: string): Promise<RunState>;
  /** Asks the provider to stop a run (a finished one stays finished). */
  cancel(type: TaskType, id: string): Promise<void>;
  /** The bytes of an output, whatever the adapter returned (never hot-linked). */
  download(output: OutputRef, signal?: AbortSignal): Promise<Buffer>;
  /**
   * Checks a webhook delivery's signature and age and reads it; throws
   * `ImageWebhookError` when it does not check out. Adapters without webhooks throw too.
   */
  verifyWebhook(headers: WebhookHeaders, rawBody: Buffer, nowSeconds?: number): WebhookDelivery;
}

export type TaskType = 'generate' | 'upscale' | 'train';

/** Which model a generation uses. */
export type ModelRef =
  | {
      kind: 'base';
      /** Our id (`base-…`). */
      id: string;
      /** Replicate's `owner/name` or `owner/name:version`. */
      providerModel: string;
      /** A style phrase the local engine adds to the prompt's words. */
      styleWords: string[];
    }
  | {
      kind: 'custom';
      id: string;
      triggerWord: string;
      subjectClass: SubjectClass;
      /** Colours of the training photos (`#rrggbb`), used by the local engine. */
      palette: string[];
      /** The trained version at the provider (`owner/name:version`); null for local models. */
      providerVersion: string | null;
    };

export interface GenerateTask {
  type: 'generate';
  prompt: string;
  negativePrompt: string;
  numImages: number;
  aspectRatio: AspectRatio;
  width: number;
  height: number;
  model: ModelRef;
  /** Makes a run repeatable (the local engine's images depend only on prompt, model, seed). */
  seed: number;
}

export interface UpscaleTask {
  type: 'upscale';
  /** The image to enlarge (PNG or JPEG bytes). */
  image: Buffer;
  scale: UpscaleFactor;
}

export interface TrainTask {
  type: 'train';
  /** Our model id (names the destination model at the provider). */
  modelId: string;
  ownerId: string;
  name: string;
  triggerWord: string;
  subjectClass: SubjectClass;
  /** Normalised training photos (JPEG, EXIF stripped). */
  photos: Buffer[];
}

export type ImageTask = GenerateTask | UpscaleTask | TrainTask;

export interface StartOptions {
  /** Where the provider should send its webhook (remote adapters). */
  webhookUrl?: string | undefined;
  /** Training progress, 0–100 (the local adapter reports it as it goes). */
  onProgress?: ((percent: number) => Promise<void> | void) | undefined;
  signal?: AbortSignal | undefined;
}

export type OutputRef = { data: Buffer } | { url: string };

export interface RunState {
  /** The provider's id of the run. */
  id: string;
  status: 'running' | 'succeeded' | 'failed' | 'canceled';
  error?: string | undefined;
  /** Images (generate, upscale) when succeeded. */
  outputs?: OutputRef[] | undefined;
  /** Training: the trained model's version (`owner/name:version`) when succeeded. */
  version?: string | null | undefined;
  /** Training: a cover picture and the photos' colours. */
  cover?: Buffer | undefined;
  palette?: string[] | undefined;
  progress?: number | undefined;
}

export type WebhookHeaders = Record<string, string | string[] | undefined>;

export interface WebhookDelivery {
  /** The delivery's id (`webhook-id`): each is applied once. */
  eventId: string;
  type: TaskType;
  state: RunState;
}

/** A webhook whose signature, age or body does not check out (answered 400). */
export class ImageWebhookError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageWebhookError';
  }
}

/**
 * The provider refused a run or could not be reached. `retryAfterSeconds` is set when it asked
 * us to slow down (429); `userMessage` is safe to show (a 422's validation detail).
 */
export class ImageProviderError extends Error {
  constructor(
    message: string,
    readonly options: {
      status?: number | undefined;
      retryAfterSeconds?: number | undefined;
      transient?: boolean | undefined;
      cause?: unknown;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'ImageProviderError';
  }
  get transient(): boolean {
    return this.options.transient ?? false;
  }
}
