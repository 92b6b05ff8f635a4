import 'react-router';

declare module 'react-router' {
  interface AppLoadContext {
    /** Calls this server's own API in-process (see apps/server/src/plugins/web.ts). */
    apiFetch: typeof fetch;
    /** The CSP nonce for inline scripts of this response. */
    cspNonce: string;
    /** Settings the browser may know. */
    publicConfig: { chatUrl: string; publicUrl: string };
  }
}
