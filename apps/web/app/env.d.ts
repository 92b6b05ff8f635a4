import 'react-router';
import type { RenderData } from './lib/render-data';

declare module 'react-router' {
  interface AppLoadContext {
    /** Calls this server's own API in-process (see apps/server/src/plugins/web.ts). */
    apiFetch: typeof fetch;
    /** The CSP nonce for inline scripts of this response. */
    cspNonce: string;
    /** Settings the browser may know. */
    publicConfig: { chatUrl: string; publicUrl: string };
    /**
     * True for a whole document (first load, crawlers); false for the data of a navigation in
     * the browser (`*.data`), which has no server markup to reuse.
     */
    documentRequest: boolean;
    /** Rendered on the server, left out of the hydration data (see lib/render-data.tsx). */
    renderData: RenderData;
    /** Render the whole document before answering (the server's render cache keeps it). */
    waitForAll?: boolean;
  }
}
