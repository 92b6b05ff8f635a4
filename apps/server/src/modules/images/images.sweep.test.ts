import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  generatedImages,
  imageModels,
  imagePredictions,
  imageUpscales,
  users,
} from '../../db/schema/index.js';
import type {
  ImageProvider,
  ImageTask,
  OutputRef,
  RunState,
  TaskType,
} from '../../providers/images/index.js';
import { createTestApp, createUser, type TestApp } from '../../test/helpers.js';

/*
 * The sweep finds runs a crash, a restart or a lost job left behind (queued, started, or
 * started at the provider) and finishes them: queued again, polled again, or failed with the
 * credits given back. Rows are written as a crash would leave them, then the sweep runs.
 */

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);

async function creditsOf(t: TestApp, userId: string) {
  const [row] = await t.app.db.select().from(users).where(eq(users.id, userId));
  return { images: row!.imageGenerationCredits, training: row!.modelTrainingCredits };
}

async function predictionRow(t: TestApp, id: string) {
  const [row] = await t.app.db.select().from(imagePredictions).where(eq(imagePredictions.id, id));
  return row!;
}

async function insertPrediction(
  t: TestApp,
  userId: string,
  values: Partial<typeof imagePredictions.$inferInsert>,
) {
  const [row] = await t.app.db
    .insert(imagePredictions)
    .values({
      userId,
      baseModel: 'base-illustration',
      modelName: 'Storybook Illustration',
      prompt: 'a red lighthouse by the sea',
      numImages: 2,
      aspectRatio: '1:1',
      width: 256,
      height: 256,
      seed: 7,
      engine: 'local',
      charged: 2,
      ...values,
    })
    .returning();
  return row!;
}

describe('sweep of interrupted runs (local engine)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ IMAGE_LOCAL_TRAINING_SECONDS: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('runs again a queued run whose job was lost, and a run the server died while making', async () => {
    const { user } = await createUser(t.app);
    const lost = await insertPrediction(t, user.id, { status: 'queued', createdAt: minutesAgo(6) });
    const died = await insertPrediction(t, user.id, {
      status: 'running',
      attempts: 1,
      leaseUntil: minutesAgo(1),
      createdAt: minutesAgo(12),
    });
    const busy = await insertPrediction(t, user.id, {
      status: 'running',
      attempts: 1,
      leaseUntil: new Date(Date.now() + 5 * 60_000),
    });
    const fresh = await insertPrediction(t, user.id, { status: 'queued' });

    const result = await t.app.images.recoverStalled();
    await t.app.images.idle();

    expect(result).toMatchObject({ requeued: 2, failed: 0 });
    for (const id of [lost.id, died.id]) {
      const row = await predictionRow(t, id);
      expect(row.status).toBe('succeeded');
      const images = await t.app.db
        .select()
        .from(generatedImages)
        .where(eq(generatedImages.predictionId, id));
      expect(images).toHaveLength(2);
    }
    // A run another worker is making, and a run queued a moment ago, are left alone.
    expect((await predictionRow(t, busy.id)).status).toBe('running');
    expect((await predictionRow(t, fresh.id)).status).toBe('queued');
    expect(await creditsOf(t, user.id)).toMatchObject({ images: 0 });
  });

  it('fails a run interrupted three times, with a clear message and the credits given back', async () => {
    const { user } = await createUser(t.app);
    const row = await insertPrediction(t, user.id, {
      status: 'running',
      attempts: 3,
      leaseUntil: minutesAgo(1),
      charged: 2,
    });
    const image = await insertPrediction(t, user.id, { status: 'succeeded', charged: 1 });
    const [picture] = await t.app.db
      .insert(generatedImages)
      .values({
        predictionId: image.id,
        userId: user.id,
        url: 'a-picture-0001',
        storageKey: 'images/none.png',
        width: 256,
        height: 256,
      })
      .returning();
    const [upscale] = await t.app.db
      .insert(imageUpscales)
      .values({
        userId: user.id,
        imageId: picture!.id,
        scale: 2,
        status: 'running',
        engine: 'local',
        charged: 1,
        attempts: 3,
        leaseUntil: minutesAgo(2),
      })
      .returning();

    const result = await t.app.images.recoverStalled();
    await t.app.images.idle();

    expect(result.failed).toBe(2);
    const failed = await predictionRow(t, row.id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe(
      'The generation was interrupted 3 times (the server restarted) and was stopped. Your credits have been given back.',
    );
    const [up] = await t.app.db
      .select()
      .from(imageUpscales)
      .where(eq(imageUpscales.id, upscale!.id));
    expect(up!.status).toBe('failed');
    expect(up!.error).toMatch(
      /^The enlargement was interrupted 3 times .* Your credit has been given back\.$/,
    );
    // Two image credits for the generation, one for the enlargement.
    expect(await creditsOf(t, user.id)).toMatchObject({ images: 3 });

    // A second sweep finds nothing more to do and gives nothing twice.
    await t.app.images.recoverStalled();
    expect(await creditsOf(t, user.id)).toMatchObject({ images: 3 });
  });

  it('trains again a model whose training the server died in, and shows it ready', async () => {
    const { user, auth } = await createUser(t.app);
    const photo = await sharp({
      create: { width: 64, height: 64, channels: 3, background: '#20a040' },
    })
      .jpeg()
      .toBuffer();
    const keys: string[] = [];
    for (let i = 0; i < 5; i++) {
      const key = `image-models/sweep-test/photo-${i}.jpg`;
      await t.app.storage.put(key, photo, { contentType: 'image/jpeg' });
      keys.push(key);
    }
    const [model] = await t.app.db
      .insert(imageModels)
      .values({
        userId: user.id,
        name: 'Class plant',
        subjectClass: 'object',
        triggerWord: 'ourfern',
        status: 'training',
        progress: 40,
        engine: 'local',
        photoKeys: keys,
        attempts: 1,
        leaseUntil: minutesAgo(1),
      })
      .returning();

    expect(await t.app.images.recoverStalled()).toMatchObject({ requeued: 1 });
    await t.app.images.idle();

    const answer = await t.app.inject({
      method: 'GET',
      url: `/api/v1/models/getdreamboothmodel?modelId=${model!.id}`,
      headers: auth,
    });
    expect(answer.json().data).toMatchObject({ status: 'ready', progress: 100 });
    expect(answer.json().data.cover).toBeTruthy();
  });
});

