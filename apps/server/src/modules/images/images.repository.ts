import { and, desc, eq, gte, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  generatedImages,
  imageModels,
  imagePredictions,
  imageUpscales,
  imageWebhookEvents,
  profilePosts,
  users,
  type GeneratedImageRow,
  type ImageModelRow,
  type ImagePredictionRow,
  type ImageUpscaleRow,
  type ProfilePostRow,
} from '../../db/schema/index.js';

type NewModel = typeof imageModels.$inferInsert;
type NewPrediction = typeof imagePredictions.$inferInsert;

/* ------------------------------------------------------------------------------------------- */
/* Credits: taken by one conditional UPDATE inside the transaction that records the run, so    */
/* parallel requests can never spend more than the balance.                                    */
/* ------------------------------------------------------------------------------------------- */

/** Takes a model training credit and records the model; null when there is no credit. */
export async function insertModelWithCredit(
  db: Db,
  values: NewModel,
): Promise<ImageModelRow | null> {
  return db.transaction(async (tx) => {
    const [payer] = await tx
      .update(users)
      .set({ modelTrainingCredits: sql`${users.modelTrainingCredits} - 1` })
      .where(and(eq(users.id, values.userId), gte(users.modelTrainingCredits, 1)))
      .returning({ id: users.id });
    if (!payer) return null;
    const [row] = await tx
      .insert(imageModels)
      .values({ ...values, charged: true })
      .returning();
    return row!;
  });
}

/** Takes `n` image credits and records the prediction; null when the balance is short. */
export async function insertPredictionWithCredits(
  db: Db,
  values: NewPrediction,
): Promise<ImagePredictionRow | null> {
  const n = values.numImages;
  return db.transaction(async (tx) => {
    const [payer] = await tx
      .update(users)
      .set({ imageGenerationCredits: sql`${users.imageGenerationCredits} - ${n}` })
      .where(and(eq(users.id, values.userId), gte(users.imageGenerationCredits, n)))
      .returning({ id: users.id });
    if (!payer) return null;
    const [row] = await tx
      .insert(imagePredictions)
      .values({ ...values, charged: n })
      .returning();
    return row!;
  });
}

/** Takes one image credit and records the upscale; null when there is no credit. */
export async function insertUpscaleWithCredit(
  db: Db,
  values: { userId: string; imageId: string; scale: number; engine: string },
): Promise<ImageUpscaleRow | null> {
  return db.transaction(async (tx) => {
    const [payer] = await tx
      .update(users)
      .set({ imageGenerationCredits: sql`${users.imageGenerationCredits} - 1` })
      .where(and(eq(users.id, values.userId), gte(users.imageGenerationCredits, 1)))
      .returning({ id: users.id });
    if (!payer) return null;
    const [row] = await tx
      .insert(imageUpscales)
      .values({ ...values, charged: 1 })
      .returning();
    return row!;
  });
}

