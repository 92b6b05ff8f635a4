import type { FastifyBaseLogger } from 'fastify';
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import {
  ASPECT_SIZES,
  blockedWordMessage,
  findBlockedWord,
  IMAGE_LIMITS,
  slugify,
  type AspectRatio,
  type GeneratedImage,
  type ImageModel,
  type Prediction,
  type PredictionPage,
  type SubjectClass,
  type Upscale,
  type UpscaleFactor,
  type UserPost,
} from '@chapterwise/shared';
import type { Db } from '../../db/client.js';
import type {
  GeneratedImageRow,
  ImageModelRow,
  ImagePredictionRow,
  ImageUpscaleRow,
  UserRow,
} from '../../db/schema/index.js';
import type { JobQueue } from '../../jobs/queue.js';
import { badRequest, conflict, notFound, paymentRequired, unauthorized } from '../../lib/errors.js';
import {
  ImageProviderError,
  ImageWebhookError,
  type ImageProvider,
  type ModelRef,
  type RunState,
  type TaskType,
  type WebhookHeaders,
} from '../../providers/images/index.js';
import type { Storage } from '../../providers/storage/index.js';
import * as repo from './images.repository.js';

export const IMAGES_QUEUE = 'images-run';
/** The sweep of interrupted runs (at boot and every minute). */
export const IMAGES_SWEEP_QUEUE = 'images-sweep';

export interface ImagesServiceDeps {
  db: Db;
  jobs: JobQueue;
  provider: ImageProvider;
  storage: Storage;
  log: FastifyBaseLogger;
  /** Where the provider sends webhooks; undefined: poll only. */
  webhookUrl: string | undefined;
  /** Between polls of a remote run. */
  pollMs: number;
  /** Runs still unfinished after this long are canceled and refunded. */
  maxRunMs?: number;
  /** How long a local run or a remote start may take before the sweep thinks it died. */
  leaseMs?: number;
}

/** Times a run may be started (each start after an interruption counts) before it fails. */
export const MAX_RUN_ATTEMPTS = 3;
/** A queued run whose job has not started after this long has lost its job. */
const QUEUED_GRACE_MS = 5 * 60_000;

export interface BaseModel {
  id: string;
  name: string;
  description: string;
  styleWords: string[];
}

/** The models everyone may use (spec: getbasedreamboothmodels). */
export const BASE_MODELS: BaseModel[] = [
  {
    id: 'base-illustration',
    name: 'Storybook Illustration',
    description: 'Warm, friendly pictures for stories, worksheets and classroom displays.',
    styleWords: ['storybook', 'illustration'],
  },
  {
    id: 'base-watercolour',
    name: 'Watercolour',
    description: 'Soft painted scenes: landscapes, seasons, nature studies.',
    styleWords: ['watercolour', 'painting'],
  },
  {
    id: 'base-poster',
    name: 'Classroom Poster',
    description: 'Bold flat shapes and colours for posters and slides.',
    styleWords: ['flat', 'poster', 'design'],
  },
];

export interface UploadedPhoto {
  fileName: string;
  data: Buffer;
}

type RunKind = 'prediction' | 'upscale' | 'training';
interface RunJob {
  kind: RunKind;
  id: string;
  poll?: number;
}

/**
 * The image studio: custom models, predictions, upscales and profile posts. Credits are taken
 * in the transaction that records a run and given back when it fails. Runs go through the
 * image provider as background work: a pg-boss job when this process runs the queue, else in
 * this process. Remote runs end by a verified webhook or by polling, whichever comes first;
 * every ending is a conditional update, so it is applied once.
 */
export class ImagesService {
  private readonly inFlight = new Set<Promise<void>>();
  /** Waiting work in this process, with what ends the wait early (shutdown). */
  private readonly timers = new Map<NodeJS.Timeout, () => void>();
  private closed = false;

  constructor(private readonly deps: ImagesServiceDeps) {}

  private get db() {
    return this.deps.db;
  }

  get engine(): string {
    return this.deps.provider.kind;
  }

  /* ----------------------------------------------------------------------------------------- */
  /* Background work                                                                            */
  /* ----------------------------------------------------------------------------------------- */

  private async schedule(job: RunJob, delayMs = 0): Promise<void> {
    if (this.closed) return;
    if (this.deps.jobs.isStarted) {
      await this.deps.jobs.send(IMAGES_QUEUE, job, {
        startAfter: Math.ceil(delayMs / 1000),
        retryLimit: 2,
        retryDelay: 5,
        expireInSeconds: 15 * 60,
      });
      return;
    }
    // In this process: the work is tracked from now on, so `idle()` waits for it too.
    const promise = new Promise<void>((resolve) => {
      const timer = setTimeout(
        () => {
          this.timers.delete(timer);
          resolve();
        },
        Math.max(0, delayMs),
      );
      this.timers.set(timer, resolve);
    })
      .then(() => (this.closed ? undefined : this.runJob(job)))
      .catch((error: unknown) => this.deps.log.error({ err: error, job }, 'image job failed'))
      .finally(() => this.inFlight.delete(promise));
    this.inFlight.add(promise);
  }

  /** Waits until no image work runs in this process (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  async close(): Promise<void> {
    this.closed = true;
    // Waiting polls are dropped (a later start's sweep or the webhook finishes them).
    for (const [timer, resolve] of this.timers) {
      clearTimeout(timer);
      resolve();
    }
    this.timers.clear();
    await this.idle();
  }

  /** The job handler: starts a queued run, or polls a remote one. */
  async runJob(job: RunJob): Promise<void> {
    if (job.poll) return this.poll(job);
    if (job.kind === 'prediction') return this.runPrediction(job.id);
    if (job.kind === 'upscale') return this.runUpscale(job.id);
    return this.runTraining(job.id);
  }

