import type { FastifyBaseLogger } from 'fastify';
import { createHash, randomBytes } from 'node:crypto';
import {
  googleFormEditUrl,
  GOOGLE_FORMS_RESULT_PARAM,
  type GoogleFormsErrorReason,
  type GoogleStatus,
  type SendToGoogleFormsAnswer,
} from '@chapterwise/shared';
import type { Db } from '../../db/client.js';
import type { UserRow } from '../../db/schema/index.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';
import {
  GoogleApiError,
  GoogleAuthError,
  type GoogleClient,
  type GoogleTokens,
} from '../../providers/google/index.js';
import type { GoogleFormPlan, MaterialsService } from '../materials/materials.service.js';
import * as repo from './google-forms.repository.js';

/** How long a teacher may take on Google's consent page. */
const STATE_TTL_MS = 10 * 60_000;
/** An access token this close to its end is refreshed first. */
const EXPIRY_MARGIN_MS = 60_000;

export interface GoogleFormsServiceDeps {
  db: Db;
  /** Null when GOOGLE_CLIENT_ID/SECRET are not set: the feature is off. */
  client: GoogleClient | null;
  materials: MaterialsService;
  box: SecretBox;
  log: FastifyBaseLogger;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

type Created = Extract<SendToGoogleFormsAnswer, { status: 'created' }>;

/**
 * "Send to Google Forms": the teacher's Google connection (OAuth 2.0 authorization code with
 * PKCE; tokens sealed per teacher) and the quiz made from a material with `forms.create` and
 * one `forms.batchUpdate`. A send without a usable connection answers Google's consent URL;
 * the callback finishes the connection and makes the form, then sends the teacher back.
 */
export class GoogleFormsService {
  constructor(private readonly deps: GoogleFormsServiceDeps) {}

  private get db() {
    return this.deps.db;
  }

  private get client(): GoogleClient {
    if (!this.deps.client) throw notFound('Google Forms is not set up on this site.');
    return this.deps.client;
  }

  async status(user: UserRow | null): Promise<GoogleStatus> {
    if (!this.deps.client || !user) {
      return { configured: Boolean(this.deps.client), connected: false, email: null };
    }
    const account = await repo.findAccount(this.db, user.id);
    return { configured: true, connected: Boolean(account), email: account?.email ?? null };
  }

  /**
   * Makes a quiz from one of the teacher's materials (or a ready-made one) in their Google
   * Forms, or answers Google's consent URL when they must connect first.
   */
  async send(user: UserRow, id: string, returnTo: string): Promise<SendToGoogleFormsAnswer> {
    const client = this.client;
    const plan = await this.deps.materials.googleFormPlan(user.id, id);
    if (!plan.questionCount) {
      throw conflict('This material has no questions a Google Forms quiz can hold.');
    }
    const accessToken = await this.accessTokenFor(user.id);
    if (!accessToken) {
      return { status: 'authorize', authorizeUrl: await this.authorize(user.id, id, returnTo) };
    }
    try {
      return await this.createForm(client, accessToken, plan);
    } catch (error) {
      if (error instanceof GoogleAuthError) {
        await repo.deleteAccount(this.db, user.id);
        return { status: 'authorize', authorizeUrl: await this.authorize(user.id, id, returnTo) };
      }
      throw this.unavailable(error);
    }
  }

  /**
   * Google's redirect back: checks the state (once, within 10 minutes), exchanges the code with
   * the PKCE verifier, keeps the tokens, makes the form the teacher asked for, and answers the
   * path to send them back to, with the outcome in its query.
   */
  async callback(query: { code?: string; state?: string; error?: string }): Promise<string> {
    const client = this.client;
    const state = query.state ? await repo.takeState(this.db, sha256(query.state)) : undefined;
    if (!state || state.expiresAt.getTime() < Date.now()) {
      return withResult('/dashboard', { reason: 'expired' });
    }
    const back = (result: { reason: GoogleFormsErrorReason } | Created) =>
      withResult(state.returnTo, result);
    if (query.error || !query.code) {
      return back({ reason: query.error === 'access_denied' ? 'denied' : 'failed' });
    }
    const verifier = this.deps.box.open(state.codeVerifierSealed, state.userId);
    if (!verifier) return back({ reason: 'expired' });
    let tokens: GoogleTokens;
    try {
      tokens = await client.exchangeCode(query.code, verifier);
    } catch (error) {
      this.deps.log.warn({ err: error }, 'Google sign-in failed');
      return back({ reason: error instanceof GoogleAuthError ? 'scope' : 'failed' });
    }
    if (!tokens.refreshToken) return back({ reason: 'failed' });
    await repo.saveAccount(this.db, {
      userId: state.userId,
      email: tokens.email,
      scopes: tokens.scopes.join(' '),
      refreshTokenSealed: this.deps.box.seal(tokens.refreshToken, state.userId),
      accessTokenSealed: this.deps.box.seal(tokens.accessToken, state.userId),
      accessExpiresAt: tokens.expiresAt,
    });
    if (!state.materialId) return back({ reason: 'failed' });
    try {
      const plan = await this.deps.materials.googleFormPlan(state.userId, state.materialId);
      return back(await this.createForm(client, tokens.accessToken, plan));
    } catch (error) {
      this.deps.log.warn({ err: error }, 'could not make a Google form after sign-in');
      return back({ reason: 'failed' });
    }
  }

