/*
 * Google's OAuth 2.0 and the Forms API (v1), the parts "Send to Google Forms" uses. Field names
 * are the API's own (https://forms.googleapis.com/$discovery/rest?version=v1).
 */

/** What an authorization or a refresh gives: an access token and, once, a refresh token. */
export interface GoogleTokens {
  accessToken: string;
  expiresAt: Date;
  /** Given on the first consent (and when consent is asked again). */
  refreshToken: string | undefined;
  scopes: string[];
  /** The Google account's address (from the ID token), to show "Connected as …". */
  email: string | null;
}

export interface GoogleFeedback {
  text: string;
}

export interface GoogleGrading {
  pointValue: number;
  correctAnswers?: { answers: Array<{ value: string }> };
  whenRight?: GoogleFeedback;
  whenWrong?: GoogleFeedback;
  generalFeedback?: GoogleFeedback;
}

export interface GoogleQuestion {
  required?: boolean;
  grading?: GoogleGrading;
  choiceQuestion?: {
    type: 'RADIO' | 'CHECKBOX' | 'DROP_DOWN';
    options: Array<{ value: string }>;
    shuffle?: boolean;
  };
  textQuestion?: { paragraph: boolean };
}

export interface GoogleItem {
  title?: string;
  description?: string;
  questionItem?: { question: GoogleQuestion };
  textItem?: Record<string, never>;
}

export type GoogleFormsRequest =
  | { updateFormInfo: { info: { title?: string; description?: string }; updateMask: string } }
  | { updateSettings: { settings: { quizSettings: { isQuiz: boolean } }; updateMask: string } }
  | { createItem: { item: GoogleItem; location: { index: number } } };

export interface BatchUpdateFormRequest {
  includeFormInResponse?: boolean;
  requests: GoogleFormsRequest[];
}

export interface CreatedForm {
  formId: string;
  responderUri: string | null;
}

/**
 * Google's OAuth and Forms calls. One adapter: Google's own HTTP endpoints (a fake Google in
 * tests, through GOOGLE_API_BASE). There is no offline adapter: without GOOGLE_CLIENT_ID and
 * GOOGLE_CLIENT_SECRET the feature is off and the button is hidden (issue 20).
 */
export interface GoogleClient {
  /** Google's consent page for this teacher (authorization code flow with PKCE, S256). */
  authorizationUrl(input: { state: string; codeChallenge: string; forceConsent: boolean }): string;
  exchangeCode(code: string, codeVerifier: string): Promise<GoogleTokens>;
  refresh(refreshToken: string): Promise<GoogleTokens>;
  /** Revokes a token (and with a refresh token, the whole grant). */
  revoke(token: string): Promise<void>;
  createForm(
    accessToken: string,
    info: { title: string; documentTitle: string },
  ): Promise<CreatedForm>;
  batchUpdate(accessToken: string, formId: string, body: BatchUpdateFormRequest): Promise<void>;
  /** Deletes a form this app made (Drive `files.delete`; allowed by `drive.file`). */
  deleteForm(accessToken: string, formId: string): Promise<void>;
}

/** The teacher's grant is gone (revoked, expired, or the scope was not given): connect again. */
export class GoogleAuthError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GoogleAuthError';
  }
}

/** Google refused or failed a call; `message` is fit for the teacher. */
export class GoogleApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'GoogleApiError';
  }
}

/** `drive.file`: only files this app creates (not the sensitive `forms.body`). */
export const GOOGLE_FORMS_SCOPE = 'https://www.googleapis.com/auth/drive.file';
export const GOOGLE_SCOPES = ['openid', 'email', GOOGLE_FORMS_SCOPE];