export async function credits(db: Db, userId: string) {
  const [row] = await db
    .select({
      imageGenerationCredits: users.imageGenerationCredits,
      modelTrainingCredits: users.modelTrainingCredits,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row ?? { imageGenerationCredits: 0, modelTrainingCredits: 0 };
}

/* ------------------------------------------------------------------------------------------- */
/* Models                                                                                       */
/* ------------------------------------------------------------------------------------------- */

export async function listModels(db: Db, userId: string): Promise<ImageModelRow[]> {
  return db
    .select()
    .from(imageModels)
    .where(eq(imageModels.userId, userId))
    .orderBy(desc(imageModels.createdAt));
}

export async function findModel(db: Db, id: string): Promise<ImageModelRow | undefined> {
  const [row] = await db.select().from(imageModels).where(eq(imageModels.id, id));
  return row;
}

export async function findOwnModel(
  db: Db,
  userId: string,
  id: string,
): Promise<ImageModelRow | undefined> {
  const [row] = await db
    .select()
    .from(imageModels)
    .where(and(eq(imageModels.id, id), eq(imageModels.userId, userId)));
  return row;
}

export async function findModelByTraining(
  db: Db,
  providerId: string,
): Promise<ImageModelRow | undefined> {
  const [row] = await db
    .select()
    .from(imageModels)
    .where(eq(imageModels.providerTrainingId, providerId));
  return row;
}

/** queued → training (one worker wins). */
export async function claimModel(
  db: Db,
  id: string,
  leaseMs: number,
): Promise<ImageModelRow | undefined> {
  const [row] = await db
    .update(imageModels)
    .set({
      status: 'training',
      attempts: sql`${imageModels.attempts} + 1`,
      leaseUntil: new Date(Date.now() + leaseMs),
      updatedAt: new Date(),
    })
    .where(and(eq(imageModels.id, id), eq(imageModels.status, 'queued')))
    .returning();
  return row;
}

export async function updateModel(
  db: Db,
  id: string,
  values: Partial<
    Pick<ImageModelRow, 'progress' | 'providerTrainingId' | 'lastPolledAt' | 'isPrivate'>
  >,
): Promise<void> {
  await db
    .update(imageModels)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(imageModels.id, id));
}

/** training → ready, once. */
export async function finishModel(
  db: Db,
  id: string,
  values: { coverKey: string | null; palette: string[]; providerVersion: string | null },
): Promise<boolean> {
  const rows = await db
    .update(imageModels)
    .set({
      ...values,
      status: 'ready',
      progress: 100,
      finishedAt: new Date(),
      updatedAt: new Date(),
    })
    .where(and(eq(imageModels.id, id), eq(imageModels.status, 'training')))
    .returning({ id: imageModels.id });
  return rows.length > 0;
}

/** queued/training → failed with the reason, and the credit back (if still held), exactly once. */
export async function failModel(db: Db, id: string, error: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ userId: imageModels.userId, charged: imageModels.charged })
      .from(imageModels)
      .where(and(eq(imageModels.id, id), inArray(imageModels.status, ['queued', 'training'])))
      .for('update');
    if (!before) return false;
    await tx
      .update(imageModels)
      .set({
        status: 'failed',
        error,
        charged: false,
        finishedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(imageModels.id, id));
    if (before.charged) {
      await tx
        .update(users)
        .set({ modelTrainingCredits: sql`${users.modelTrainingCredits} + 1` })
        .where(eq(users.id, before.userId));
    }
    return true;
  });
}

/** Deletes a model (its predictions, images and posts go with it); a model deleted before it
 * finished training gives its credit back. Returns the row deleted. */
export async function deleteModel(
  db: Db,
  userId: string,
  id: string,
): Promise<ImageModelRow | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .delete(imageModels)
      .where(and(eq(imageModels.id, id), eq(imageModels.userId, userId)))
      .returning();
    if (row && row.charged && (row.status === 'queued' || row.status === 'training')) {
      await tx
        .update(users)
        .set({ modelTrainingCredits: sql`${users.modelTrainingCredits} + 1` })
        .where(eq(users.id, userId));
    }
    return row;
  });
}

export async function modelImageKeys(db: Db, modelId: string): Promise<string[]> {
  const images = await db
    .select({ key: generatedImages.storageKey, id: generatedImages.id })
    .from(generatedImages)
    .innerJoin(imagePredictions, eq(imagePredictions.id, generatedImages.predictionId))
    .where(eq(imagePredictions.modelId, modelId));
  const ups = images.length
    ? await db
        .select({ key: imageUpscales.storageKey })
        .from(imageUpscales)
        .where(
          and(
            inArray(
              imageUpscales.imageId,
              images.map((i) => i.id),
            ),
            isNotNull(imageUpscales.storageKey),
          ),
        )
    : [];
  return [...images.map((i) => i.key), ...ups.map((u) => u.key!)];
}

/* ------------------------------------------------------------------------------------------- */
/* Predictions and images                                                                       */
/* ------------------------------------------------------------------------------------------- */

export async function findOwnPrediction(
  db: Db,
  userId: string,
  id: string,
): Promise<ImagePredictionRow | undefined> {
  const [row] = await db
    .select()
    .from(imagePredictions)
    .where(and(eq(imagePredictions.id, id), eq(imagePredictions.userId, userId)));
  return row;
}

export async function findPrediction(db: Db, id: string): Promise<ImagePredictionRow | undefined> {
  const [row] = await db.select().from(imagePredictions).where(eq(imagePredictions.id, id));
  return row;
}

