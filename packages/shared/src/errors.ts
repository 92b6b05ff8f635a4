import './zod-setup.js';
import { z } from 'zod';

/** Stable error codes: each maps to one HTTP status in the server's error handler. */
export const ERROR_CODES = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Every error answer of the API: `{ errors: { message, code } }`. */
export const ApiErrorSchema = z.object({
  errors: z.object({
    message: z.string(),
    code: z.string(),
  }),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;

// FALLBACK_ERROR_MESSAGE is in constants.ts: the page shell uses it without zod (issue 18).