/** A remote image service that finished everything while this server was down. */
class FinishedRemote implements ImageProvider {
  readonly kind = 'replicate' as const;
  readonly isAsync = true;
  polled: string[] = [];
  constructor(private readonly png: Buffer) {}
  start(task: ImageTask): Promise<RunState> {
    return Promise.resolve({ id: `r-${task.type}`, status: 'running' });
  }
  get(type: TaskType, id: string): Promise<RunState> {
    this.polled.push(id);
    if (type === 'train') {
      return Promise.resolve({ id, status: 'succeeded', version: 'teacher/model:abc' });
    }
    return Promise.resolve({
      id,
      status: 'succeeded',
      outputs: [{ data: this.png }, { data: this.png }],
    });
  }
  cancel(): Promise<void> {
    return Promise.resolve();
  }
  download(output: OutputRef): Promise<Buffer> {
    if ('data' in output) return Promise.resolve(output.data);
    throw new Error('no URLs here');
  }
  verifyWebhook(): never {
    throw new Error('no webhooks');
  }
}

describe('sweep of interrupted runs (remote engine)', () => {
  let t: TestApp;
  let remote: FinishedRemote;
  beforeAll(async () => {
    const png = await sharp({
      create: { width: 32, height: 32, channels: 3, background: '#3366cc' },
    })
      .png()
      .toBuffer();
    remote = new FinishedRemote(png);
    t = await createTestApp({}, { imageProvider: remote });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('polls again the runs the provider has, and fails runs sent to a service no longer used', async () => {
    const { user } = await createUser(t.app);
    const orphan = await insertPrediction(t, user.id, {
      status: 'running',
      engine: 'replicate',
      providerId: 'pred-orphan',
      attempts: 1,
      createdAt: minutesAgo(20),
      lastPolledAt: minutesAgo(10),
    });
    const polledNow = await insertPrediction(t, user.id, {
      status: 'running',
      engine: 'replicate',
      providerId: 'pred-live',
      attempts: 1,
      lastPolledAt: new Date(),
    });
    const elsewhere = await insertPrediction(t, user.id, {
      status: 'running',
      engine: 'local',
      providerId: 'other-service',
      attempts: 1,
      createdAt: minutesAgo(20),
    });
    const [model] = await t.app.db
      .insert(imageModels)
      .values({
        userId: user.id,
        name: 'Class mascot',
        subjectClass: 'pet',
        triggerWord: 'mascotz',
        status: 'training',
        engine: 'replicate',
        providerTrainingId: 'train-orphan',
        attempts: 1,
        createdAt: minutesAgo(30),
        updatedAt: minutesAgo(30),
      })
      .returning();

    const result = await t.app.images.recoverStalled();
    await t.app.images.idle();

    expect(result).toMatchObject({ resumed: 2, failed: 1 });
    expect(remote.polled.sort()).toEqual(['pred-orphan', 'train-orphan']);
    const done = await predictionRow(t, orphan.id);
    expect(done.status).toBe('succeeded');
    const images = await t.app.db
      .select()
      .from(generatedImages)
      .where(eq(generatedImages.predictionId, orphan.id));
    expect(images).toHaveLength(2);
    expect((await predictionRow(t, polledNow.id)).status).toBe('running');
    const gone = await predictionRow(t, elsewhere.id);
    expect(gone.status).toBe('failed');
    expect(gone.error).toBe(
      'The image service this run was sent to is no longer used by this site. Your credits have been given back.',
    );
    const [trained] = await t.app.db
      .select()
      .from(imageModels)
      .where(eq(imageModels.id, model!.id));
    expect(trained).toMatchObject({ status: 'ready', providerVersion: 'teacher/model:abc' });
    // Only the run that failed gave its two credits back.
    expect(await creditsOf(t, user.id)).toMatchObject({ images: 2 });
  });
});