export async function findPredictionByProvider(
  db: Db,
  providerId: string,
): Promise<ImagePredictionRow | undefined> {
  const [row] = await db
    .select()
    .from(imagePredictions)
    .where(eq(imagePredictions.providerId, providerId));
  return row;
}

export async function listPredictions(
  db: Db,
  userId: string,
  filter: { modelId?: string; baseModel?: string; succeededOnly?: boolean },
  page: { page: number; limit: number },
): Promise<{ rows: ImagePredictionRow[]; count: number }> {
  const where = and(
    eq(imagePredictions.userId, userId),
    filter.modelId ? eq(imagePredictions.modelId, filter.modelId) : undefined,
    filter.baseModel ? eq(imagePredictions.baseModel, filter.baseModel) : undefined,
    filter.succeededOnly ? eq(imagePredictions.status, 'succeeded') : undefined,
  );
  const rows = await db
    .select()
    .from(imagePredictions)
    .where(where)
    .orderBy(desc(imagePredictions.createdAt))
    .limit(page.limit)
    .offset((page.page - 1) * page.limit);
  const [total] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(imagePredictions)
    .where(where);
  return { rows, count: total?.count ?? 0 };
}

export async function claimPrediction(
  db: Db,
  id: string,
  leaseMs: number,
): Promise<ImagePredictionRow | undefined> {
  const [row] = await db
    .update(imagePredictions)
    .set({
      status: 'running',
      attempts: sql`${imagePredictions.attempts} + 1`,
      leaseUntil: new Date(Date.now() + leaseMs),
    })
    .where(and(eq(imagePredictions.id, id), eq(imagePredictions.status, 'queued')))
    .returning();
  return row;
}

export async function setPredictionProvider(
  db: Db,
  id: string,
  values: { providerId?: string; lastPolledAt?: Date },
): Promise<void> {
  await db.update(imagePredictions).set(values).where(eq(imagePredictions.id, id));
}

/**
 * running → succeeded with its images, once; credits for images the provider did not make
 * are given back. Returns false when another delivery got there first.
 */
export async function finishPrediction(
  db: Db,
  row: ImagePredictionRow,
  images: { url: string; storageKey: string; width: number; height: number }[],
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const refund = Math.max(0, row.numImages - images.length);
    const [done] = await tx
      .update(imagePredictions)
      .set({
        status: 'succeeded',
        completedAt: new Date(),
        charged: sql`${imagePredictions.charged} - ${refund}`,
      })
      .where(and(eq(imagePredictions.id, row.id), eq(imagePredictions.status, 'running')))
      .returning({ id: imagePredictions.id });
    if (!done) return false;
    if (images.length) {
      await tx.insert(generatedImages).values(
        images.map((image, position) => ({
          ...image,
          position,
          predictionId: row.id,
          userId: row.userId,
        })),
      );
    }
    if (refund) {
      await tx
        .update(users)
        .set({ imageGenerationCredits: sql`${users.imageGenerationCredits} + ${refund}` })
        .where(eq(users.id, row.userId));
    }
    return true;
  });
}

/** queued/running → failed (or canceled) with the reason, and every credit back, once. */
export async function failPrediction(
  db: Db,
  id: string,
  error: string,
  status: 'failed' | 'canceled' = 'failed',
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ charged: imagePredictions.charged, userId: imagePredictions.userId })
      .from(imagePredictions)
      .where(
        and(eq(imagePredictions.id, id), inArray(imagePredictions.status, ['queued', 'running'])),
      )
      .for('update');
    if (!before) return false;
    await tx
      .update(imagePredictions)
      .set({ status, error, charged: 0, completedAt: new Date() })
      .where(eq(imagePredictions.id, id));
    if (before.charged > 0) {
      await tx
        .update(users)
        .set({ imageGenerationCredits: sql`${users.imageGenerationCredits} + ${before.charged}` })
        .where(eq(users.id, before.userId));
    }
    return true;
  });
}

export async function imagesOf(db: Db, predictionIds: string[]): Promise<GeneratedImageRow[]> {
  if (!predictionIds.length) return [];
  return db
    .select()
    .from(generatedImages)
    .where(inArray(generatedImages.predictionId, predictionIds))
    .orderBy(generatedImages.position);
}

