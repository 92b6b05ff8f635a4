import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { ModelStatus, RunStatus, SubjectClass } from '@chapterwise/shared';
import { users } from './users.js';

/**
 * A teacher's custom image model: queued → training → ready | failed. `charged` is true while
 * the model training credit taken for it has not been given back. Training photos are kept in
 * storage under keys nobody is shown (`photo_keys`); `palette` holds their colours.
 */
export const imageModels = pgTable(
  'image_models',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    subjectClass: text('subject_class').$type<SubjectClass>().notNull(),
    triggerWord: text('trigger_word').notNull(),
    status: text('status').$type<ModelStatus>().notNull().default('queued'),
    progress: integer('progress').notNull().default(0),
    error: text('error'),
    isPrivate: boolean('is_private').notNull().default(true),
    engine: text('engine').notNull(),
    photoKeys: text('photo_keys').array().notNull().default([]),
    coverKey: text('cover_key'),
    palette: jsonb('palette').$type<string[]>().notNull().default([]),
    providerTrainingId: text('provider_training_id'),
    providerVersion: text('provider_version'),
    charged: boolean('charged').notNull().default(true),
    attempts: integer('attempts').notNull().default(0),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastPolledAt: timestamp('last_polled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('image_models_user_created_idx').on(t.userId, t.createdAt),
    index('image_models_provider_idx').on(t.providerTrainingId),
  ],
);

/**
 * One generation request (a "prediction"): 1–4 images from a prompt with a base model or a
 * custom one. `charged` counts the image credits taken and not given back.
 */
export const imagePredictions = pgTable(
  'image_predictions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    modelId: uuid('model_id').references(() => imageModels.id, { onDelete: 'cascade' }),
    baseModel: text('base_model'),
    modelName: text('model_name').notNull(),
    prompt: text('prompt').notNull(),
    negativePrompt: text('negative_prompt').notNull().default(''),
    numImages: integer('num_images').notNull(),
    aspectRatio: text('aspect_ratio').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    seed: integer('seed').notNull(),
    status: text('status').$type<RunStatus>().notNull().default('queued'),
    error: text('error'),
    engine: text('engine').notNull(),
    providerId: text('provider_id'),
    charged: integer('charged').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastPolledAt: timestamp('last_polled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('image_predictions_user_created_idx').on(t.userId, t.createdAt),
    index('image_predictions_model_created_idx').on(t.modelId, t.createdAt),
    index('image_predictions_provider_idx').on(t.providerId),
  ],
);

/** One image of a prediction, stored in our storage; `url` is its readable slug. */
export const generatedImages = pgTable(
  'generated_images',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    predictionId: uuid('prediction_id')
      .notNull()
      .references(() => imagePredictions.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    storageKey: text('storage_key').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    position: integer('position').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('generated_images_user_url_key').on(t.userId, t.url),
    index('generated_images_prediction_idx').on(t.predictionId, t.position),
  ],
);

/** An enlargement (2× or 4×) of a generated image; one image credit. */
export const imageUpscales = pgTable(
  'image_upscales',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    imageId: uuid('image_id')
      .notNull()
      .references(() => generatedImages.id, { onDelete: 'cascade' }),
    scale: integer('scale').notNull(),
    status: text('status').$type<RunStatus>().notNull().default('queued'),
    error: text('error'),
    engine: text('engine').notNull(),
    providerId: text('provider_id'),
    storageKey: text('storage_key'),
    width: integer('width'),
    height: integer('height'),
    charged: integer('charged').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastPolledAt: timestamp('last_polled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('image_upscales_image_idx').on(t.imageId, t.createdAt),
    index('image_upscales_provider_idx').on(t.providerId),
  ],
);

/** A generated image posted to its creator's public profile (one post per image). */
export const profilePosts = pgTable(
  'profile_posts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    imageId: uuid('image_id')
      .notNull()
      .references(() => generatedImages.id, { onDelete: 'cascade' }),
    upscaleId: uuid('upscale_id').references(() => imageUpscales.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('profile_posts_image_key').on(t.imageId),
    index('profile_posts_user_created_idx').on(t.userId, t.createdAt),
  ],
);

/** Webhook deliveries already applied (`webhook-id`): a replay finds its row and does nothing. */
export const imageWebhookEvents = pgTable('image_webhook_events', {
  id: text('id').primaryKey(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

export type ImageModelRow = typeof imageModels.$inferSelect;
export type ImagePredictionRow = typeof imagePredictions.$inferSelect;
export type GeneratedImageRow = typeof generatedImages.$inferSelect;
export type ImageUpscaleRow = typeof imageUpscales.$inferSelect;
export type ProfilePostRow = typeof profilePosts.$inferSelect;
