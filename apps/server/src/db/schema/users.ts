import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * A teacher's account. Wire names (`_id`, `generationCredits`) are shaped by the users
 * presenter; nothing here is sent to a client as it is.
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    bio: text('bio').notNull().default(''),
    websiteUrl: text('website_url').notNull().default(''),
    instagramUrl: text('instagram_url').notNull().default(''),
    twitterUrl: text('twitter_url').notNull().default(''),
    facebookUrl: text('facebook_url').notNull().default(''),
    avatar: text('avatar').notNull().default(''),
    address: text('address').notNull().default(''),
    city: text('city').notNull().default(''),
    state: text('state').notNull().default(''),
    postal: text('postal').notNull().default(''),
    country: text('country').notNull().default('US'),
    generationCredits: integer('generation_credits').notNull().default(5),
    /**
     * Kept by billing from the user's subscriptions (true while one is active, trialing or
     * past_due); never set from a client.
     */
    isSubscribed: boolean('is_subscribed').notNull().default(false),
    /** Bought in packs; only a paid order adds to them (billing). */
    imageGenerationCredits: integer('image_generation_credits').notNull().default(0),
    modelTrainingCredits: integer('model_training_credits').notNull().default(0),
    role: text('role', { enum: ['user', 'admin'] })
      .notNull()
      .default('user'),
    /** Bumped on password change or reset: tokens carrying an older version stop working. */
    tokenVersion: integer('token_version').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

/**
 * Password reset links: single use, valid for an hour. Only a SHA-256 of the token is kept,
 * so a copy of the database cannot be used to take over accounts.
 */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('password_reset_tokens_token_hash_key').on(t.tokenHash),
    index('password_reset_tokens_user_id_idx').on(t.userId),
  ],
);

export type PasswordResetTokenRow = typeof passwordResetTokens.$inferSelect;