export async function upscalesOf(db: Db, imageIds: string[]): Promise<ImageUpscaleRow[]> {
  if (!imageIds.length) return [];
  return db
    .select()
    .from(imageUpscales)
    .where(inArray(imageUpscales.imageId, imageIds))
    .orderBy(imageUpscales.createdAt);
}

export async function postsOfImages(db: Db, imageIds: string[]): Promise<ProfilePostRow[]> {
  if (!imageIds.length) return [];
  return db.select().from(profilePosts).where(inArray(profilePosts.imageId, imageIds));
}

export async function findOwnImage(
  db: Db,
  userId: string,
  id: string,
): Promise<GeneratedImageRow | undefined> {
  const [row] = await db
    .select()
    .from(generatedImages)
    .where(and(eq(generatedImages.id, id), eq(generatedImages.userId, userId)));
  return row;
}

export async function findImageByUrl(
  db: Db,
  userId: string,
  url: string,
): Promise<GeneratedImageRow | undefined> {
  const [row] = await db
    .select()
    .from(generatedImages)
    .where(and(eq(generatedImages.userId, userId), eq(generatedImages.url, url)));
  return row;
}

/** Deletes an image (its upscales and post go with it); answers the storage keys to remove. */
export async function deleteImage(db: Db, userId: string, id: string): Promise<string[] | null> {
  return db.transaction(async (tx) => {
    const ups = await tx
      .select({ key: imageUpscales.storageKey })
      .from(imageUpscales)
      .where(and(eq(imageUpscales.imageId, id), eq(imageUpscales.userId, userId)));
    const [row] = await tx
      .delete(generatedImages)
      .where(and(eq(generatedImages.id, id), eq(generatedImages.userId, userId)))
      .returning();
    if (!row) return null;
    // A prediction whose every image is gone goes too.
    await tx.execute(
      sql`delete from ${imagePredictions} where ${imagePredictions.id} = ${row.predictionId} and ${imagePredictions.status} = 'succeeded' and not exists (select 1 from ${generatedImages} where ${generatedImages.predictionId} = ${row.predictionId})`,
    );
    return [row.storageKey, ...ups.flatMap((u) => (u.key ? [u.key] : []))];
  });
}

/* ------------------------------------------------------------------------------------------- */
/* Upscales                                                                                     */
/* ------------------------------------------------------------------------------------------- */

export async function findOwnUpscale(
  db: Db,
  userId: string,
  id: string,
): Promise<ImageUpscaleRow | undefined> {
  const [row] = await db
    .select()
    .from(imageUpscales)
    .where(and(eq(imageUpscales.id, id), eq(imageUpscales.userId, userId)));
  return row;
}

export async function findUpscale(db: Db, id: string): Promise<ImageUpscaleRow | undefined> {
  const [row] = await db.select().from(imageUpscales).where(eq(imageUpscales.id, id));
  return row;
}

export async function findUpscaleByProvider(
  db: Db,
  providerId: string,
): Promise<ImageUpscaleRow | undefined> {
  const [row] = await db
    .select()
    .from(imageUpscales)
    .where(eq(imageUpscales.providerId, providerId));
  return row;
}

export async function claimUpscale(
  db: Db,
  id: string,
  leaseMs: number,
): Promise<ImageUpscaleRow | undefined> {
  const [row] = await db
    .update(imageUpscales)
    .set({
      status: 'running',
      attempts: sql`${imageUpscales.attempts} + 1`,
      leaseUntil: new Date(Date.now() + leaseMs),
    })
    .where(and(eq(imageUpscales.id, id), eq(imageUpscales.status, 'queued')))
    .returning();
  return row;
}

export async function setUpscaleProvider(
  db: Db,
  id: string,
  values: { providerId?: string; lastPolledAt?: Date },
): Promise<void> {
  await db.update(imageUpscales).set(values).where(eq(imageUpscales.id, id));
}

export async function finishUpscale(
  db: Db,
  id: string,
  values: { storageKey: string; width: number; height: number },
): Promise<boolean> {
  const rows = await db
    .update(imageUpscales)
    .set({ ...values, status: 'succeeded', completedAt: new Date() })
    .where(and(eq(imageUpscales.id, id), eq(imageUpscales.status, 'running')))
    .returning({ id: imageUpscales.id });
  return rows.length > 0;
}

