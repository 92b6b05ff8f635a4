import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface SecurityOptions {
  /** Send Strict-Transport-Security (only meaningful over HTTPS). */
  hsts: boolean;
  /** Skip the Content-Security-Policy (Vite's dev server injects inline scripts). */
  csp: boolean;
}

/** The Content-Security-Policy of server-rendered pages; scripts need this response's nonce. */
export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    "base-uri 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "script-src-attr 'none'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "frame-ancestors 'self'",
    "form-action 'self' https://checkout.stripe.com https://billing.stripe.com",
  ].join(';');
}

/**
 * Security headers (what helmet sets, computed once rather than per request: helmet's
 * per-request work cost more than half of a small JSON route's throughput here).
 * Every answer gets the static headers; HTML pages also get a CSP with a fresh nonce,
 * which the page's inline scripts carry.
 */
export const securityPlugin = fp(
  async (app: FastifyInstance, options: SecurityOptions) => {
    const headers: Record<string, string> = {
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'x-dns-prefetch-control': 'off',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    };
    if (options.hsts) headers['strict-transport-security'] = 'max-age=31536000; includeSubDomains';

    app.addHook('onRequest', async (_request, reply) => {
      reply.headers(headers);
    });

    app.decorate('newPageNonce', (): string | undefined =>
      options.csp ? randomBytes(16).toString('base64') : undefined,
    );
  },
  { name: 'security' },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** A fresh CSP nonce for a server-rendered page, or undefined when CSP is off. */
    newPageNonce(): string | undefined;
  }
}
