import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users, type UserRow } from '../../db/schema/index.js';

/** Sets the role of the user with this email (any case); undefined when there is none. */
export async function setRoleByEmail(
  db: Db,
  email: string,
  role: UserRow['role'],
): Promise<Pick<UserRow, 'email' | 'username' | 'role'> | undefined> {
  const [row] = await db
    .update(users)
    .set({ role, updatedAt: new Date() })
    .where(sql`lower(${users.email}) = lower(${email})`)
    .returning({ email: users.email, username: users.username, role: users.role });
  return row;
}

/** Every admin, by email. */
export async function listAdminUsers(db: Db): Promise<Array<Pick<UserRow, 'email' | 'username'>>> {
  return db
    .select({ email: users.email, username: users.username })
    .from(users)
    .where(eq(users.role, 'admin'))
    .orderBy(asc(users.email));
}
