import { BILLING_MESSAGES } from '@chapterwise/shared';
import { openCustomerPortal, useSubscription } from '../api';
import { ActionButton } from './action-button';

/**
 * Shown while the plan's renewal payment has failed (past_due): the plan still works, the
 * teacher is asked to update the card in Manage Subscription.
 */
export function PastDueNotice({ subscribed }: { subscribed: boolean }) {
  const subscription = useSubscription(subscribed);
  if (!subscribed || subscription.data?.status !== 'past_due') return null;
  return (
    <div className="alert alert-error past-due" role="alert">
      <p>{BILLING_MESSAGES.pastDue}</p>
      <ActionButton
        className="button button-sm button-ghost"
        start={openCustomerPortal}
        busyLabel="Opening…"
      >
        Manage Subscription
      </ActionButton>
    </div>
  );
}
