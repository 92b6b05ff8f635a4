import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';

/** The chat session cookie: HttpOnly, SameSite=Strict, sent only to the assistant's API. */
export const SESSION_COOKIE = 'cw_assistant';
export const SESSION_COOKIE_PATH = '/api/v1/assistant';
/** A chat session lasts a school day; the dashboard opens a new one any time. */
export const SESSION_TTL_SECONDS = 12 * 3600;
const AUDIENCE = 'chapterwise:assistant';

/**
 * Chat sessions: a JWT with its own audience, so it is never an API session (TokenService
 * refuses tokens with an audience) and an API session is never a chat session. It carries the
 * user's token version, so logging out or changing the password ends it too.
 */
export class AssistantSessions {
  private readonly key: Uint8Array;
  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(user: { id: string; tokenVersion: number }): Promise<string> {
    return new SignJWT({ ver: user.tokenVersion })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience(AUDIENCE)
      .setSubject(user.id)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + SESSION_TTL_SECONDS)
      .sign(this.key);
  }

  async verify(token: string): Promise<{ userId: string; version: number } | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        audience: AUDIENCE,
      });
      if (typeof payload.sub !== 'string' || typeof payload.ver !== 'number') return null;
      return { userId: payload.sub, version: payload.ver };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return null;
      throw error;
    }
  }
}
