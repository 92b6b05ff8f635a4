import { ERROR_CODES, type ErrorCode } from '@chapterwise/shared';

/**
 * The one error type services throw. The error handler turns it into
 * `{ errors: { message, code } }` with the status its code maps to.
 */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AppError';
    this.status = ERROR_CODES[code];
  }
}

export const badRequest = (message: string) => new AppError('BAD_REQUEST', message);
export const unauthorized = (message = 'Please log in to continue.') =>
  new AppError('UNAUTHORIZED', message);
export const forbidden = (message = 'You do not have access to this.') =>
  new AppError('FORBIDDEN', message);
export const notFound = (message = 'Not found.') => new AppError('NOT_FOUND', message);
export const conflict = (message: string) => new AppError('CONFLICT', message);
export const paymentRequired = (message: string) => new AppError('PAYMENT_REQUIRED', message);
export const payloadTooLarge = (message: string) => new AppError('PAYLOAD_TOO_LARGE', message);
export const tooManyRequests = (message: string) => new AppError('RATE_LIMITED', message);
export const unsupportedMediaType = (message: string) =>
  new AppError('UNSUPPORTED_MEDIA_TYPE', message);