export async function failUpscale(
  db: Db,
  id: string,
  error: string,
  status: 'failed' | 'canceled' = 'failed',
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(imageUpscales)
      .set({ status, error, charged: 0, completedAt: new Date() })
      .where(and(eq(imageUpscales.id, id), inArray(imageUpscales.status, ['queued', 'running'])))
      .returning({ userId: imageUpscales.userId });
    if (!row) return false;
    await tx
      .update(users)
      .set({ imageGenerationCredits: sql`${users.imageGenerationCredits} + 1` })
      .where(eq(users.id, row.userId));
    return true;
  });
}

export async function deleteUpscale(
  db: Db,
  userId: string,
  id: string,
): Promise<ImageUpscaleRow | undefined> {
  const [row] = await db
    .delete(imageUpscales)
    .where(and(eq(imageUpscales.id, id), eq(imageUpscales.userId, userId)))
    .returning();
  return row;
}

/* ------------------------------------------------------------------------------------------- */
/* Posts                                                                                        */
/* ------------------------------------------------------------------------------------------- */

export async function insertPost(
  db: Db,
  values: {
    userId: string;
    imageId: string;
    upscaleId: string | null;
    name: string;
    description: string;
  },
): Promise<ProfilePostRow | null> {
  const rows = await db.insert(profilePosts).values(values).onConflictDoNothing().returning();
  return rows[0] ?? null;
}

export interface PostJoin {
  post: ProfilePostRow;
  image: GeneratedImageRow;
  upscale: ImageUpscaleRow | null;
  username: string;
  prompt: string;
  modelName: string;
}

const postSelect = {
  post: profilePosts,
  image: generatedImages,
  upscale: imageUpscales,
  username: users.username,
  prompt: imagePredictions.prompt,
  modelName: imagePredictions.modelName,
};

export async function listPostsOf(db: Db, userId: string): Promise<PostJoin[]> {
  return db
    .select(postSelect)
    .from(profilePosts)
    .innerJoin(generatedImages, eq(generatedImages.id, profilePosts.imageId))
    .innerJoin(imagePredictions, eq(imagePredictions.id, generatedImages.predictionId))
    .innerJoin(users, eq(users.id, profilePosts.userId))
    .leftJoin(imageUpscales, eq(imageUpscales.id, profilePosts.upscaleId))
    .where(eq(profilePosts.userId, userId))
    .orderBy(desc(profilePosts.createdAt));
}

export async function findPostJoin(db: Db, postId: string): Promise<PostJoin | undefined> {
  const [row] = await db
    .select(postSelect)
    .from(profilePosts)
    .innerJoin(generatedImages, eq(generatedImages.id, profilePosts.imageId))
    .innerJoin(imagePredictions, eq(imagePredictions.id, generatedImages.predictionId))
    .innerJoin(users, eq(users.id, profilePosts.userId))
    .leftJoin(imageUpscales, eq(imageUpscales.id, profilePosts.upscaleId))
    .where(eq(profilePosts.id, postId));
  return row;
}

export async function findPostOfImage(
  db: Db,
  imageId: string,
): Promise<ProfilePostRow | undefined> {
  const [row] = await db.select().from(profilePosts).where(eq(profilePosts.imageId, imageId));
  return row;
}

export async function deletePost(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(profilePosts)
    .where(and(eq(profilePosts.id, id), eq(profilePosts.userId, userId)))
    .returning({ id: profilePosts.id });
  return rows.length > 0;
}

