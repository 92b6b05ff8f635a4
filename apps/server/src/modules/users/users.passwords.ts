import { hash, verify } from '@node-rs/argon2';

/**
 * argon2id with OWASP's first recommended setting (m = 19 MiB, t = 2, p = 1): about 30 ms a
 * hash on this kind of machine. The parameters are stored in each hash, so raising them
 * later still verifies older hashes.
 */
const OPTIONS = {
  algorithm: 2, // Algorithm.Argon2id (a const enum the isolated-modules build cannot import)
  memoryCost: 19 * 1024,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** True when the password matches; false for a wrong password or an unreadable hash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the time of one verification without a user, so that "no such email" and "wrong
 * password" take as long as each other and the login answer reveals nothing.
 */
export async function verifyNothing(password: string): Promise<false> {
  dummyHash ??= hashPassword('a password nobody has, to keep timing even');
  await verifyPassword(await dummyHash, password);
  return false;
}
