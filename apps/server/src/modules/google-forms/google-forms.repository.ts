import { eq, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  googleAccounts,
  googleOauthStates,
  type GoogleAccountRow,
  type GoogleOauthStateRow,
} from '../../db/schema/index.js';

export async function findAccount(db: Db, userId: string): Promise<GoogleAccountRow | undefined> {
  const [row] = await db.select().from(googleAccounts).where(eq(googleAccounts.userId, userId));
  return row;
}

/** Keeps a teacher's (sealed) tokens, replacing an earlier connection. */
export async function saveAccount(
  db: Db,
  values: Omit<GoogleAccountRow, 'createdAt' | 'updatedAt'>,
): Promise<void> {
  const now = new Date();
  await db
    .insert(googleAccounts)
    .values({ ...values, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: googleAccounts.userId,
      set: { ...values, updatedAt: now },
    });
}

export async function updateAccess(
  db: Db,
  userId: string,
  values: Pick<GoogleAccountRow, 'accessTokenSealed' | 'accessExpiresAt'> &
    Partial<Pick<GoogleAccountRow, 'refreshTokenSealed'>>,
): Promise<void> {
  await db
    .update(googleAccounts)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(googleAccounts.userId, userId));
}

export async function deleteAccount(db: Db, userId: string): Promise<GoogleAccountRow | undefined> {
  const [row] = await db
    .delete(googleAccounts)
    .where(eq(googleAccounts.userId, userId))
    .returning();
  return row;
}

export async function insertState(
  db: Db,
  values: Omit<GoogleOauthStateRow, 'createdAt'>,
): Promise<void> {
  await db.delete(googleOauthStates).where(lt(googleOauthStates.expiresAt, new Date()));
  await db.insert(googleOauthStates).values(values);
}

/** Takes a state once (deleted as it is read); undefined when unknown or already used. */
export async function takeState(
  db: Db,
  stateHash: string,
): Promise<GoogleOauthStateRow | undefined> {
  const [row] = await db
    .delete(googleOauthStates)
    .where(eq(googleOauthStates.stateHash, stateHash))
    .returning();
  return row;
}
