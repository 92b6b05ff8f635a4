import { createHash, randomBytes } from 'node:crypto';
import {
  ACCOUNT_MESSAGES,
  PASSWORD_RESET_TTL_MINUTES,
  type ChangePasswordInput,
  type OwnUser,
  type PublicUser,
  type ResultAnswer,
} from '@chapterwise/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type {
  RegisterInputSchema,
  ResetPasswordInputSchema,
  UpdateProfileInputSchema,
} from '@chapterwise/shared';
import type { Db } from '../../db/client.js';
import type { UserRow } from '../../db/schema/index.js';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../../lib/errors.js';
import { SESSION_TTL_SECONDS, type TokenService } from '../../lib/tokens.js';
import type { MailQueue } from '../../providers/mail/index.js';
import type { Storage } from '../../providers/storage/index.js';
import { isAvatarUpload, processAvatar } from './users.avatar.js';
import { passwordResetEmail } from './users.emails.js';
import { hashPassword, verifyNothing, verifyPassword } from './users.passwords.js';
import { presentOwnUser, presentPublicUser } from './users.presenter.js';
import * as repo from './users.repository.js';

export interface UsersDeps {
  db: Db;
  tokens: TokenService;
  mail: MailQueue;
  storage: Storage;
  publicUrl: string;
  log: FastifyBaseLogger;
}

type RegisterData = z.output<typeof RegisterInputSchema>;
type UpdateProfileData = z.output<typeof UpdateProfileInputSchema>;
type ResetPasswordData = z.output<typeof ResetPasswordInputSchema>;

/** A reset token is random (256 bits); only its SHA-256 is stored. */
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Accounts: registration, login and sessions, the profile, passwords and reset links.
 * Other modules reach users through this service.
 */
export class UsersService {
  constructor(private readonly deps: UsersDeps) {}

  /** Creates an account (5 free generation credits come from the column default). */
  async register(input: RegisterData): Promise<OwnUser> {
    if (input.passwordConfirmation !== undefined && input.passwordConfirmation !== input.password) {
      throw badRequest(ACCOUNT_MESSAGES.passwordsDiffer);
    }
    const { db } = this.deps;
    if (await repo.findUserByEmail(db, input.email)) {
      throw conflict('An account already uses this email address. Try logging in instead.');
    }
    if (await repo.findUserByUsername(db, input.username)) {
      throw conflict('This username is taken. Please choose another one.');
    }
    const passwordHash = await hashPassword(input.password);
    try {
      const row = await repo.insertUser(db, {
        username: input.username,
        email: input.email,
        passwordHash,
        firstName: input.firstName,
        lastName: input.lastName,
        address: input.address ?? '',
        city: input.city ?? '',
        state: input.state ?? '',
        postal: input.postal ?? '',
        country: input.country || 'US',
      });
      return presentOwnUser(row);
    } catch (error) {
      // Two sign-ups with the same name at the same moment: the unique index decides.
      const clash = repo.uniqueViolation(error);
      if (clash === 'email')
        throw conflict('An account already uses this email address. Try logging in instead.');
      if (clash) throw conflict('This username is taken. Please choose another one.');
      throw error;
    }
  }

  /** Checks the password and opens a session of 30 days ('Remember me') or 1 day. */
  async login(input: {
    email: string;
    password: string;
    rememberMe?: boolean | undefined;
  }): Promise<{ token: string; user: OwnUser }> {
    const user = await repo.findUserByEmail(this.deps.db, input.email);
    const ok = user
      ? await verifyPassword(user.passwordHash, input.password)
      : await verifyNothing(input.password);
    if (!user || !ok) throw unauthorized(ACCOUNT_MESSAGES.loginFailed);
    const token = await this.issueToken(user, input.rememberMe ? 'remember' : 'short');
    return { token, user: presentOwnUser(user) };
  }

  private issueToken(user: UserRow, lifetime: keyof typeof SESSION_TTL_SECONDS): Promise<string> {
    return this.deps.tokens.sign(
      { sub: user.id, ver: user.tokenVersion },
      SESSION_TTL_SECONDS[lifetime],
    );
  }

  /** Ends every session of the user, on every device. */
  async logout(user: UserRow): Promise<void> {
    await repo.bumpTokenVersion(this.deps.db, user.id);
  }

