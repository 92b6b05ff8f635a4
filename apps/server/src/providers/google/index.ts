import type { GoogleConfig } from '../../config.js';
import { HttpGoogleClient } from './http.js';
import type { GoogleClient } from './types.js';

export * from './types.js';
export { HttpGoogleClient } from './http.js';

/** Google's client when GOOGLE_CLIENT_ID/SECRET are set; null keeps "Send to Google Forms" off. */
export function createGoogleClient(config: GoogleConfig | null): GoogleClient | null {
  return config ? new HttpGoogleClient(config) : null;
}
