import { z } from 'zod';

// Pages run under a Content-Security-Policy without 'unsafe-eval': zod must not probe for
// eval there (the probe is refused and reported as a CSP issue). The server keeps zod's JIT.
if (typeof (globalThis as { window?: unknown }).window !== 'undefined') {
  z.config({ jitless: true });
}
