import {
  BILLING_MESSAGES,
  formatCents,
  formatShortDate,
  SUBSCRIPTION_PRICE_CENTS,
  type OwnUser,
} from '@chapterwise/shared';
import { Link } from 'react-router';
import { Loading } from '../../../components/ui/loading';
import { useSubscription } from '../api';
import { PlanButton } from './plans';

/**
 * The account's subscription area (spec §2): the plan and what it gives now; Buy Now when not
 * subscribed, Manage Subscription (the customer portal) when subscribed; the credit balances.
 */
export function SubscriptionPanel({ user }: { user: OwnUser }) {
  const subscription = useSubscription();
  const info = subscription.data;
  const end = info?.currentPeriodEnd ? formatShortDate(info.currentPeriodEnd) : '';

  return (
    <section className="billing-panel" aria-labelledby="subscription-heading">
      <h2 id="subscription-heading">Subscription</h2>
      {subscription.isPending ? <Loading label="Loading your plan…" /> : null}
      <div className="plan-summary">
        <div>
          <p className="plan-summary-name">
            {user.isSubscribed ? 'Unlimited' : 'Free'}
            {user.isSubscribed ? (
              <span className={`badge${info?.status === 'past_due' ? ' badge-warn' : ''}`}>
                {info?.status === 'past_due'
                  ? 'Payment failed'
                  : info?.cancelAtPeriodEnd
                    ? 'Cancelled'
                    : 'Active'}
              </span>
            ) : null}
          </p>
          <p className="muted">
            {user.isSubscribed
              ? info?.cancelAtPeriodEnd && end
                ? `Unlimited generations until ${end}, when the plan ends. You can resume it in Manage Subscription before then.`
                : end
                  ? `Unlimited generations. Renews on ${end} for ${formatCents(SUBSCRIPTION_PRICE_CENTS)}.`
                  : 'Unlimited generations.'
              : `${user.generationCredits} free generation${user.generationCredits === 1 ? '' : 's'} left. The Unlimited plan is ${formatCents(SUBSCRIPTION_PRICE_CENTS)} a month, cancel any time.`}
          </p>
        </div>
        <PlanButton user={user} />
      </div>
      {user.isSubscribed && info?.status === 'past_due' ? (
        <p className="alert alert-error" role="alert">
          {BILLING_MESSAGES.pastDue}
        </p>
      ) : null}
      <dl className="balances">
        <div>
          <dt>Material generations</dt>
          <dd>{user.isSubscribed ? 'Unlimited' : user.generationCredits}</dd>
        </div>
        <div>
          <dt>Image generation credits</dt>
          <dd>{user.imageGenerationCredits}</dd>
        </div>
        <div>
          <dt>Model training credits</dt>
          <dd>{user.modelTrainingCredits}</dd>
        </div>
      </dl>
      <p>
        <Link to="/subscription">Compare plans and credit packs</Link>
      </p>
    </section>
  );
}
