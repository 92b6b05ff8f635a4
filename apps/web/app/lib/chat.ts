import { apiRequest } from './api';

/**
 * Opens the AI Teaching Assistant. Signed-in teachers get a short-lived chat token passed as
 * `?a=`; the tab is opened first (synchronously) so that pop-up blockers allow it.
 * Errors are only logged, as spec §8 says for chat tokens.
 */
export function openAssistant(chatUrl: string, signedIn: boolean, sameTab = false): void {
  if (!signedIn) {
    if (sameTab) window.location.assign(chatUrl);
    else window.open(chatUrl, '_blank', 'noopener');
    return;
  }
  const tab = sameTab ? window : window.open('', '_blank');
  apiRequest<{ chatAuthToken: string }>('/chat/getnewchatauthtoken')
    .then(({ chatAuthToken }) => {
      const url = new URL(chatUrl, window.location.href);
      url.searchParams.set('a', chatAuthToken);
      if (tab) tab.location.href = url.toString();
    })
    .catch((error: unknown) => {
      console.error('Could not get a chat token', error);
      if (tab) tab.location.href = chatUrl;
    });
}

/** Phones and tablets open the assistant in the same tab (spec §2 Dashboard). */
export function isTouchLayout(): boolean {
  return typeof window !== 'undefined' && window.matchMedia('(max-width: 992px)').matches;
}
