import { SignJWT } from 'jose';

/** How long the chat site may accept a token: long enough to open a tab, short enough to be safe. */
export const CHAT_TOKEN_TTL_SECONDS = 10 * 60;

/**
 * Makes the short-lived token the external AI Teaching Assistant takes as `?a=`. It names the
 * teacher and carries audience "chat", so it cannot be used as a session token here.
 */
export async function createChatToken(
  secret: string,
  user: { id: string; username: string; firstName: string },
): Promise<string> {
  return new SignJWT({ username: user.username, name: user.firstName })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(user.id)
    .setAudience('chat')
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + CHAT_TOKEN_TTL_SECONDS)
    .sign(new TextEncoder().encode(secret));
}
