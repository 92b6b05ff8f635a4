import type { GoogleConfig } from '../../config.js';
import {
  GOOGLE_FORMS_SCOPE,
  GOOGLE_SCOPES,
  GoogleApiError,
  GoogleAuthError,
  type BatchUpdateFormRequest,
  type CreatedForm,
  type GoogleClient,
  type GoogleTokens,
} from './types.js';

const TIMEOUT_MS = 20_000;

interface TokenAnswer {
  access_token?: string;
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
  id_token?: string;
  error?: string;
  error_description?: string;
}

/** The email in an ID token received straight from Google's token endpoint over TLS. */
function emailOf(idToken: string | undefined): string | null {
  const payload = idToken?.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      email?: unknown;
    };
    return typeof claims.email === 'string' ? claims.email : null;
  } catch {
    return null;
  }
}

/** Google's OAuth 2.0 and Forms API over HTTP (`fetch`). */
export class HttpGoogleClient implements GoogleClient {
  constructor(private readonly config: GoogleConfig) {}

  authorizationUrl(input: { state: string; codeChallenge: string; forceConsent: boolean }): string {
    const url = new URL(this.config.authUrl);
    url.search = new URLSearchParams({
      client_id: this.config.clientId,
      redirect_uri: this.config.redirectUri,
      response_type: 'code',
      scope: GOOGLE_SCOPES.join(' '),
      state: input.state,
      code_challenge: input.codeChallenge,
      code_challenge_method: 'S256',
      // A refresh token, so later sends need no new consent.
      access_type: 'offline',
      include_granted_scopes: 'true',
      ...(input.forceConsent ? { prompt: 'consent' } : {}),
    }).toString();
    return url.toString();
  }

  exchangeCode(code: string, codeVerifier: string): Promise<GoogleTokens> {
    return this.token({
      grant_type: 'authorization_code',
      code,
      code_verifier: codeVerifier,
      redirect_uri: this.config.redirectUri,
    });
  }

  refresh(refreshToken: string): Promise<GoogleTokens> {
    return this.token({ grant_type: 'refresh_token', refresh_token: refreshToken });
  }

  async revoke(token: string): Promise<void> {
    await fetch(this.config.revokeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token }).toString(),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    }).catch(() => undefined);
  }

  private async token(params: Record<string, string>): Promise<GoogleTokens> {
    let response: Response;
    try {
      response = await fetch(this.config.tokenUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams({
          ...params,
          client_id: this.config.clientId,
          client_secret: this.config.clientSecret,
        }).toString(),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch {
      throw new GoogleApiError('Google could not be reached. Try again in a moment.', 502);
    }
    const answer = (await response.json().catch(() => ({}))) as TokenAnswer;
    if (!response.ok || !answer.access_token) {
      if (answer.error === 'invalid_grant' || response.status === 400 || response.status === 401) {
        throw new GoogleAuthError(
          'Your Google connection has expired or was removed. Connect your Google account again.',
        );
      }
      throw new GoogleApiError('Google did not accept the sign-in. Try again in a moment.', 502);
    }
    const scopes = (answer.scope ?? '').split(/\s+/).filter(Boolean);
    if (!scopes.includes(GOOGLE_FORMS_SCOPE)) {
      throw new GoogleAuthError(
        'Chapterwise needs permission to create forms in your Google Drive. Connect again and leave that box ticked.',
      );
    }
    return {
      accessToken: answer.access_token,
      expiresAt: new Date(Date.now() + Math.max(60, answer.expires_in ?? 3600) * 1000),
      refreshToken: answer.refresh_token,
      scopes,
      email: emailOf(answer.id_token),
    };
  }

  async createForm(
    accessToken: string,
    info: { title: string; documentTitle: string },
  ): Promise<CreatedForm> {
    const form = (await this.call(accessToken, '/v1/forms', { info })) as {
      formId?: string;
      responderUri?: string;
    };
    if (!form.formId) throw new GoogleApiError('Google did not create the form.', 502);
    return { formId: form.formId, responderUri: form.responderUri ?? null };
  }

  async batchUpdate(
    accessToken: string,
    formId: string,
    body: BatchUpdateFormRequest,
  ): Promise<void> {
    await this.call(accessToken, `/v1/forms/${encodeURIComponent(formId)}:batchUpdate`, body);
  }

  async deleteForm(accessToken: string, formId: string): Promise<void> {
    const response = await fetch(
      `${this.config.driveApiBase}/drive/v3/files/${encodeURIComponent(formId)}`,
      {
        method: 'DELETE',
        headers: { authorization: `Bearer ${accessToken}` },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      },
    );
    if (!response.ok && response.status !== 404) {
      throw new GoogleApiError('Google Drive did not delete the unfinished form.', response.status);
    }
  }

  /** A POST to the Forms API; one retry after a 429 or a 5xx. */
  private async call(accessToken: string, path: string, body: unknown): Promise<unknown> {
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(`${this.config.formsApiBase}${path}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${accessToken}`,
            'content-type': 'application/json',
            accept: 'application/json',
          },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch {
        if (attempt < 2) continue;
        throw new GoogleApiError('Google Forms could not be reached. Try again in a moment.', 502);
      }
      const answer = (await response.json().catch(() => ({}))) as {
        error?: { message?: string; status?: string };
      };
      if (response.ok) return answer;
      if ((response.status === 429 || response.status >= 500) && attempt < 2) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        continue;
      }
      if (response.status === 401) {
        throw new GoogleAuthError(
          'Your Google connection has expired or was removed. Connect your Google account again.',
        );
      }
      if (response.status === 403) {
        throw new GoogleAuthError(
          'Google refused: Chapterwise may not create forms for this account. Connect again and allow it, or ask your school’s Google administrator.',
        );
      }
      if (response.status >= 500) {
        throw new GoogleApiError(
          'Google Forms is having trouble right now. Try again in a moment.',
          response.status,
        );
      }
      const detail = answer.error?.message ? ` (${answer.error.message})` : '';
      throw new GoogleApiError(`Google Forms refused the form${detail}.`, response.status);
    }
  }
}