  private startOptions() {
    return { webhookUrl: this.deps.webhookUrl };
  }

  private userMessage(error: unknown, fallback: string): string {
    if (error instanceof ImageProviderError) return error.message;
    return fallback;
  }

  /** After a remote start: poll later (a webhook may end it first). */
  private async afterStart(kind: RunKind, id: string, state: RunState): Promise<void> {
    if (state.status === 'running') {
      await this.schedule({ kind, id, poll: 1 }, this.deps.pollMs);
      return;
    }
    await this.applyState(kind, id, state);
  }

  private async poll(job: RunJob): Promise<void> {
    const type: TaskType =
      job.kind === 'prediction' ? 'generate' : job.kind === 'upscale' ? 'upscale' : 'train';
    const row =
      job.kind === 'prediction'
        ? await repo.findPrediction(this.db, job.id)
        : job.kind === 'upscale'
          ? await repo.findUpscale(this.db, job.id)
          : await repo.findModel(this.db, job.id);
    if (!row) return;
    const running =
      'providerTrainingId' in row ? row.status === 'training' : row.status === 'running';
    const providerId = 'providerTrainingId' in row ? row.providerTrainingId : row.providerId;
    if (!running || !providerId) return;
    const tooOld =
      Date.now() - row.createdAt.getTime() > (this.deps.maxRunMs ?? 3 * 60 * 60 * 1000);
    await this.markPolled(job.kind, job.id);
    let state: RunState;
    try {
      state = await this.deps.provider.get(type, providerId);
    } catch (error) {
      this.deps.log.warn({ err: error, job }, 'polling an image run failed; trying again later');
      if (!tooOld) await this.schedule({ ...job, poll: (job.poll ?? 1) + 1 }, this.deps.pollMs * 2);
      else {
        await this.deps.provider.cancel(type, providerId).catch(() => undefined);
        await this.failRun(
          job.kind,
          job.id,
          'The image service did not report on this run for too long, so it was stopped.',
        );
      }
      return;
    }
    if (state.status === 'running' && tooOld) {
      await this.deps.provider.cancel(type, providerId).catch(() => undefined);
      state = { ...state, status: 'failed', error: 'The run took too long and was stopped.' };
    }
    if (state.status === 'running') {
      if (job.kind === 'training' && state.progress !== undefined) {
        await repo.updateModel(this.db, job.id, { progress: state.progress });
      }
      await this.schedule({ ...job, poll: (job.poll ?? 1) + 1 }, this.deps.pollMs);
      return;
    }
    await this.applyState(job.kind, job.id, state);
  }

  private async markPolled(kind: RunKind, id: string): Promise<void> {
    const lastPolledAt = new Date();
    if (kind === 'prediction') await repo.setPredictionProvider(this.db, id, { lastPolledAt });
    else if (kind === 'upscale') await repo.setUpscaleProvider(this.db, id, { lastPolledAt });
    else await repo.updateModel(this.db, id, { lastPolledAt });
  }

  /**
   * How long a claimed run may go without the provider's id before the sweep takes it for dead:
   * a local training takes its configured time; everything else starts within seconds.
   */
  private leaseMs(kind: RunKind): number {
    if (this.deps.leaseMs !== undefined) return this.deps.leaseMs;
    return kind === 'training' ? 15 * 60_000 : 10 * 60_000;
  }

  /**
   * The sweep (at boot and every minute): finds runs a crash, a restart or a lost job left
   * behind and finishes them. A queued run whose job was lost is queued again; a run
   * interrupted while starting (no provider id, lease over) is started again, up to
   * MAX_RUN_ATTEMPTS starts, then fails with its credits given back; a run the provider has
   * is polled again (the poll fails and refunds runs older than the longest run allowed, or
   * made by an image service this server no longer uses). Everything it changes is
   * conditional, so two sweeps at once change things once.
   */
  async recoverStalled(): Promise<{ requeued: number; resumed: number; failed: number }> {
    const now = Date.now();
    const stalled = await repo.findStalledRuns(this.db, {
      queuedBefore: new Date(now - QUEUED_GRACE_MS),
      polledBefore: new Date(now - Math.max(60_000, this.deps.pollMs * 6)),
    });
    const result = { requeued: 0, resumed: 0, failed: 0 };
    const runs: Array<{
      kind: RunKind;
      id: string;
      queued: boolean;
      providerId: string | null;
      attempts: number;
      engine: string;
    }> = [
      ...stalled.models.map((row) => ({
        kind: 'training' as const,
        id: row.id,
        queued: row.status === 'queued',
        providerId: row.providerTrainingId,
        attempts: row.attempts,
        engine: row.engine,
      })),
      ...stalled.predictions.map((row) => ({
        kind: 'prediction' as const,
        id: row.id,
        queued: row.status === 'queued',
        providerId: row.providerId,
        attempts: row.attempts,
        engine: row.engine,
      })),
      ...stalled.upscales.map((row) => ({
        kind: 'upscale' as const,
        id: row.id,
        queued: row.status === 'queued',
        providerId: row.providerId,
        attempts: row.attempts,
        engine: row.engine,
      })),
    ];
    for (const run of runs) {
      try {
        if (run.queued) {
          await this.schedule({ kind: run.kind, id: run.id });
          result.requeued += 1;
        } else if (run.providerId && run.engine !== this.engine) {
          await this.failRun(
            run.kind,
            run.id,
            'The image service this run was sent to is no longer used by this site.',
          );
          result.failed += 1;
        } else if (run.providerId) {
          await this.markPolled(run.kind, run.id);
          await this.schedule({ kind: run.kind, id: run.id, poll: 1 });
          result.resumed += 1;
        } else if (run.attempts >= MAX_RUN_ATTEMPTS) {
          await this.failRun(
            run.kind,
            run.id,
            `The ${run.kind === 'training' ? 'training' : run.kind === 'upscale' ? 'enlargement' : 'generation'} was interrupted ${run.attempts} times (the server restarted) and was stopped.`,
          );
          result.failed += 1;
        } else if (await repo.requeueRun(this.db, run.kind, run.id)) {
          await this.schedule({ kind: run.kind, id: run.id });
          result.requeued += 1;
        }
      } catch (error) {
        this.deps.log.error({ err: error, run }, 'could not recover an image run');
      }
    }
    if (runs.length) this.deps.log.warn(result, 'recovered interrupted image runs');
    return result;
  }

