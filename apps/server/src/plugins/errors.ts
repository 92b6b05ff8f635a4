import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERROR_CODES, type ErrorCode } from '@chapterwise/shared';
import { AppError } from '../lib/errors.js';

/** Fastify's own error codes that are the client's fault, with the answer they get. */
const FASTIFY_CLIENT_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    code: 'BAD_REQUEST',
    message: 'The request body is not valid JSON.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'BAD_REQUEST',
    message: 'The request body is empty but its type says JSON.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: 'PAYLOAD_TOO_LARGE',
    message: 'The request body is too large.',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'This content type is not accepted here; send JSON.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'BAD_REQUEST',
    message: 'The Content-Length header does not match the body.',
  },
};

/** PostgreSQL's "invalid byte sequence" (22021) and "untranslatable character" (22P05). */
function isBadTextError(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === '22021' || code === '22P05') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

function sendError(reply: FastifyReply, code: ErrorCode, message: string) {
  return reply.status(ERROR_CODES[code]).send({ errors: { message, code } });
}

/** Turns a zod issue path and message into one readable sentence naming the field. */
function describeValidation(error: FastifyError): string {
  if (!hasZodFastifySchemaValidationErrors(error)) return error.message;
  const first = error.validation[0];
  if (!first) return 'The request is not valid.';
  const where = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const part = error.validationContext === 'body' ? '' : `${error.validationContext} `;
  const field = where || (first.params?.issue as { path?: unknown[] } | undefined)?.path?.join('.');
  return field
    ? `Invalid ${part}field "${field}": ${first.message}`
    : `Invalid ${part}: ${first.message}`;
}

/**
 * Every error becomes `{ errors: { message, code } }` here and nowhere else. A 5xx never
 * shows internals: the client sees a generic sentence, the log keeps the stack.
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error }, error.message);
      return sendError(reply, error.code, error.message);
    }
    if (error.validation) {
      return sendError(reply, 'BAD_REQUEST', describeValidation(error));
    }
    const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
    if (known) return sendError(reply, known.code, known.message);
    if (error.statusCode === 429) {
      return sendError(
        reply,
        'RATE_LIMITED',
        error.message || 'Too many requests. Please wait a moment and try again.',
      );
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      const code = (Object.entries(ERROR_CODES).find(([, s]) => s === error.statusCode)?.[0] ??
        'BAD_REQUEST') as ErrorCode;
      reply.status(error.statusCode);
      return reply.send({ errors: { message: error.message, code } });
    }
    // PostgreSQL refuses a NUL byte or broken UTF-8 in text: that is the client's input.
    if (isBadTextError(error)) {
      return sendError(
        reply,
        'BAD_REQUEST',
        'The request contains a character that cannot be stored (a NUL byte or broken text). Remove it and try again.',
      );
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, 'INTERNAL', 'Something went wrong on our side. Please try again.');
  });
});
