import type { NewsletterStatusAnswer } from '@chapterwise/shared';
import { apiRequest } from '../../lib/api';

/** For the unsubscribe page's loader: pass the loader context's `apiFetch`. */
export const getNewsletterStatus = (token: string, fetch?: typeof globalThis.fetch) =>
  apiRequest<NewsletterStatusAnswer>('/newsletter/status', {
    query: { token },
    auth: false,
    ...(fetch ? { fetch } : {}),
  });

export const unsubscribeFromNewsletter = (token: string) =>
  apiRequest<NewsletterStatusAnswer>('/newsletter/unsubscribe', {
    method: 'POST',
    body: { token },
    auth: false,
  });