  /**
   * Saves the editable profile fields. Only the owner may: another id is a 403 whether or not
   * it exists. A `data:` avatar is processed and stored; `''` removes the avatar.
   */
  async updateProfile(user: UserRow, id: string, input: UpdateProfileData): Promise<OwnUser> {
    if (id !== user.id) throw forbidden('You can only change your own profile.');
    const { avatar, ...fields } = input;
    const { storage } = this.deps;
    let newAvatarKey: string | undefined;
    let avatarUrl: string | undefined;
    if (avatar !== undefined && isAvatarUpload(avatar)) {
      const image = await processAvatar(avatar);
      newAvatarKey = `avatars/${user.id}-${randomBytes(6).toString('hex')}.webp`;
      await storage.put(newAvatarKey, image, { contentType: 'image/webp' });
      avatarUrl = storage.publicUrl(newAvatarKey);
    } else if (avatar === '') {
      avatarUrl = '';
    }
    let row: UserRow;
    try {
      row = await repo.updateProfile(this.deps.db, user.id, {
        ...fields,
        ...(fields.country === '' ? { country: 'US' } : {}),
        ...(avatarUrl !== undefined ? { avatar: avatarUrl } : {}),
      });
    } catch (error) {
      if (newAvatarKey) await storage.delete(newAvatarKey).catch(() => undefined);
      throw error;
    }
    // The old picture is no longer used by anyone once the new one is saved.
    if (avatarUrl !== undefined && user.avatar && user.avatar !== avatarUrl) {
      const oldKey = storage.keyFromUrl(user.avatar);
      if (oldKey) {
        await storage.delete(oldKey).catch((error: unknown) => {
          this.deps.log.warn({ err: error, key: oldKey }, 'could not delete an old avatar');
        });
      }
    }
    return presentOwnUser(row);
  }

  /**
   * Changes the password after checking the current one. Every other session ends; the
   * answer carries a new token for this device with the lifetime the old one had.
   */
  async changePassword(
    user: UserRow,
    input: ChangePasswordInput,
    currentTokenLifetimeSeconds: number | undefined,
  ): Promise<ResultAnswer> {
    if (input.newPassword !== input.newPasswordConfirm) {
      throw badRequest(ACCOUNT_MESSAGES.passwordsDiffer);
    }
    if (!(await verifyPassword(user.passwordHash, input.oldPassword))) {
      throw badRequest(ACCOUNT_MESSAGES.wrongOldPassword);
    }
    if (input.oldPassword === input.newPassword) throw badRequest(ACCOUNT_MESSAGES.samePassword);
    const updated = await repo.setPasswordHash(
      this.deps.db,
      user.id,
      await hashPassword(input.newPassword),
    );
    const remember =
      currentTokenLifetimeSeconds !== undefined &&
      currentTokenLifetimeSeconds > SESSION_TTL_SECONDS.short;
    return {
      wasSuccessful: true,
      message: ACCOUNT_MESSAGES.passwordChanged,
      token: await this.issueToken(updated, remember ? 'remember' : 'short'),
    };
  }

  /**
   * Emails a reset link when an account uses the address. The caller answers the same either
   * way, and the mail goes out in the background, so neither the answer nor its timing tells
   * whether the address has an account.
   */
  async requestPasswordReset(email: string): Promise<void> {
    const user = await repo.findUserByEmail(this.deps.db, email);
    if (!user) {
      this.deps.log.info('password reset asked for an address without an account');
      return;
    }
    const token = randomBytes(32).toString('base64url');
    await repo.insertResetToken(this.deps.db, {
      userId: user.id,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + PASSWORD_RESET_TTL_MINUTES * 60_000),
    });
    const url = `${this.deps.publicUrl}/reset?token=${encodeURIComponent(token)}`;
    this.deps.mail.sendLater(passwordResetEmail(user, url));
  }

  /** Sets a new password with a reset link's token (single use, within the hour). */
  async resetPassword(input: ResetPasswordData): Promise<ResultAnswer> {
    if (input.password !== input.passwordConfirmation) {
      throw badRequest(ACCOUNT_MESSAGES.passwordsDiffer);
    }
    const passwordHash = await hashPassword(input.password);
    const user = await repo.resetPasswordWithToken(
      this.deps.db,
      hashToken(input.token),
      passwordHash,
    );
    if (!user) throw badRequest(ACCOUNT_MESSAGES.resetInvalid);
    return { wasSuccessful: true, message: ACCOUNT_MESSAGES.resetDone };
  }

  /** A public profile by username (any case); never the email. */
  async getPublicProfile(username: string): Promise<PublicUser> {
    const row = /^[A-Za-z0-9_-]{1,30}$/.test(username)
      ? await repo.findUserByUsername(this.deps.db, username)
      : undefined;
    if (!row) throw notFound('There is no teacher with this username.');
    return presentPublicUser(row);
  }
}
