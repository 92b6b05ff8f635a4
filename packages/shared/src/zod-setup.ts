import { z } from 'zod';

// Every module here that builds schemas imports this module first: whichever schemas a page
// loads, zod is configured before the first one is built. (index.ts imported it once until
// pages stopped loading every schema: issue 18.) package.json lists it under `sideEffects`.
//
// Pages run under a Content-Security-Policy without 'unsafe-eval': zod must not probe for
// eval there (the probe is refused and reported as a CSP issue). The server keeps zod's JIT.
if (typeof (globalThis as { window?: unknown }).window !== 'undefined') {
  z.config({ jitless: true });
}