  /** Fails a run with a reason and gives its credits back (once). */
  private async failRun(kind: RunKind, id: string, reason: string): Promise<void> {
    if (kind === 'training') {
      await repo.failModel(
        this.db,
        id,
        `${reason} Your model training credit has been given back.`,
      );
    } else if (kind === 'upscale') {
      await repo.failUpscale(this.db, id, `${reason} Your credit has been given back.`);
    } else {
      await repo.failPrediction(this.db, id, `${reason} Your credits have been given back.`);
    }
  }

  /** Ends a run with the provider's final state (once: later deliveries change nothing). */
  private async applyState(kind: RunKind, id: string, state: RunState): Promise<void> {
    if (kind === 'prediction') return this.finishPrediction(id, state);
    if (kind === 'upscale') return this.finishUpscale(id, state);
    return this.finishTraining(id, state);
  }

  /* ----------------------------------------------------------------------------------------- */
  /* Webhooks                                                                                   */
  /* ----------------------------------------------------------------------------------------- */

  /**
   * A provider webhook: verified (400 when it does not check out), applied once per delivery
   * id, to the run it names. Unknown runs are acknowledged and ignored.
   */
  async receiveWebhook(
    headers: WebhookHeaders,
    rawBody: Buffer,
  ): Promise<'applied' | 'duplicate' | 'ignored'> {
    let delivery;
    try {
      delivery = this.deps.provider.verifyWebhook(headers, rawBody);
    } catch (error) {
      if (error instanceof ImageWebhookError) throw badRequest(error.message);
      throw error;
    }
    if (!(await repo.recordWebhookEvent(this.db, delivery.eventId))) return 'duplicate';
    try {
      const { state } = delivery;
      if (state.status === 'running') return 'ignored';
      if (delivery.type === 'train') {
        const model = await repo.findModelByTraining(this.db, state.id);
        if (!model) return 'ignored';
        await this.finishTraining(model.id, state);
        return 'applied';
      }
      const prediction = await repo.findPredictionByProvider(this.db, state.id);
      if (prediction) {
        await this.finishPrediction(prediction.id, state);
        return 'applied';
      }
      const upscale = await repo.findUpscaleByProvider(this.db, state.id);
      if (upscale) {
        await this.finishUpscale(upscale.id, state);
        return 'applied';
      }
      return 'ignored';
    } catch (error) {
      // Not applied: let the provider's retry of this delivery try again.
      await repo.forgetWebhookEvent(this.db, delivery.eventId);
      throw error;
    }
  }

  /* ----------------------------------------------------------------------------------------- */
  /* Models                                                                                     */
  /* ----------------------------------------------------------------------------------------- */

  baseModels(): { data: ImageModel[]; count: number } {
    const data = BASE_MODELS.map((model) => this.presentBase(model));
    return { data, count: data.length };
  }

  private presentBase(model: BaseModel): ImageModel {
    return {
      _id: model.id,
      name: model.name,
      isBase: true,
      subjectClass: null,
      triggerWord: '',
      description: model.description,
      status: 'ready',
      progress: 100,
      isPrivate: false,
      cover: null,
      photoCount: 0,
      creatorUsername: null,
      createdAt: new Date(0).toISOString(),
      engine: this.engine,
    };
  }

  private presentModel(row: ImageModelRow, username: string | null): ImageModel {
    return {
      _id: row.id,
      name: row.name,
      isBase: false,
      subjectClass: row.subjectClass,
      triggerWord: row.triggerWord,
      description: '',
      status: row.status,
      progress: row.progress,
      ...(row.error ? { error: row.error } : {}),
      isPrivate: row.isPrivate,
      cover: row.coverKey ? this.deps.storage.publicUrl(row.coverKey) : null,
      photoCount: row.photoKeys.length,
      creatorUsername: username,
      createdAt: row.createdAt.toISOString(),
      engine: row.engine,
    };
  }

  async listModels(user: UserRow): Promise<{ data: ImageModel[]; count: number }> {
    const rows = await repo.listModels(this.db, user.id);
    return { data: rows.map((row) => this.presentModel(row, user.username)), count: rows.length };
  }

  /** A model: the owner's, or anyone's public ready model; a base model by its id. */
  async getModel(user: UserRow | null, modelId: string): Promise<ImageModel> {
    const base = BASE_MODELS.find((model) => model.id === modelId);
    if (base) return this.presentBase(base);
    if (!isUuid(modelId)) throw notFound('Model not found.');
    const row = await repo.findModel(this.db, modelId);
    if (!row) throw notFound('Model not found.');
    const own = user && row.userId === user.id;
    if (!own && (row.isPrivate || row.status !== 'ready')) throw notFound('Model not found.');
    const owner = own ? user.username : null;
    return this.presentModel(row, owner);
  }

