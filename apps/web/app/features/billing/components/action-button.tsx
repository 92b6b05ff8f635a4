import { useState } from 'react';
import { goTo } from '../api';

export interface ActionButtonProps {
  /** Asks the server for the page to go to (a hosted checkout, the portal, onboarding). */
  start: () => Promise<{ url?: string | undefined }>;
  children: React.ReactNode;
  busyLabel?: string;
  className?: string;
  /** Extra words for screen readers when the visible label is short ("Checkout"). */
  ariaLabel?: string;
}

/**
 * A button that starts a provider flow and sends the browser there. While it waits it is
 * disabled and says so. Errors are only logged, as the spec asks for checkout and portal
 * errors (§8); the button comes back so the teacher can try again.
 */
export function ActionButton({
  start,
  children,
  busyLabel = 'Opening checkout…',
  className = 'button button-primary',
  ariaLabel,
}: ActionButtonProps) {
  const [busy, setBusy] = useState(false);

  async function handleClick() {
    setBusy(true);
    try {
      const answer = await start();
      if (answer.url) {
        goTo(answer.url);
        return; // The page is leaving: stay busy until it does.
      }
      console.error('payments: the answer carried no url');
    } catch (error) {
      console.error('payments: could not open the provider page', error);
    }
    setBusy(false);
  }

  return (
    <button
      type="button"
      className={className}
      disabled={busy}
      aria-busy={busy || undefined}
      aria-label={busy ? busyLabel : ariaLabel}
      onClick={() => void handleClick()}
    >
      {busy ? <span className="spinner" aria-hidden="true" /> : null}
      {busy ? busyLabel : children}
    </button>
  );
}
