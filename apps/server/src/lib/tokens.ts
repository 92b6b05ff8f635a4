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
      // Operator tokens (below) are never sessions.
      if (payload.aud !== undefined) return null;
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

  /**
   * A one-minute token for an operator command run on the server's machine (`npm run
   * users:admin` talking to a running server). It needs the same secret as sessions, so it
   * gives no one anything a holder of JWT_SECRET could not already do; its audience keeps it
   * from ever counting as a session, and a session from ever counting as one of these.
   */
  async signOperator(command: string): Promise<string> {
    return new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience(OPERATOR_AUDIENCE)
      .setSubject(command)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + 60)
      .sign(this.key);
  }

  /** Whether `token` is a valid operator token for `command`. */
  async verifyOperator(token: string, command: string): Promise<boolean> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        audience: OPERATOR_AUDIENCE,
        subject: command,
      });
      return typeof payload.exp === 'number';
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return false;
      throw error;
    }
  }
}

const OPERATOR_AUDIENCE = 'chapterwise:operator';
