import { createHmac, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { zipFiles } from './zip.js';
import {
  ImageProviderError,
  ImageWebhookError,
  type ImageProvider,
  type ImageTask,
  type OutputRef,
  type RunState,
  type StartOptions,
  type TaskType,
  type WebhookDelivery,
  type WebhookHeaders,
} from './types.js';

export interface ReplicateOptions {
  apiToken: string;
  /** `whsec_…`: verifies webhook deliveries; without it we only poll. */
  webhookSecret: string | undefined;
  /** The account that owns the teachers' trained models (destination models). */
  owner: string | undefined;
  models: { generate: string; upscale: string; trainer: string };
  apiBase: string;
  /** How long one HTTP call may take. */
  timeoutMs?: number;
  /** Retries of a throttled (429) or unavailable (5xx) call before giving up. */
  maxRetries?: number;
}

/** Deliveries older (or newer) than this are refused: a replay of an old capture fails. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
/** Outputs larger than this are not downloaded. */
const MAX_OUTPUT_BYTES = 60 * 1024 * 1024;

interface ReplicateRun {
  id: string;
  status: 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled' | 'aborted';
  output?: unknown;
  error?: unknown;
  logs?: string | null;
  urls?: { get?: string };
}

/**
 * Replicate (https://replicate.com/docs/reference/http): predictions with the configured
 * text-to-image model, upscaling with the configured upscaler, and LoRA fine-tuning ("trainings")
 * into one private destination model per teacher's model. Webhooks carry the results (signed as
 * Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`); the caller polls
 * `get` when none arrives. Outputs are downloaded by the caller into our storage.
 */
export class ReplicateImageProvider implements ImageProvider {
  readonly kind = 'replicate' as const;
  readonly isAsync = true;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;

  constructor(private readonly options: ReplicateOptions) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.maxRetries = options.maxRetries ?? 3;
  }

  async start(task: ImageTask, options: StartOptions = {}): Promise<RunState> {
    const hook = options.webhookUrl
      ? { webhook: options.webhookUrl, webhook_events_filter: ['completed'] }
      : {};
    if (task.type === 'generate') {
      const modelName =
        task.model.kind === 'base' ? task.model.providerModel : task.model.providerVersion;
      if (!modelName)
        throw new ImageProviderError('This model has no trained version at Replicate.');
      let prompt = task.prompt;
      if (task.model.kind === 'base' && task.model.styleWords.length) {
        prompt = `${prompt}, ${task.model.styleWords.join(' ')}`;
      }
      const input: Record<string, unknown> = {
        prompt,
        num_outputs: task.numImages,
        aspect_ratio: task.aspectRatio,
        output_format: 'png',
        seed: task.seed,
      };
      if (task.negativePrompt) input.negative_prompt = task.negativePrompt;
      const run = await this.createPrediction(modelName, { input, ...hook }, options.signal);
      return this.toState(run, 'generate');
    }
    if (task.type === 'upscale') {
      const image = await this.uploadFile(task.image, 'image.png', 'image/png', options.signal);
      const run = await this.createPrediction(
        this.options.models.upscale,
        { input: { image, scale: task.scale, face_enhance: false }, ...hook },
        options.signal,
      );
      return this.toState(run, 'upscale');
    }
    if (!this.options.owner) {
      throw new ImageProviderError(
        'REPLICATE_OWNER is not set: there is no account to train models into.',
      );
    }
    const destination = `${this.options.owner}/cw-${task.modelId}`;
    await this.ensureModel(destination, options.signal);
    const zip = zipFiles(
      task.photos.map((data, i) => ({ name: `photo-${String(i + 1).padStart(2, '0')}.jpg`, data })),
    );
    const images = await this.uploadFile(zip, 'photos.zip', 'application/zip', options.signal);
    const [trainerModel, trainerVersion] = this.options.models.trainer.split(':') as [
      string,
      string,
    ];
    const run = await this.call<ReplicateRun>(
      'POST',
      `/v1/models/${trainerModel}/versions/${trainerVersion}/trainings`,
      {
        destination,
        input: { input_images: images, trigger_word: task.triggerWord, autocaption: true },
        ...hook,
      },
      options.signal,
    );
    return this.toState(run, 'train');
  }

  async get(type: TaskType, id: string): Promise<RunState> {
    const path =
      type === 'train'
        ? `/v1/trainings/${encodeURIComponent(id)}`
        : `/v1/predictions/${encodeURIComponent(id)}`;
    return this.toState(await this.call<ReplicateRun>('GET', path), type);
  }

  async cancel(type: TaskType, id: string): Promise<void> {
    const path =
      type === 'train'
        ? `/v1/trainings/${encodeURIComponent(id)}/cancel`
        : `/v1/predictions/${encodeURIComponent(id)}/cancel`;
    await this.call('POST', path);
  }

  async download(output: OutputRef, signal?: AbortSignal): Promise<Buffer> {
    if ('data' in output) return output.data;
    const url = new URL(output.url);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new ImageProviderError('An output is not an http(s) address.');
    }
    const api = new URL(this.options.apiBase);
    const headers: Record<string, string> = {};
    // Files kept by Replicate's API need the token; delivery CDN addresses must not get it.
    if (url.host === api.host && url.pathname.startsWith('/v1/files/'))
      headers.authorization = `Bearer ${this.options.apiToken}`;
    const response = await fetch(url, {
      headers,
      signal: signal
        ? AbortSignal.any([signal, AbortSignal.timeout(120_000)])
        : AbortSignal.timeout(120_000),
    }).catch((error: unknown) => {
      throw new ImageProviderError('An output could not be downloaded.', {
        cause: error,
        transient: true,
      });
    });
    if (!response.ok) {
      throw new ImageProviderError(`An output could not be downloaded (HTTP ${response.status}).`, {
        status: response.status,
        transient: response.status >= 500,
      });
    }
    const length = Number(response.headers.get('content-length') ?? 0);
    if (length > MAX_OUTPUT_BYTES) throw new ImageProviderError('An output is too large to keep.');
    const body = Buffer.from(await response.arrayBuffer());
    if (body.length > MAX_OUTPUT_BYTES)
      throw new ImageProviderError('An output is too large to keep.');
    return body;
  }

  verifyWebhook(
    headers: WebhookHeaders,
    rawBody: Buffer,
    nowSeconds = Math.floor(Date.now() / 1000),
  ): WebhookDelivery {
    const secret = this.options.webhookSecret;
    if (!secret) throw new ImageWebhookError('Webhooks are not set up (REPLICATE_WEBHOOK_SECRET).');
    const header = (name: string) => {
      const value = headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const id = header('webhook-id');
    const timestamp = header('webhook-timestamp');
    const signatures = header('webhook-signature');
    if (!id || !timestamp || !signatures)
      throw new ImageWebhookError('The webhook signature headers are missing.');
    if (!/^\d{1,12}$/.test(timestamp))
      throw new ImageWebhookError('The webhook timestamp is not a number.');
    if (Math.abs(nowSeconds - Number(timestamp)) > WEBHOOK_TOLERANCE_SECONDS) {
      throw new ImageWebhookError('The webhook is too old (or from the future).');
    }
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key)
      .update(`${id}.${timestamp}.`)
      .update(rawBody)
      .digest();
    const valid = signatures.split(' ').some((entry) => {
      const [version, signature] = entry.split(',');
      if (version !== 'v1' || !signature) return false;
      const given = Buffer.from(signature, 'base64');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
    if (!valid) throw new ImageWebhookError('The webhook signature does not match.');
    let run: ReplicateRun;
    try {
      run = JSON.parse(rawBody.toString('utf8')) as ReplicateRun;
    } catch {
      throw new ImageWebhookError('The webhook body is not JSON.');
    }
    if (!run || typeof run.id !== 'string' || typeof run.status !== 'string') {
      throw new ImageWebhookError('The webhook body is not a prediction or a training.');
    }
    const type: TaskType = run.urls?.get?.includes('/trainings/') ? 'train' : 'generate';
    return { eventId: id, type, state: this.toState(run, type) };
  }

  /* ------------------------------------------------------------------------------------- */

  private toState(run: ReplicateRun, type: TaskType): RunState {
    const status =
      run.status === 'succeeded'
        ? 'succeeded'
        : run.status === 'failed'
          ? 'failed'
          : run.status === 'canceled' || run.status === 'aborted'
            ? 'canceled'
            : 'running';
    const state: RunState = { id: run.id, status };
    if (status === 'failed')
      state.error =
        typeof run.error === 'string' && run.error
          ? run.error.slice(0, 300)
          : 'The image service could not finish this run.';
    if (status === 'canceled') state.error = 'The run was canceled.';
    if (status === 'succeeded') {
      if (type === 'train') {
        const output = run.output as { version?: unknown } | null | undefined;
        state.version = typeof output?.version === 'string' ? output.version : null;
        if (!state.version) {
          state.status = 'failed';
          state.error = 'The training finished without a model version.';
        }
      } else {
        const urls = (Array.isArray(run.output) ? run.output : [run.output]).filter(
          (value): value is string => typeof value === 'string' && /^https?:\/\//.test(value),
        );
        state.outputs = urls.map((url) => ({ url }));
        if (!urls.length) {
          state.status = 'failed';
          state.error = 'The image service returned no image.';
        }
      }
    }
    return state;
  }

  private createPrediction(
    model: string,
    body: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<ReplicateRun> {
    const [name, version] = model.split(':');
    if (version)
      return this.call<ReplicateRun>('POST', '/v1/predictions', { version, ...body }, signal);
    return this.call<ReplicateRun>('POST', `/v1/models/${name}/predictions`, body, signal);
  }

  /** Creates the destination model once (an existing one is fine). */
  private async ensureModel(destination: string, signal?: AbortSignal): Promise<void> {
    const [owner, name] = destination.split('/') as [string, string];
    try {
      await this.call('GET', `/v1/models/${owner}/${name}`, undefined, signal);
      return;
    } catch (error) {
      if (!(error instanceof ImageProviderError) || error.options.status !== 404) throw error;
    }
    await this.call(
      'POST',
      '/v1/models',
      {
        owner,
        name,
        visibility: 'private',
        hardware: 'gpu-t4',
        description: 'A Chapterwise teacher’s custom image model',
      },
      signal,
    );
  }

  /** Uploads bytes to Replicate's file store; answers the address a run's input may name. */
  private async uploadFile(
    data: Buffer,
    name: string,
    type: string,
    signal?: AbortSignal,
  ): Promise<string> {
    const form = new FormData();
    form.append('content', new Blob([new Uint8Array(data)], { type }), name);
    const file = await this.call<{ urls?: { get?: string } }>('POST', '/v1/files', form, signal);
    if (!file.urls?.get)
      throw new ImageProviderError('Replicate kept no address for an uploaded file.');
    return file.urls.get;
  }

  /** One API call, retried on 429 (after `retry_after`) and 5xx; errors become ImageProviderError. */
  private async call<T>(
    method: string,
    path: string,
    body?: unknown,
    signal?: AbortSignal,
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = { authorization: `Bearer ${this.options.apiToken}` };
      let payload: FormData | string | undefined;
      if (body instanceof FormData) payload = body;
      else if (body !== undefined) {
        headers['content-type'] = 'application/json';
        payload = JSON.stringify(body);
      }
      const timeout = AbortSignal.timeout(this.timeoutMs);
      let response: Response;
      try {
        response = await fetch(`${this.options.apiBase}${path}`, {
          method,
          headers,
          body: payload,
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (error) {
        if (attempt < this.maxRetries && !signal?.aborted) {
          await sleep(500 * 2 ** attempt);
          continue;
        }
        throw new ImageProviderError('The image service could not be reached.', {
          cause: error,
          transient: true,
        });
      }
      const text = await response.text();
      let json: Record<string, unknown> = {};
      try {
        json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      } catch {
        json = {};
      }
      if (response.ok) return json as T;
      const detail = typeof json.detail === 'string' ? json.detail : `HTTP ${response.status}`;
      if (response.status === 429 || response.status >= 500) {
        const retryAfter =
          typeof json.retry_after === 'number'
            ? json.retry_after
            : Number(response.headers.get('retry-after')) || 2 ** attempt;
        if (attempt < this.maxRetries) {
          await sleep(Math.min(30, Math.max(0, retryAfter)) * 1000, undefined, { signal });
          continue;
        }
        throw new ImageProviderError(
          response.status === 429
            ? 'The image service is busy. Please try again in a minute.'
            : 'The image service is not available right now.',
          { status: response.status, retryAfterSeconds: retryAfter, transient: true },
        );
      }
      if (response.status === 422) {
        throw new ImageProviderError(`The image service refused the request: ${detail}`, {
          status: 422,
        });
      }
      throw new ImageProviderError(`The image service answered ${response.status}: ${detail}`, {
        status: response.status,
      });
    }
  }
}