  /**
   * `POST /models/create`: checks the form and the photos (5–30, each a JPEG, PNG, HEIC or
   * WebP by content, ≤ 15 MB), keeps the photos without their metadata, takes one model
   * training credit (402 without one), and queues the training.
   */
  async createModel(
    user: UserRow,
    fields: { name: string; subjectClass: SubjectClass; triggerWord: string },
    photos: Buffer[],
  ): Promise<ImageModel> {
    for (const [field, value] of [
      ['name', fields.name],
      ['triggerWord', fields.triggerWord],
    ] as const) {
      const word = findBlockedWord(value);
      if (word) throw badRequest(blockedWordMessage(field, word));
    }
    if (photos.length < IMAGE_LIMITS.minPhotos) {
      throw badRequest(
        photos.length === 0
          ? `Invalid field "photos": add ${IMAGE_LIMITS.minPhotos} to ${IMAGE_LIMITS.maxPhotos} photos to train a model.`
          : `Invalid field "photos": add at least ${IMAGE_LIMITS.minPhotos} photos (you added ${photos.length}).`,
      );
    }
    const current = await repo.credits(this.db, user.id);
    if (current.modelTrainingCredits < 1) throw this.noTrainingCredit();
    const modelId = randomUUID();
    const keys: string[] = [];
    try {
      for (const photo of photos) {
        const key = `image-models/${modelId}/photos/${randomBytes(12).toString('hex')}.jpg`;
        await this.deps.storage.put(key, photo, { contentType: 'image/jpeg' });
        keys.push(key);
      }
      const row = await repo.insertModelWithCredit(this.db, {
        id: modelId,
        userId: user.id,
        name: fields.name,
        subjectClass: fields.subjectClass,
        triggerWord: fields.triggerWord,
        engine: this.engine,
        photoKeys: keys,
        status: 'queued',
      });
      if (!row) throw this.noTrainingCredit();
      await this.schedule({ kind: 'training', id: row.id });
      return this.presentModel(row, user.username);
    } catch (error) {
      await Promise.all(keys.map((key) => this.deps.storage.delete(key).catch(() => undefined)));
      throw error;
    }
  }

  private noTrainingCredit() {
    return paymentRequired(
      'You need a model training credit to train a model. Buy one with Buy Credits.',
    );
  }

  async runTraining(modelId: string): Promise<void> {
    const row = await repo.claimModel(this.db, modelId, this.leaseMs('training'));
    if (!row) return;
    try {
      const photos = await Promise.all(
        row.photoKeys.map(async (key) => {
          const object = await this.deps.storage.get(key);
          if (!object) throw new ImageProviderError('A training photo is missing from storage.');
          return object.body;
        }),
      );
      let lastWrite = 0;
      const state = await this.deps.provider.start(
        {
          type: 'train',
          modelId: row.id,
          ownerId: row.userId,
          name: row.name,
          triggerWord: row.triggerWord,
          subjectClass: row.subjectClass,
          photos,
        },
        {
          ...this.startOptions(),
          onProgress: async (progress) => {
            if (progress < 100 && Date.now() - lastWrite < 200) return;
            lastWrite = Date.now();
            await repo.updateModel(this.db, row.id, { progress: Math.min(99, progress) });
          },
        },
      );
      if (state.status === 'running') {
        await repo.updateModel(this.db, row.id, { providerTrainingId: state.id });
      }
      await this.afterStart('training', row.id, state);
    } catch (error) {
      this.deps.log.warn({ err: error, modelId }, 'training could not start');
      await repo.failModel(
        this.db,
        modelId,
        `${this.userMessage(error, 'The training could not start.')} Your model training credit has been given back.`,
      );
    }
  }

  private async finishTraining(modelId: string, state: RunState): Promise<void> {
    const row = await repo.findModel(this.db, modelId);
    if (!row || row.status !== 'training') return;
    if (state.status !== 'succeeded') {
      await repo.failModel(
        this.db,
        modelId,
        `${state.error ?? 'The training failed.'} Your model training credit has been given back.`,
      );
      return;
    }
    try {
      let cover = state.cover;
      let palette = state.palette;
      if (!cover || !palette) {
        // A remote training: our own cover and colours from the photos we kept.
        const { makeCover, photoPalette } = await import('../../providers/images/local-render.js');
        const photos = (
          await Promise.all(row.photoKeys.slice(0, 6).map((key) => this.deps.storage.get(key)))
        ).flatMap((object) => (object ? [object.body] : []));
        cover = photos.length ? await makeCover(photos) : undefined;
        palette = photos.length ? await photoPalette(photos) : [];
      }
      let coverKey: string | null = null;
      if (cover) {
        coverKey = `image-models/${modelId}/cover-${randomBytes(6).toString('hex')}.jpg`;
        await this.deps.storage.put(coverKey, cover, { contentType: 'image/jpeg' });
      }
      await repo.finishModel(this.db, modelId, {
        coverKey,
        palette,
        providerVersion: state.version ?? null,
      });
    } catch (error) {
      this.deps.log.error({ err: error, modelId }, 'could not finish a training');
      await repo.failModel(
        this.db,
        modelId,
        'The trained model could not be saved. Your model training credit has been given back.',
      );
    }
  }

  async deleteModel(user: UserRow, modelId: string): Promise<void> {
    const existing = await repo.findOwnModel(this.db, user.id, modelId);
    if (!existing) throw notFound('Model not found.');
    const imageKeys = await repo.modelImageKeys(this.db, modelId);
    const row = await repo.deleteModel(this.db, user.id, modelId);
    if (!row) throw notFound('Model not found.');
    if (row.status === 'training' && row.providerTrainingId) {
      await this.deps.provider.cancel('train', row.providerTrainingId).catch(() => undefined);
    }
    const keys = [...row.photoKeys, ...(row.coverKey ? [row.coverKey] : []), ...imageKeys];
    await Promise.all(keys.map((key) => this.deps.storage.delete(key).catch(() => undefined)));
  }

  async changeModelPrivacy(
    user: UserRow,
    modelId: string,
    isPrivate: boolean,
  ): Promise<ImageModel> {
    const row = await repo.findOwnModel(this.db, user.id, modelId);
    if (!row) throw notFound('Model not found.');
    await repo.updateModel(this.db, modelId, { isPrivate });
    return this.presentModel({ ...row, isPrivate }, user.username);
  }

