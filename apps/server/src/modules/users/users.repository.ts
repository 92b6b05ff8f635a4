import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  passwordResetTokens,
  users,
  type NewUserRow,
  type UserRow,
} from '../../db/schema/index.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The user with this id, or undefined (also for strings that are not UUIDs). */
export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  if (!UUID.test(id)) return undefined;
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** The user with this email, whatever its case. */
export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  return row;
}

/** The user with this username, whatever its case. */
export async function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username})`)
    .limit(1);
  return row;
}

/** Which of the unique columns a failed insert collided with, if that is why it failed. */
export function uniqueViolation(error: unknown): 'email' | 'username' | 'other' | null {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const { code, constraint, message } = e as {
      code?: unknown;
      constraint?: unknown;
      message?: unknown;
    };
    if (code !== '23505') continue;
    const text = `${String(constraint ?? '')} ${String(message ?? '')}`;
    if (text.includes('users_email_lower_key')) return 'email';
    if (text.includes('users_username_lower_key')) return 'username';
    return 'other';
  }
  return null;
}

export async function insertUser(db: Db, values: NewUserRow): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export type ProfileFields = Partial<
  Pick<
    UserRow,
    | 'firstName'
    | 'lastName'
    | 'bio'
    | 'websiteUrl'
    | 'instagramUrl'
    | 'twitterUrl'
    | 'facebookUrl'
    | 'avatar'
    | 'address'
    | 'city'
    | 'state'
    | 'postal'
    | 'country'
  >
>;

export async function updateProfile(db: Db, id: string, fields: ProfileFields): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ ...fields, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  if (!row) throw new Error('user vanished during update');
  return row;
}

/**
 * Sets a new password hash and bumps the token version, which ends every session made
 * before (their tokens carry the old version), and drops outstanding reset links.
 */
export async function setPasswordHash(db: Db, id: string, passwordHash: string): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning();
    if (!row) throw new Error('user vanished during password change');
    await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, id));
    return row;
  });
}

/** Ends every session of the user (logout): their tokens carry an older version now. */
export async function bumpTokenVersion(db: Db, id: string): Promise<void> {
  await db
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(eq(users.id, id));
}

export async function insertResetToken(
  db: Db,
  values: { userId: string; tokenHash: string; expiresAt: Date },
): Promise<void> {
  // Old, expired links of the same user are dropped on the way, so the table stays small.
  await db
    .delete(passwordResetTokens)
    .where(
      and(
        eq(passwordResetTokens.userId, values.userId),
        lt(passwordResetTokens.expiresAt, new Date()),
      ),
    );
  await db.insert(passwordResetTokens).values(values);
}

/**
 * Uses a reset token and sets the new password in one transaction. The token counts only
 * once (the conditional UPDATE marks it used; a second request finds nothing) and only
 * before it expires. Returns the user, or undefined for an unknown, used or expired token.
 */
export async function resetPasswordWithToken(
  db: Db,
  tokenHash: string,
  passwordHash: string,
): Promise<UserRow | undefined> {
  return db.transaction(async (tx) => {
    const [used] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(passwordResetTokens.tokenHash, tokenHash),
          isNull(passwordResetTokens.usedAt),
          gt(passwordResetTokens.expiresAt, new Date()),
        ),
      )
      .returning({ userId: passwordResetTokens.userId });
    if (!used) return undefined;
    const [row] = await tx
      .update(users)
      .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
      .where(eq(users.id, used.userId))
      .returning();
    await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, used.userId));
    return row;
  });
}