  /** Forgets the teacher's Google connection and revokes it at Google. */
  async disconnect(user: UserRow): Promise<void> {
    const client = this.client;
    const account = await repo.deleteAccount(this.db, user.id);
    const token = account ? this.deps.box.open(account.refreshTokenSealed, user.id) : null;
    if (token) await client.revoke(token);
  }

  /* ------------------------------------------------------------------------------------- */

  private async authorize(userId: string, materialId: string, returnTo: string): Promise<string> {
    const state = randomBytes(32).toString('base64url');
    const verifier = randomBytes(48).toString('base64url');
    await repo.insertState(this.db, {
      stateHash: sha256(state),
      userId,
      codeVerifierSealed: this.deps.box.seal(verifier, userId),
      materialId,
      returnTo,
      expiresAt: new Date(Date.now() + STATE_TTL_MS),
    });
    return this.client.authorizationUrl({
      state,
      codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
      // Ask again each time we connect, so Google gives a refresh token.
      forceConsent: true,
    });
  }

  /** A usable access token (refreshed when due), or null when the teacher must connect. */
  private async accessTokenFor(userId: string): Promise<string | null> {
    const account = await repo.findAccount(this.db, userId);
    if (!account) return null;
    const fresh =
      account.accessTokenSealed &&
      account.accessExpiresAt &&
      account.accessExpiresAt.getTime() - EXPIRY_MARGIN_MS > Date.now()
        ? this.deps.box.open(account.accessTokenSealed, userId)
        : null;
    if (fresh) return fresh;
    const refreshToken = this.deps.box.open(account.refreshTokenSealed, userId);
    if (!refreshToken) {
      // Sealed with another JWT_SECRET: unreadable, so connect again.
      await repo.deleteAccount(this.db, userId);
      return null;
    }
    try {
      const tokens = await this.client.refresh(refreshToken);
      await repo.updateAccess(this.db, userId, {
        accessTokenSealed: this.deps.box.seal(tokens.accessToken, userId),
        accessExpiresAt: tokens.expiresAt,
        ...(tokens.refreshToken
          ? { refreshTokenSealed: this.deps.box.seal(tokens.refreshToken, userId) }
          : {}),
      });
      return tokens.accessToken;
    } catch (error) {
      if (error instanceof GoogleAuthError) {
        await repo.deleteAccount(this.db, userId);
        return null;
      }
      throw this.unavailable(error);
    }
  }

  private async createForm(
    client: GoogleClient,
    accessToken: string,
    plan: GoogleFormPlan,
  ): Promise<Created> {
    const form = await client.createForm(accessToken, {
      title: plan.title,
      documentTitle: plan.documentTitle,
    });
    try {
      await client.batchUpdate(accessToken, form.formId, { requests: plan.requests });
    } catch (error) {
      // Google applies a batch whole or not at all: the form is empty, so it goes.
      await client
        .deleteForm(accessToken, form.formId)
        .catch((cleanup: unknown) =>
          this.deps.log.warn(
            { err: cleanup, formId: form.formId },
            'could not delete an empty form',
          ),
        );
      throw error;
    }
    return {
      status: 'created',
      formId: form.formId,
      editUrl: googleFormEditUrl(form.formId),
      questionCount: plan.questionCount,
      notes: plan.notes,
    };
  }

  private unavailable(error: unknown): Error {
    if (error instanceof AppError) return error;
    if (error instanceof GoogleApiError) {
      return new AppError('UNAVAILABLE', error.message, { cause: error });
    }
    this.deps.log.error({ err: error }, 'Google Forms failed');
    return new AppError('UNAVAILABLE', 'Google Forms did not answer. Try again in a moment.', {
      cause: error,
    });
  }
}

/** `returnTo` with the outcome in its query (`googleForms=created&formId=…` or `=error&reason=…`). */
function withResult(
  returnTo: string,
  result: { reason: GoogleFormsErrorReason } | Created,
): string {
  const url = new URL(returnTo, 'http://local');
  for (const key of [...url.searchParams.keys()]) {
    if (['googleForms', 'formId', 'questions', 'notes', 'reason'].includes(key)) {
      url.searchParams.delete(key);
    }
  }
  if ('reason' in result) {
    url.searchParams.set(GOOGLE_FORMS_RESULT_PARAM, 'error');
    url.searchParams.set('reason', result.reason);
  } else {
    url.searchParams.set(GOOGLE_FORMS_RESULT_PARAM, 'created');
    url.searchParams.set('formId', result.formId);
    url.searchParams.set('questions', String(result.questionCount));
    if (result.notes.length) url.searchParams.set('notes', result.notes.join('\n').slice(0, 1500));
  }
  return `${url.pathname}${url.search}${url.hash}`;
}
