import {
  formatCents,
  formatShortDate,
  IMAGE_CREDITS_PER_PACK,
  MODEL_TRAINING_INCLUDED_IMAGE_CREDITS,
  type CheckoutSession,
  type OwnUser,
  type SubscriptionInfo,
} from '@chapterwise/shared';
import { Link } from 'react-router';

/** What changed on the account with this purchase, in plain words. */
function Changes({
  session,
  user,
  subscription,
}: {
  session: CheckoutSession;
  user: OwnUser | null;
  subscription: SubscriptionInfo | null | undefined;
}) {
  const { order } = session;
  switch (order.product) {
    case 'subscription': {
      const end = subscription?.currentPeriodEnd
        ? formatShortDate(subscription.currentPeriodEnd)
        : null;
      return (
        <>
          <p>
            {user?.isSubscribed
              ? 'Your Unlimited plan is active: the Material Generator has no limit any more.'
              : 'Your Unlimited plan is being switched on; this takes a few seconds.'}
          </p>
          <ul className="change-list">
            <li>Unlimited material generations while the plan is active</li>
            <li>Chapters’ ready-made materials can be added to Your Materials for free</li>
            {end ? (
              <li>
                Renews on {end} for {formatCents(order.amount)}; cancel any time in Manage
                Subscription (Account → Subscription)
              </li>
            ) : null}
          </ul>
          <div className="button-row">
            <Link className="button button-primary" to="/material-generator">
              Open the Material Generator
            </Link>
            <Link className="button button-ghost" to="/account?tab=subscription">
              See your subscription
            </Link>
          </div>
        </>
      );
    }
    case 'imageGenerationCredits':
    case 'modelTrainingCredit':
      return (
        <>
          <ul className="change-list">
            {order.product === 'modelTrainingCredit' ? <li>+1 model training credit</li> : null}
            <li>
              +
              {order.product === 'modelTrainingCredit'
                ? MODEL_TRAINING_INCLUDED_IMAGE_CREDITS
                : IMAGE_CREDITS_PER_PACK}{' '}
              image generation credits
            </li>
          </ul>
          {user ? (
            <p>
              You now have <strong>{user.imageGenerationCredits}</strong> image generation credits
              and <strong>{user.modelTrainingCredits}</strong> model training credit
              {user.modelTrainingCredits === 1 ? '' : 's'}.
            </p>
          ) : null}
          <div className="button-row">
            <Link className="button button-primary" to="/dashboard">
              Back to the dashboard
            </Link>
            <Link className="button button-ghost" to="/account?tab=orders">
              See your orders
            </Link>
          </div>
        </>
      );
    case 'chapterMaterials':
      return (
        <>
          <p>
            The ready-made materials of <strong>{order.description}</strong> are now in Your
            Materials: edit them, export them or file them in a folder.
          </p>
          <div className="button-row">
            <Link className="button button-primary" to="/material-generator">
              Open Your Materials
            </Link>
            {order.bookUrl && order.chapterUrl ? (
              <Link
                className="button button-ghost"
                to={`/book/${encodeURIComponent(order.bookUrl)}/${encodeURIComponent(order.chapterUrl)}`}
              >
                Back to the chapter
              </Link>
            ) : null}
          </div>
        </>
      );
    case 'shopProduct': {
      const shop = order.shopOrder;
      return (
        <>
          <p>
            {shop?.shipTo
              ? `It goes to the printer now and ships free to ${shop.shipTo}.`
              : 'It goes to the printer now and ships free to your address.'}{' '}
            {shop?.testMode ? 'Test mode: nothing is printed or shipped.' : ''}
          </p>
          <div className="button-row">
            <Link className="button button-primary" to="/account?tab=orders">
              Follow your order
            </Link>
            <Link className="button button-ghost" to="/shop">
              Back to the shop
            </Link>
          </div>
        </>
      );
    }
  }
}

/** /thankyou: what was bought and what changed (or that the payment is still being confirmed). */
export function ThankYou({
  session,
  user,
  subscription,
  waitedTooLong,
}: {
  session: CheckoutSession;
  user: OwnUser | null;
  subscription: SubscriptionInfo | null | undefined;
  waitedTooLong: boolean;
}) {
  const { order } = session;
  if (session.status === 'expired') {
    return (
      <>
        <h1>Checkout cancelled</h1>
        <p>The checkout of {order.productName} was cancelled. Nothing was charged.</p>
        <Link className="button button-primary" to="/subscription">
          See plans and credits
        </Link>
      </>
    );
  }
  if (session.status === 'open') {
    return (
      <>
        <h1>Confirming your payment…</h1>
        <p role="status">
          <span className="spinner" aria-hidden="true" />{' '}
          {waitedTooLong
            ? 'The payment provider has not confirmed this payment yet. It can take a few minutes: this page keeps what you bought, and your account changes as soon as the confirmation arrives.'
            : 'Waiting for the payment provider to confirm. This usually takes a few seconds.'}
        </p>
      </>
    );
  }
  return (
    <>
      <h1>Thank you!</h1>
      <p className="lead">
        You bought{' '}
        <strong>
          {order.product === 'subscription'
            ? 'the Unlimited plan'
            : order.product === 'chapterMaterials'
              ? "a chapter's ready-made materials"
              : order.product === 'shopProduct'
                ? order.description
                : order.productName}
        </strong>{' '}
        for{' '}
        <strong>
          {formatCents(order.amount)}
          {order.product === 'subscription' ? ' a month' : ''}
        </strong>
        .
      </p>
      <Changes session={session} user={user} subscription={subscription} />
      <p className="muted receipt-line">
        Order of {formatShortDate(order.paidAt ?? order.createdAt)} ·{' '}
        <Link to="/account?tab=orders">All your orders</Link>
      </p>
    </>
  );
}