  /* ----------------------------------------------------------------------------------------- */
  /* Predictions                                                                                */
  /* ----------------------------------------------------------------------------------------- */

  /** The model a teacher may generate with: a base model or one of their own ready models. */
  private async modelFor(
    user: UserRow,
    modelId: string,
  ): Promise<{ ref: ModelRef; name: string; row?: ImageModelRow }> {
    const base = BASE_MODELS.find((model) => model.id === modelId);
    if (base) {
      return {
        name: base.name,
        ref: {
          kind: 'base',
          id: base.id,
          providerModel: this.baseProviderModel,
          styleWords: base.styleWords,
        },
      };
    }
    if (!isUuid(modelId)) throw notFound('Model not found.');
    const row = await repo.findOwnModel(this.db, user.id, modelId);
    if (!row) throw notFound('Model not found.');
    if (row.status !== 'ready') {
      throw conflict(
        row.status === 'failed'
          ? 'This model failed to train. Delete it and train it again.'
          : 'This model is still training. You can use it once it is ready.',
      );
    }
    return {
      name: row.name,
      row,
      ref: {
        kind: 'custom',
        id: row.id,
        triggerWord: row.triggerWord,
        subjectClass: row.subjectClass,
        palette: row.palette,
        providerVersion: row.providerVersion,
      },
    };
  }

  async generate(
    user: UserRow,
    input: {
      modelId: string;
      prompt: string;
      negativePrompt: string;
      numImages: number;
      aspectRatio: AspectRatio;
    },
  ): Promise<Prediction> {
    const word = findBlockedWord(input.prompt);
    if (word) throw badRequest(blockedWordMessage('prompt', word));
    const model = await this.modelFor(user, input.modelId);
    let prompt = input.prompt;
    if (
      model.ref.kind === 'custom' &&
      !new RegExp(`\\b${model.ref.triggerWord}\\b`, 'i').test(prompt)
    ) {
      // A custom model knows its subject by its trigger word.
      prompt = `${model.ref.triggerWord} ${prompt}`;
    }
    const size = ASPECT_SIZES[input.aspectRatio];
    const row = await repo.insertPredictionWithCredits(this.db, {
      userId: user.id,
      modelId: model.ref.kind === 'custom' ? model.ref.id : null,
      baseModel: model.ref.kind === 'base' ? model.ref.id : null,
      modelName: model.name,
      prompt,
      negativePrompt: input.negativePrompt,
      numImages: input.numImages,
      aspectRatio: input.aspectRatio,
      width: size.width,
      height: size.height,
      seed: randomInt(0, 2 ** 31 - 1),
      engine: this.engine,
    });
    if (!row) {
      throw paymentRequired(
        input.numImages === 1
          ? 'You need an image credit to generate an image. Buy Image Generation Credits to continue.'
          : `You need ${input.numImages} image credits to generate ${input.numImages} images. Buy Image Generation Credits to continue.`,
      );
    }
    await this.schedule({ kind: 'prediction', id: row.id });
    return this.presentPredictions([row], user.username).then((list) => list[0]!);
  }

  async runPrediction(id: string): Promise<void> {
    const row = await repo.claimPrediction(this.db, id, this.leaseMs('prediction'));
    if (!row) return;
    try {
      const model = await this.modelRefOf(row);
      const state = await this.deps.provider.start(
        {
          type: 'generate',
          prompt: row.prompt,
          negativePrompt: row.negativePrompt,
          numImages: row.numImages,
          aspectRatio: row.aspectRatio as AspectRatio,
          width: row.width,
          height: row.height,
          model,
          seed: row.seed,
        },
        this.startOptions(),
      );
      if (state.status === 'running') {
        await repo.setPredictionProvider(this.db, id, { providerId: state.id });
      }
      await this.afterStart('prediction', id, state);
    } catch (error) {
      this.deps.log.warn({ err: error, predictionId: id }, 'a generation could not start');
      await repo.failPrediction(
        this.db,
        id,
        `${this.userMessage(error, 'The image could not be generated.')} Your credits have been given back.`,
      );
    }
  }

  private async modelRefOf(row: ImagePredictionRow): Promise<ModelRef> {
    if (row.baseModel) {
      const base = BASE_MODELS.find((model) => model.id === row.baseModel) ?? BASE_MODELS[0]!;
      return {
        kind: 'base',
        id: base.id,
        providerModel: this.baseProviderModel,
        styleWords: base.styleWords,
      };
    }
    const model = row.modelId ? await repo.findModel(this.db, row.modelId) : undefined;
    if (!model) throw new ImageProviderError('The model of this generation was deleted.');
    return {
      kind: 'custom',
      id: model.id,
      triggerWord: model.triggerWord,
      subjectClass: model.subjectClass,
      palette: model.palette,
      providerVersion: model.providerVersion,
    };
  }

  /** Replicate's model for base models (set by the module from config). */
  baseProviderModel = 'local';

