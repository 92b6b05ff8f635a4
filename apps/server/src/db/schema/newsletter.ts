import { sql } from 'drizzle-orm';
import { pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * Newsletter sign-ups from the footer: one row per address (case-insensitive). Unsubscribing
 * keeps the row with `unsubscribed_at` set, so a later sign-up simply clears it.
 */
export const newsletterSubscribers = pgTable(
  'newsletter_subscribers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    subscribedAt: timestamp('subscribed_at', { withTimezone: true }).notNull().defaultNow(),
    unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('newsletter_subscribers_email_lower_key').on(sql`lower(${t.email})`)],
);

export type NewsletterSubscriberRow = typeof newsletterSubscribers.$inferSelect;
