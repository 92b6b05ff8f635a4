import { randomUUID } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';

/** How long the chat site may accept a token: long enough to open a tab, short enough to be safe. */
export const CHAT_TOKEN_TTL_SECONDS = 10 * 60;
const CHAT_AUDIENCE = 'chat';

/**
 * Makes the short-lived token the AI Teaching Assistant takes as `?a=`. It names the teacher,
 * carries audience "chat" (so it is never a session token here), the user's token version (a
 * logout voids it) and a `jti` that the assistant accepts once.
 */
export async function createChatToken(
  secret: string,
  user: { id: string; username: string; firstName: string; tokenVersion: number },
): Promise<string> {
  return new SignJWT({ username: user.username, name: user.firstName, ver: user.tokenVersion })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(user.id)
    .setAudience(CHAT_AUDIENCE)
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + CHAT_TOKEN_TTL_SECONDS)
    .sign(new TextEncoder().encode(secret));
}

export type ChatTokenCheck =
  | { ok: true; userId: string; version: number; jti: string; expiresAt: Date }
  | { ok: false; reason: 'expired' | 'invalid' };

/** Checks a chat token's signature, audience and expiry (single use is the assistant's to enforce). */
export async function verifyChatToken(secret: string, token: string): Promise<ChatTokenCheck> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ['HS256'],
      audience: CHAT_AUDIENCE,
    });
    if (
      typeof payload.sub !== 'string' ||
      typeof payload.jti !== 'string' ||
      typeof payload.ver !== 'number' ||
      typeof payload.exp !== 'number'
    )
      return { ok: false, reason: 'invalid' };
    return {
      ok: true,
      userId: payload.sub,
      version: payload.ver,
      jti: payload.jti,
      expiresAt: new Date(payload.exp * 1000),
    };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) return { ok: false, reason: 'expired' };
    if (error instanceof joseErrors.JOSEError) return { ok: false, reason: 'invalid' };
    throw error;
  }
}
