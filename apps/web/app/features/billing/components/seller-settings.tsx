import {
  BILLING_MESSAGES,
  formatCents,
  SELLER_STATUS_LABELS,
  type UrlAnswer,
} from '@chapterwise/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ErrorBox } from '../../../components/ui/error-box';
import { Loading } from '../../../components/ui/loading';
import { errorMessage } from '../../../lib/api';
import {
  billingKeys,
  goTo,
  refreshOnboarding,
  returnFromOnboarding,
  startOnboarding,
  useBalance,
  usePaymentAccount,
} from '../api';

const BUTTON_LABELS = {
  restricted: 'Become an Authorized Seller',
  pending: 'Continue onboarding',
  enabled: 'Update seller details',
} as const;

/**
 * Seller settings (spec §2, §4, §6): the authorization status, 'Restricted' until the payment
 * provider's onboarding is complete. The button goes to the onboarding page the server answers;
 * an answer without a url re-enables it with the text '<Something went wrong>' (spec §8).
 * Back from onboarding (`?onboarding=return`) the status is read again; an expired link
 * (`?onboarding=refresh`) asks for a fresh one.
 */
export function SellerSettings({
  onboarding,
  onHandled,
}: {
  onboarding: string | null;
  onHandled: () => void;
}) {
  const client = useQueryClient();
  const account = usePaymentAccount();
  const enabled = account.data?.status === 'enabled';
  const balance = useBalance(enabled);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const handled = useRef(false);

  async function go(request: () => Promise<Partial<UrlAnswer>>) {
    setBusy(true);
    setFailed(false);
    try {
      const answer = await request();
      if (answer.url) {
        goTo(answer.url);
        return;
      }
    } catch (error) {
      console.error('payments: onboarding did not start', error);
    }
    setFailed(true);
    setBusy(false);
  }

  useEffect(() => {
    if (!onboarding || handled.current) return;
    handled.current = true;
    if (onboarding === 'refresh') {
      void go(refreshOnboarding);
      return;
    }
    if (onboarding === 'return') {
      void returnFromOnboarding()
        .then((status) => client.setQueryData(billingKeys.account, status))
        .catch((error: unknown) =>
          console.error('payments: could not read the seller status', error),
        )
        .finally(onHandled);
    }
  }, [onboarding, client, onHandled]);

  if (account.isPending) return <Loading label="Loading your seller status…" />;
  if (account.isError) return <ErrorBox message={errorMessage(account.error)} />;
  const status = account.data.status;

  return (
    <section className="billing-panel" aria-labelledby="seller-heading">
      <h2 id="seller-heading">Seller settings</h2>
      <p className="seller-status">
        Authorization status:{' '}
        <span className={`seller-badge seller-${status}`} data-testid="seller-status">
          {SELLER_STATUS_LABELS[status]}
        </span>
      </p>
      {status === 'enabled' ? (
        <>
          <p>
            You are an authorized seller: you can sell on Chapterwise and receive payouts to your
            bank account.
          </p>
          <dl className="balances">
            <div>
              <dt>Charges</dt>
              <dd>{account.data.charges_enabled ? 'Enabled' : 'Disabled'}</dd>
            </div>
            <div>
              <dt>Payouts</dt>
              <dd>{account.data.payouts_enabled ? 'Enabled' : 'Disabled'}</dd>
            </div>
            <div>
              <dt>Balance</dt>
              <dd>
                {balance.data
                  ? `${formatCents(balance.data.available)} available · ${formatCents(balance.data.pending)} pending`
                  : balance.isError
                    ? 'Not available right now'
                    : 'Loading…'}
              </dd>
            </div>
          </dl>
        </>
      ) : (
        <p>
          {status === 'pending'
            ? 'Your details are with our payment provider, which is checking them. Continue onboarding if it asks for more.'
            : 'To sell on Chapterwise you need an authorized seller account with our payment provider. Onboarding takes a few minutes: who you are and the bank account for payouts. Buying does not need it.'}
        </p>
      )}
      <button
        type="button"
        className={`button ${status === 'enabled' ? 'button-ghost' : 'button-primary'}`}
        disabled={busy}
        onClick={() => void go(startOnboarding)}
      >
        {busy ? <span className="spinner" aria-hidden="true" /> : null}
        {failed ? BILLING_MESSAGES.onboardingFailed : busy ? 'Opening…' : BUTTON_LABELS[status]}
      </button>
    </section>
  );
}