  private async finishPrediction(id: string, state: RunState): Promise<void> {
    const row = await repo.findPrediction(this.db, id);
    if (!row || row.status !== 'running') return;
    if (state.status !== 'succeeded') {
      await repo.failPrediction(
        this.db,
        id,
        `${state.error ?? 'The image could not be generated.'} Your credits have been given back.`,
        state.status === 'canceled' ? 'canceled' : 'failed',
      );
      return;
    }
    const stored: { url: string; storageKey: string; width: number; height: number }[] = [];
    try {
      const slugBase =
        slugify(row.prompt.split(/\s+/).slice(0, 8).join(' ')).slice(0, 60) || 'image';
      for (const output of (state.outputs ?? []).slice(0, row.numImages)) {
        const bytes = await this.deps.provider.download(output);
        const meta = await sharp(bytes, { limitInputPixels: 50_000_000 }).metadata();
        if (!meta.width || !meta.height) throw new ImageProviderError('An output is not an image.');
        const png = meta.format === 'png' ? bytes : await sharp(bytes).png().toBuffer();
        const key = `images/${row.userId}/${randomBytes(12).toString('hex')}.png`;
        await this.deps.storage.put(key, png, { contentType: 'image/png' });
        stored.push({
          url: `${slugBase}-${randomBytes(4).toString('hex')}`,
          storageKey: key,
          width: meta.width,
          height: meta.height,
        });
      }
      if (!stored.length) throw new ImageProviderError('The image service returned no image.');
      const applied = await repo.finishPrediction(this.db, row, stored);
      if (!applied) {
        await Promise.all(
          stored.map((s) => this.deps.storage.delete(s.storageKey).catch(() => undefined)),
        );
      }
    } catch (error) {
      this.deps.log.error({ err: error, predictionId: id }, 'could not keep generated images');
      await Promise.all(
        stored.map((s) => this.deps.storage.delete(s.storageKey).catch(() => undefined)),
      );
      await repo.failPrediction(
        this.db,
        id,
        `${this.userMessage(error, 'The images could not be saved.')} Your credits have been given back.`,
      );
    }
  }

  /** One of the teacher's predictions (with a poll of the provider when a run is overdue). */
  async getPrediction(user: UserRow, id: string): Promise<Prediction> {
    let row = await repo.findOwnPrediction(this.db, user.id, id);
    if (!row) throw notFound('Prediction not found.');
    if (
      row.status === 'running' &&
      row.providerId &&
      this.isStale(row.lastPolledAt ?? row.createdAt)
    ) {
      await repo.setPredictionProvider(this.db, id, { lastPolledAt: new Date() });
      await this.poll({ kind: 'prediction', id, poll: 1 }).catch(() => undefined);
      row = (await repo.findOwnPrediction(this.db, user.id, id)) ?? row;
    }
    return (await this.presentPredictions([row], user.username))[0]!;
  }

  private isStale(since: Date): boolean {
    return Date.now() - since.getTime() > Math.max(2000, this.deps.pollMs);
  }

  /**
   * Predictions with a model. The owner sees all of theirs (`all` for every model, a base
   * model's id, or one of their models). Anyone, signed in or not, sees the finished images of
   * a public, ready custom model (its owner chose to show it; its training photos stay hidden);
   * runs in progress and failures stay the owner's. A private model is a 404 to everyone else.
   */
  async listPredictions(
    user: UserRow | null,
    modelId: string,
    page: { page: number; limit: number },
  ): Promise<{ data: Prediction[]; count: number }> {
    if (modelId === 'all' || BASE_MODELS.some((model) => model.id === modelId)) {
      if (!user) throw unauthorized('Log in to see your images.');
      const filter = modelId === 'all' ? {} : { baseModel: modelId };
      const { rows, count } = await repo.listPredictions(this.db, user.id, filter, page);
      return { data: await this.presentPredictions(rows, user.username), count };
    }
    const model = isUuid(modelId) ? await repo.findModel(this.db, modelId) : undefined;
    if (!model) throw notFound('Model not found.');
    if (user && model.userId === user.id) {
      const { rows, count } = await repo.listPredictions(this.db, user.id, { modelId }, page);
      return { data: await this.presentPredictions(rows, user.username), count };
    }
    if (model.isPrivate || model.status !== 'ready') throw notFound('Model not found.');
    const owner = await repo.findUserById(this.db, model.userId);
    if (!owner) throw notFound('Model not found.');
    const { rows, count } = await repo.listPredictions(
      this.db,
      model.userId,
      { modelId, succeededOnly: true },
      page,
    );
    return { data: await this.presentPredictions(rows, owner.username), count };
  }

  private async presentPredictions(
    rows: ImagePredictionRow[],
    username: string,
  ): Promise<Prediction[]> {
    const images = await repo.imagesOf(
      this.db,
      rows.map((row) => row.id),
    );
    const ids = images.map((image) => image.id);
    const [ups, posts] = await Promise.all([
      repo.upscalesOf(this.db, ids),
      repo.postsOfImages(this.db, ids),
    ]);
    return rows.map((row) => ({
      _id: row.id,
      modelId: row.modelId ?? row.baseModel ?? '',
      modelName: row.modelName,
      prompt: row.prompt,
      negativePrompt: row.negativePrompt,
      numImages: row.numImages,
      aspectRatio: row.aspectRatio as AspectRatio,
      status: row.status,
      ...(row.error ? { error: row.error } : {}),
      engine: row.engine,
      images: images
        .filter((image) => image.predictionId === row.id)
        .map((image) =>
          this.presentImage(
            image,
            row,
            username,
            ups.filter((u) => u.imageId === image.id),
            posts.find((p) => p.imageId === image.id)?.id ?? null,
          ),
        ),
      createdAt: row.createdAt.toISOString(),
      completedAt: row.completedAt?.toISOString() ?? null,
    }));
  }

  private presentImage(
    image: GeneratedImageRow,
    prediction: ImagePredictionRow,
    username: string,
    ups: ImageUpscaleRow[],
    postId: string | null,
  ): GeneratedImage {
    return {
      _id: image.id,
      predictionId: image.predictionId,
      predictionUrl: image.url,
      image: this.deps.storage.publicUrl(image.storageKey),
      width: image.width,
      height: image.height,
      prompt: prediction.prompt,
      modelId: prediction.modelId ?? prediction.baseModel ?? '',
      modelName: prediction.modelName,
      creatorUsername: username,
      postId,
      upscales: ups.map((u) => this.presentUpscale(u)),
      createdAt: image.createdAt.toISOString(),
    };
  }

