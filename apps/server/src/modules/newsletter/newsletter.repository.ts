import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { newsletterSubscribers, type NewsletterSubscriberRow } from '../../db/schema/index.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Subscribes an address, once per address whatever its case. Returns the row and whether
 * this call started a subscription (new, or back after unsubscribing): only then does a
 * confirmation email go out.
 */
export async function subscribe(
  db: Db,
  email: string,
): Promise<{ subscriber: NewsletterSubscriberRow; started: boolean }> {
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(newsletterSubscribers)
      .where(sql`lower(${newsletterSubscribers.email}) = lower(${email})`)
      .for('update')
      .limit(1);
    if (existing && !existing.unsubscribedAt) return { subscriber: existing, started: false };
    if (existing) {
      const [row] = await tx
        .update(newsletterSubscribers)
        .set({ unsubscribedAt: null, subscribedAt: new Date() })
        .where(eq(newsletterSubscribers.id, existing.id))
        .returning();
      return { subscriber: row!, started: true };
    }
    // ON CONFLICT: two sign-ups of one address at the same moment make one row.
    const [row] = await tx
      .insert(newsletterSubscribers)
      .values({ email })
      .onConflictDoNothing()
      .returning();
    if (row) return { subscriber: row, started: true };
    const [raced] = await tx
      .select()
      .from(newsletterSubscribers)
      .where(sql`lower(${newsletterSubscribers.email}) = lower(${email})`)
      .limit(1);
    return { subscriber: raced!, started: false };
  });
}

export async function findSubscriber(
  db: Db,
  id: string,
): Promise<NewsletterSubscriberRow | undefined> {
  if (!UUID.test(id)) return undefined;
  const [row] = await db
    .select()
    .from(newsletterSubscribers)
    .where(eq(newsletterSubscribers.id, id))
    .limit(1);
  return row;
}

/** Marks the subscriber unsubscribed (keeping the first time they left). */
export async function unsubscribe(db: Db, id: string): Promise<void> {
  await db
    .update(newsletterSubscribers)
    .set({ unsubscribedAt: sql`coalesce(${newsletterSubscribers.unsubscribedAt}, now())` })
    .where(eq(newsletterSubscribers.id, id));
}
