import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { UserRow } from '../db/schema/index.js';
import { forbidden, unauthorized } from '../lib/errors.js';
import { TokenService } from '../lib/tokens.js';
import { findUserById } from '../modules/users/users.repository.js';

declare module 'fastify' {
  interface FastifyInstance {
    tokens: TokenService;
  }
  interface FastifyRequest {
    /** The signed-in user from the bearer token, or null. Resolved once per request. */
    currentUser(): Promise<UserRow | null>;
  }
}

const userCache = new WeakMap<FastifyRequest, Promise<UserRow | null>>();

/**
 * Bearer-token sessions. A token counts only while its user exists and its version equals
 * the user's token version, so a password change or reset ends every older session at once.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, options: { jwtSecret: string }) => {
    const tokens = new TokenService(options.jwtSecret);
    app.decorate('tokens', tokens);

    async function resolveUser(request: FastifyRequest): Promise<UserRow | null> {
      const header = request.headers.authorization;
      if (!header) return null;
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      if (!match?.[1]) return null;
      const claims = await tokens.verify(match[1]);
      if (!claims) return null;
      const user = await findUserById(app.db, claims.sub);
      if (!user || user.tokenVersion !== claims.ver) return null;
      return user;
    }

    app.decorateRequest('currentUser', function currentUser(this: FastifyRequest) {
      let pending = userCache.get(this);
      if (!pending) {
        pending = resolveUser(this);
        userCache.set(this, pending);
      }
      return pending;
    });
  },
  { name: 'auth', dependencies: ['db'] },
);

/** The signed-in user, or a 401 answer. */
export async function requireUser(request: FastifyRequest): Promise<UserRow> {
  const user = await request.currentUser();
  if (!user) {
    throw unauthorized(
      request.headers.authorization
        ? 'Your session has ended. Please log in again.'
        : 'Please log in to continue.',
    );
  }
  return user;
}

/** The signed-in admin, or a 401/403 answer. */
export async function requireAdmin(request: FastifyRequest): Promise<UserRow> {
  const user = await requireUser(request);
  if (user.role !== 'admin') throw forbidden('Only administrators can do this.');
  return user;
}
