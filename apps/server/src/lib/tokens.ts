import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';

/** Session lifetimes: 'Remember me' keeps a teacher logged in for 30 days, otherwise 1 day. */
export const SESSION_TTL_SECONDS = { remember: 30 * 24 * 3600, short: 24 * 3600 } as const;

export interface SessionClaims {
  /** The user's id. */
  sub: string;
  /** The user's token version when the token was made. */
  ver: number;
}

/** A verified token's claims, with its expiry (and issue time) in seconds since the epoch. */
export interface VerifiedSession extends SessionClaims {
  exp: number;
  iat?: number;
}

/** Signs and verifies the bearer tokens the web app keeps in local storage (HS256, with exp). */
export class TokenService {
  private readonly key: Uint8Array;
  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  async sign(claims: SessionClaims, ttlSeconds: number): Promise<string> {
    return new SignJWT({ ver: claims.ver })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(this.key);
  }

  /** The claims of a valid token, or null for a tampered, expired or malformed one. */
  async verify(token: string): Promise<VerifiedSession | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload.ver !== 'number') return null;
      if (typeof payload.exp !== 'number') return null;
      return {
        sub: payload.sub,
        ver: payload.ver,
        exp: payload.exp,
        ...(typeof payload.iat === 'number' ? { iat: payload.iat } : {}),
      };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return null;
      throw error;
    }
  }
}