  async deleteImage(user: UserRow, id: string): Promise<void> {
    const keys = await repo.deleteImage(this.db, user.id, id);
    if (!keys) throw notFound('Image not found.');
    await Promise.all(keys.map((key) => this.deps.storage.delete(key).catch(() => undefined)));
  }

  /* ----------------------------------------------------------------------------------------- */
  /* Upscales                                                                                   */
  /* ----------------------------------------------------------------------------------------- */

  private presentUpscale(row: ImageUpscaleRow): Upscale {
    return {
      _id: row.id,
      imageId: row.imageId,
      scale: row.scale,
      status: row.status,
      ...(row.error ? { error: row.error } : {}),
      image: row.storageKey ? this.deps.storage.publicUrl(row.storageKey) : null,
      width: row.width,
      height: row.height,
      createdAt: row.createdAt.toISOString(),
    };
  }

  async upscale(user: UserRow, imageId: string, scale: UpscaleFactor): Promise<Upscale> {
    const image = await repo.findOwnImage(this.db, user.id, imageId);
    if (!image) throw notFound('Image not found.');
    if (image.width * scale > 8192 || image.height * scale > 8192) {
      throw badRequest(
        `Invalid field "scale": a ${scale}× enlargement of this image would be larger than 8192 pixels.`,
      );
    }
    const row = await repo.insertUpscaleWithCredit(this.db, {
      userId: user.id,
      imageId,
      scale,
      engine: this.engine,
    });
    if (!row) {
      throw paymentRequired(
        'You need an image credit to upscale an image. Buy Image Generation Credits to continue.',
      );
    }
    await this.schedule({ kind: 'upscale', id: row.id });
    return this.presentUpscale(row);
  }

  async runUpscale(id: string): Promise<void> {
    const row = await repo.claimUpscale(this.db, id, this.leaseMs('upscale'));
    if (!row) return;
    try {
      const image = await repo.findOwnImage(this.db, row.userId, row.imageId);
      const object = image ? await this.deps.storage.get(image.storageKey) : null;
      if (!object) throw new ImageProviderError('The image to enlarge is gone.');
      const state = await this.deps.provider.start(
        { type: 'upscale', image: object.body, scale: row.scale as UpscaleFactor },
        this.startOptions(),
      );
      if (state.status === 'running')
        await repo.setUpscaleProvider(this.db, id, { providerId: state.id });
      await this.afterStart('upscale', id, state);
    } catch (error) {
      this.deps.log.warn({ err: error, upscaleId: id }, 'an upscale could not start');
      await repo.failUpscale(
        this.db,
        id,
        `${this.userMessage(error, 'The image could not be enlarged.')} Your credit has been given back.`,
      );
    }
  }

  private async finishUpscale(id: string, state: RunState): Promise<void> {
    const row = await repo.findUpscale(this.db, id);
    if (!row || row.status !== 'running') return;
    if (state.status !== 'succeeded' || !state.outputs?.length) {
      await repo.failUpscale(
        this.db,
        id,
        `${state.error ?? 'The image could not be enlarged.'} Your credit has been given back.`,
        state.status === 'canceled' ? 'canceled' : 'failed',
      );
      return;
    }
    let key: string | undefined;
    try {
      const bytes = await this.deps.provider.download(state.outputs[0]!);
      const meta = await sharp(bytes, { limitInputPixels: 80_000_000 }).metadata();
      if (!meta.width || !meta.height)
        throw new ImageProviderError('The enlarged image is not an image.');
      const png =
        meta.format === 'png'
          ? bytes
          : await sharp(bytes, { limitInputPixels: 80_000_000 }).png().toBuffer();
      key = `images/${row.userId}/${randomBytes(12).toString('hex')}-x${row.scale}.png`;
      await this.deps.storage.put(key, png, { contentType: 'image/png' });
      const applied = await repo.finishUpscale(this.db, id, {
        storageKey: key,
        width: meta.width,
        height: meta.height,
      });
      if (!applied) await this.deps.storage.delete(key).catch(() => undefined);
    } catch (error) {
      this.deps.log.error({ err: error, upscaleId: id }, 'could not keep an upscale');
      if (key) await this.deps.storage.delete(key).catch(() => undefined);
      await repo.failUpscale(
        this.db,
        id,
        `${this.userMessage(error, 'The enlarged image could not be saved.')} Your credit has been given back.`,
      );
    }
  }

  async getUpscale(user: UserRow, id: string): Promise<Upscale> {
    let row = await repo.findOwnUpscale(this.db, user.id, id);
    if (!row) throw notFound('Upscale not found.');
    if (
      row.status === 'running' &&
      row.providerId &&
      this.isStale(row.lastPolledAt ?? row.createdAt)
    ) {
      await repo.setUpscaleProvider(this.db, id, { lastPolledAt: new Date() });
      await this.poll({ kind: 'upscale', id, poll: 1 }).catch(() => undefined);
      row = (await repo.findOwnUpscale(this.db, user.id, id)) ?? row;
    }
    return this.presentUpscale(row);
  }

  async deleteUpscale(user: UserRow, id: string): Promise<void> {
    const existing = await repo.findOwnUpscale(this.db, user.id, id);
    if (!existing) throw notFound('Upscale not found.');
    if (existing.status === 'queued' || existing.status === 'running') {
      throw conflict('This image is still being enlarged. You can delete it once it has finished.');
    }
    const row = await repo.deleteUpscale(this.db, user.id, id);
    if (row?.storageKey) await this.deps.storage.delete(row.storageKey).catch(() => undefined);
  }

  /* ----------------------------------------------------------------------------------------- */
  /* Profile posts                                                                              */
  /* ----------------------------------------------------------------------------------------- */

