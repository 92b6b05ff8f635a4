import './zod-setup.js';
import { z } from 'zod';

/*
 * "Send to Google Forms" (issue 20): a material becomes a quiz in the teacher's Google Forms
 * through Google's OAuth and the Forms API. Shown only when the server has a Google OAuth
 * client (GOOGLE_CLIENT_ID/SECRET) and the teacher is signed in.
 */

/** `GET /google/status`: whether the button is shown, and the teacher's connection. */
export const GoogleStatusSchema = z.object({
  configured: z.boolean(),
  connected: z.boolean(),
  email: z.string().nullable(),
});
export type GoogleStatus = z.infer<typeof GoogleStatusSchema>;

/** A path on this site to come back to after Google's consent page ("/dashboard?x=1"). */
const ReturnPath = z
  .string()
  .trim()
  .max(500)
  .regex(/^\/(?![/\\])[^\s]*$/, { error: 'must be a path on this site' });

/** `POST /google/forms { id, returnTo? }`. */
export const SendToGoogleFormsBodySchema = z.object({
  id: z.uuid({ error: 'must be an id' }),
  returnTo: ReturnPath.default('/dashboard'),
});
export type SendToGoogleFormsInput = z.input<typeof SendToGoogleFormsBodySchema>;

export const GoogleFormCreatedSchema = z.object({
  status: z.literal('created'),
  formId: z.string(),
  /** The form's editor, where the teacher reviews it and presses Publish. */
  editUrl: z.url(),
  questionCount: z.number().int(),
  /** What was left out or not graded, in the teacher's words. */
  notes: z.array(z.string()),
});

/** Created, or: the teacher must first allow Chapterwise on Google's page (`authorizeUrl`). */
export const SendToGoogleFormsAnswerSchema = z.object({
  data: z.discriminatedUnion('status', [
    GoogleFormCreatedSchema,
    z.object({ status: z.literal('authorize'), authorizeUrl: z.url() }),
  ]),
});
export type SendToGoogleFormsAnswer = z.infer<typeof SendToGoogleFormsAnswerSchema>['data'];

// GOOGLE_FORMS_RESULT_PARAM (the query parameter of the return from Google) is in
// constants.ts: every page checks for it, without loading zod (issue 18).
export const GOOGLE_FORMS_ERROR_REASONS = {
  denied: 'You did not allow Chapterwise to use Google Forms, so no form was made.',
  expired: 'That Google sign-in took too long or was already used. Try Send to Google Forms again.',
  scope:
    'Chapterwise needs permission to create forms in your Google Drive. Try again and leave that box ticked.',
  failed: 'Google Forms did not accept the quiz. Try again in a moment.',
} as const;
export type GoogleFormsErrorReason = keyof typeof GOOGLE_FORMS_ERROR_REASONS;

/** The editor of a form. */
export function googleFormEditUrl(formId: string): string {
  return `https://docs.google.com/forms/d/${encodeURIComponent(formId)}/edit`;
}
