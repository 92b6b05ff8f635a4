import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { listAdminUsers, setRoleByEmail } from './users.roles.repository.js';

export type RoleAction = 'grant' | 'revoke' | 'list';

export interface RoleResult {
  /** The account changed (grant, revoke). */
  changed?: { email: string; username: string; role: 'user' | 'admin' };
  /** Every admin after the action. */
  admins: Array<{ email: string; username: string }>;
}

/**
 * Grants or takes back the admin role (blog authoring), or lists the admins. Used by
 * `npm run users:admin`, directly on the database or through the running server. The change
 * counts from the next request: sessions are checked against the database every time.
 */
export async function changeAdminRole(
  db: Db,
  action: RoleAction,
  email?: string,
): Promise<RoleResult> {
  let changed: RoleResult['changed'];
  if (action !== 'list') {
    const row = await setRoleByEmail(db, email ?? '', action === 'grant' ? 'admin' : 'user');
    if (!row) throw notFound(`No account uses the email address ${email ?? ''}.`);
    changed = row;
  }
  return { ...(changed ? { changed } : {}), admins: await listAdminUsers(db) };
}