export async function findUserByUsername(db: Db, username: string) {
  const [row] = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`);
  return row;
}

export async function findUserById(db: Db, id: string) {
  const [row] = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(eq(users.id, id));
  return row;
}

/** Records a webhook delivery; false when it was seen before. */
export async function recordWebhookEvent(db: Db, id: string): Promise<boolean> {
  const rows = await db.insert(imageWebhookEvents).values({ id }).onConflictDoNothing().returning();
  return rows.length > 0;
}

export async function forgetWebhookEvent(db: Db, id: string): Promise<void> {
  await db.delete(imageWebhookEvents).where(eq(imageWebhookEvents.id, id));
}

/* ------------------------------------------------------------------------------------------- */
/* Runs a crash, a restart or a lost job left behind                                            */
/* ------------------------------------------------------------------------------------------- */

export interface StalledRuns {
  models: ImageModelRow[];
  predictions: ImagePredictionRow[];
  upscales: ImageUpscaleRow[];
}

/**
 * Runs nothing is working on: queued since before `queuedBefore` (their job was lost); started
 * but without the provider's id once their lease is over (the process died while starting
 * them); or started at the provider and not polled since `polledBefore` (their poll was lost).
 * Rows claimed before leases existed count from their creation (or last update) plus 15 minutes.
 */
export async function findStalledRuns(
  db: Db,
  cutoffs: { queuedBefore: Date; polledBefore: Date },
  limit = 200,
): Promise<StalledRuns> {
  const noLease = (since: unknown) => sql`${since} + interval '15 minutes'`;
  const models = await db
    .select()
    .from(imageModels)
    .where(
      or(
        and(eq(imageModels.status, 'queued'), lt(imageModels.updatedAt, cutoffs.queuedBefore)),
        and(
          eq(imageModels.status, 'training'),
          isNull(imageModels.providerTrainingId),
          sql`coalesce(${imageModels.leaseUntil}, ${noLease(imageModels.updatedAt)}) < now()`,
        ),
        and(
          eq(imageModels.status, 'training'),
          isNotNull(imageModels.providerTrainingId),
          sql`coalesce(${imageModels.lastPolledAt}, ${imageModels.updatedAt}) < ${cutoffs.polledBefore.toISOString()}::timestamptz`,
        ),
      ),
    )
    .limit(limit);
  const predictions = await db
    .select()
    .from(imagePredictions)
    .where(
      or(
        and(
          eq(imagePredictions.status, 'queued'),
          lt(imagePredictions.createdAt, cutoffs.queuedBefore),
        ),
        and(
          eq(imagePredictions.status, 'running'),
          isNull(imagePredictions.providerId),
          sql`coalesce(${imagePredictions.leaseUntil}, ${noLease(imagePredictions.createdAt)}) < now()`,
        ),
        and(
          eq(imagePredictions.status, 'running'),
          isNotNull(imagePredictions.providerId),
          sql`coalesce(${imagePredictions.lastPolledAt}, ${imagePredictions.createdAt}) < ${cutoffs.polledBefore.toISOString()}::timestamptz`,
        ),
      ),
    )
    .limit(limit);
  const upscales = await db
    .select()
    .from(imageUpscales)
    .where(
      or(
        and(eq(imageUpscales.status, 'queued'), lt(imageUpscales.createdAt, cutoffs.queuedBefore)),
        and(
          eq(imageUpscales.status, 'running'),
          isNull(imageUpscales.providerId),
          sql`coalesce(${imageUpscales.leaseUntil}, ${noLease(imageUpscales.createdAt)}) < now()`,
        ),
        and(
          eq(imageUpscales.status, 'running'),
          isNotNull(imageUpscales.providerId),
          sql`coalesce(${imageUpscales.lastPolledAt}, ${imageUpscales.createdAt}) < ${cutoffs.polledBefore.toISOString()}::timestamptz`,
        ),
      ),
    )
    .limit(limit);
  return { models, predictions, upscales };
}

/**
 * A run interrupted before the provider had it goes back to the queue (running → queued, only
 * while no provider id was recorded). Returns whether it did.
 */
export async function requeueRun(
  db: Db,
  kind: 'prediction' | 'upscale' | 'training',
  id: string,
): Promise<boolean> {
  if (kind === 'training') {
    const rows = await db
      .update(imageModels)
      .set({ status: 'queued', progress: 0, leaseUntil: null, updatedAt: new Date() })
      .where(
        and(
          eq(imageModels.id, id),
          eq(imageModels.status, 'training'),
          isNull(imageModels.providerTrainingId),
        ),
      )
      .returning({ id: imageModels.id });
    return rows.length > 0;
  }
  const table = kind === 'prediction' ? imagePredictions : imageUpscales;
  const rows = await db
    .update(table)
    .set({ status: 'queued', leaseUntil: null })
    .where(and(eq(table.id, id), eq(table.status, 'running'), isNull(table.providerId)))
    .returning({ id: table.id });
  return rows.length > 0;
}