  private presentPost(join: repo.PostJoin): UserPost {
    const upscaled =
      join.upscale?.status === 'succeeded' && join.upscale.storageKey ? join.upscale : null;
    return {
      _id: join.post.id,
      name: join.post.name,
      image: this.deps.storage.publicUrl(upscaled?.storageKey ?? join.image.storageKey),
      description: join.post.description,
      creatorUsername: join.username,
      createdOnDate: join.post.createdAt.toISOString(),
      predictionUrl: join.image.url,
      width: upscaled?.width ?? join.image.width,
      height: upscaled?.height ?? join.image.height,
    };
  }

  async createPost(
    user: UserRow,
    input: { imageId: string; upscaleId?: string | undefined; name: string; description: string },
  ): Promise<UserPost> {
    for (const [field, value] of [
      ['name', input.name],
      ['description', input.description],
    ] as const) {
      const word = findBlockedWord(value);
      if (word) throw badRequest(blockedWordMessage(field, word));
    }
    const image = await repo.findOwnImage(this.db, user.id, input.imageId);
    if (!image) throw notFound('Image not found.');
    if (input.upscaleId) {
      const upscale = await repo.findOwnUpscale(this.db, user.id, input.upscaleId);
      if (!upscale || upscale.imageId !== image.id) throw notFound('Upscale not found.');
      if (upscale.status !== 'succeeded') throw conflict('This upscale has not finished.');
    }
    const post = await repo.insertPost(this.db, {
      userId: user.id,
      imageId: image.id,
      upscaleId: input.upscaleId ?? null,
      name: input.name,
      description: input.description,
    });
    if (!post) throw conflict('This image is already on your profile.');
    const join = await repo.findPostJoin(this.db, post.id);
    return this.presentPost(join!);
  }

  async listPosts(username: string): Promise<{ posts: UserPost[]; count: number }> {
    const owner = await repo.findUserByUsername(this.db, username);
    if (!owner) throw notFound('User not found.');
    const rows = await repo.listPostsOf(this.db, owner.id);
    return { posts: rows.map((row) => this.presentPost(row)), count: rows.length };
  }

  /** A post's page data by the creator's username and the image's slug; 404 unless posted. */
  async predictionPage(username: string, url: string): Promise<PredictionPage> {
    const owner = await repo.findUserByUsername(this.db, username);
    if (!owner) throw notFound('Post not found.');
    const image = await repo.findImageByUrl(this.db, owner.id, url);
    const post = image ? await repo.findPostOfImage(this.db, image.id) : undefined;
    if (!post) throw notFound('Post not found.');
    const join = await repo.findPostJoin(this.db, post.id);
    if (!join) throw notFound('Post not found.');
    return { post: this.presentPost(join), prompt: join.prompt, modelName: join.modelName };
  }

  async deletePost(user: UserRow, id: string): Promise<void> {
    if (!(await repo.deletePost(this.db, user.id, id))) throw notFound('Post not found.');
  }

  /* ----------------------------------------------------------------------------------------- */
  /* For the shop (issue 17): artworks come from the studio's runs and images                   */
  /* ----------------------------------------------------------------------------------------- */

  /**
   * Where one of a user's predictions stands, for the shop: its status (polling an overdue
   * remote run), the reason it failed, and its first image when it succeeded.
   */
  async predictionForShop(
    userId: string,
    predictionId: string,
  ): Promise<{ status: string; error: string | null; imageId: string | null } | null> {
    let row = await repo.findOwnPrediction(this.db, userId, predictionId);
    if (!row) return null;
    if (
      row.status === 'running' &&
      row.providerId &&
      this.isStale(row.lastPolledAt ?? row.createdAt)
    ) {
      await repo.setPredictionProvider(this.db, predictionId, { lastPolledAt: new Date() });
      await this.poll({ kind: 'prediction', id: predictionId, poll: 1 }).catch(() => undefined);
      row = (await repo.findOwnPrediction(this.db, userId, predictionId)) ?? row;
    }
    const [image] = row.status === 'succeeded' ? await repo.imagesOf(this.db, [row.id]) : [];
    return { status: row.status, error: row.error, imageId: image?.id ?? null };
  }

  /** The bytes of one of a user's images (null: not theirs, or gone). */
  async imageBytesForShop(
    userId: string,
    imageId: string,
  ): Promise<{ bytes: Buffer; url: string; prompt: string } | null> {
    const image = await repo.findOwnImage(this.db, userId, imageId);
    if (!image) return null;
    const object = await this.deps.storage.get(image.storageKey);
    const prediction = await repo.findPrediction(this.db, image.predictionId);
    return object ? { bytes: object.body, url: image.url, prompt: prediction?.prompt ?? '' } : null;
  }

  /**
   * One of a user's upscales for the shop: its state, the image it enlarges (url and prompt)
   * and, when finished, its bytes. Null when it is not theirs.
   */
  async upscaleForShop(
    userId: string,
    upscaleId: string,
  ): Promise<{
    status: string;
    imageId: string;
    imageUrl: string;
    prompt: string;
    bytes: Buffer | null;
  } | null> {
    if (!isUuid(upscaleId)) return null;
    const row = await repo.findOwnUpscale(this.db, userId, upscaleId);
    if (!row) return null;
    const image = await repo.findOwnImage(this.db, userId, row.imageId);
    if (!image) return null;
    const prediction = await repo.findPrediction(this.db, image.predictionId);
    const object =
      row.status === 'succeeded' && row.storageKey
        ? await this.deps.storage.get(row.storageKey)
        : null;
    return {
      status: row.status,
      imageId: image.id,
      imageUrl: image.url,
      prompt: prediction?.prompt ?? '',
      bytes: object?.body ?? null,
    };
  }

  async credits(user: UserRow) {
    return repo.credits(this.db, user.id);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function isUuid(value: string): boolean {
  return UUID.test(value);
}
