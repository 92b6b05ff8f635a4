import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { tooManyRequests } from './errors.js';

export interface Budget {
  /** Requests allowed in the window. */
  max: number;
  /** The window, in minutes. */
  minutes: number;
}

/** "15 minutes", "1 hour" */
export function describeWindow(seconds: number): string {
  if (seconds <= 90) return `${Math.max(1, Math.round(seconds))} seconds`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 90) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.round(minutes / 60);
  return `${hours} hour${hours === 1 ? '' : 's'}`;
}

/**
 * A per-IP limit for a route's `config.rateLimit` (@fastify/rate-limit; its 429 reads "Too many
 * attempts. Please wait 15 minutes and try again."). `scale` multiplies the budget for
 * sites where many people share one address (RATE_LIMIT_SCALE).
 */
export function perIp(budget: Budget, scale: number) {
  return {
    max: Math.max(1, Math.round(budget.max * scale)),
    timeWindow: budget.minutes * 60_000,
  };
}

/**
 * A second limit on the same route, keyed by something in the body (an email address), so
 * one account cannot be hammered from many addresses. Runs as a preHandler (after the body
 * is validated); requests without a key are not counted.
 */
export function perKey(
  app: FastifyInstance,
  name: string,
  budget: Budget,
  keyOf: (request: FastifyRequest) => string | undefined,
  message: (wait: string) => string,
): preHandlerAsyncHookHandler {
  const limiter = app.createRateLimit({
    max: budget.max,
    timeWindow: budget.minutes * 60_000,
    keyGenerator: (request: FastifyRequest) => `${name}:${keyOf(request) ?? ''}`,
  });
  return async (request) => {
    if (!keyOf(request)) return;
    const result = await limiter(request);
    if (!result.isAllowed && result.isExceeded) {
      throw tooManyRequests(message(describeWindow(result.ttlInSeconds)));
    }
  };
}
