import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.js';

/**
 * A teacher's Google connection for "Send to Google Forms": the tokens Google gave, sealed with
 * a key derived from JWT_SECRET and bound to the teacher (lib/secret-box.ts), never in clear.
 */
export const googleAccounts = pgTable('google_accounts', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  email: text('email'),
  scopes: text('scopes').notNull().default(''),
  refreshTokenSealed: text('refresh_token_sealed').notNull(),
  accessTokenSealed: text('access_token_sealed'),
  accessExpiresAt: timestamp('access_expires_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One consent in progress: the SHA-256 of the `state` sent to Google (the state itself is only
 * in the teacher's browser), the PKCE verifier (sealed), the material to send once connected
 * and where to return. Used once, within 10 minutes.
 */
export const googleOauthStates = pgTable(
  'google_oauth_states',
  {
    stateHash: text('state_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeVerifierSealed: text('code_verifier_sealed').notNull(),
    materialId: uuid('material_id'),
    returnTo: text('return_to').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('google_oauth_states_user_idx').on(t.userId)],
);

export type GoogleAccountRow = typeof googleAccounts.$inferSelect;
export type GoogleOauthStateRow = typeof googleOauthStates.$inferSelect;
