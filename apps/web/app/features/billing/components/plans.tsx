import {
  BILLING_MESSAGES,
  CREDIT_PRODUCTS,
  FREE_GENERATIONS,
  formatCents,
  formatShortDate,
  PRODUCT_INFO,
  type CreditProduct,
  type OwnUser,
  type SubscriptionInfo,
} from '@chapterwise/shared';
import { Link } from 'react-router';
import { createCreditCheckout, createSubscriptionCheckout, openCustomerPortal } from '../api';
import { ActionButton } from './action-button';

const LOGIN_HERE = `/login?redirectTo=${encodeURIComponent('/subscription')}`;

function Price({ cents, interval }: { cents: number; interval: 'month' | null }) {
  return (
    <p className="plan-price">
      <span className="plan-amount">{formatCents(cents)}</span>
      {interval ? <span className="plan-interval"> / {interval}</span> : null}
    </p>
  );
}

function Check({ children }: { children: React.ReactNode }) {
  return (
    <li>
      <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
        <path
          d="M4 10.5l4 4 8-9"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span>{children}</span>
    </li>
  );
}

/** The Unlimited plan's button: Buy Now, or Manage Subscription once subscribed (spec §2, §4). */
export function PlanButton({ user }: { user: OwnUser | null }) {
  if (!user) {
    return (
      <Link className="button button-primary button-lg" to={LOGIN_HERE}>
        Log in to subscribe
      </Link>
    );
  }
  return user.isSubscribed ? (
    <ActionButton
      className="button button-ghost button-lg"
      start={openCustomerPortal}
      busyLabel="Opening…"
    >
      Manage Subscription
    </ActionButton>
  ) : (
    <ActionButton className="button button-primary button-lg" start={createSubscriptionCheckout}>
      Buy Now
    </ActionButton>
  );
}

/** One line about the teacher's plan now, above the plans. */
export function PlanStatus({
  user,
  subscription,
}: {
  user: OwnUser;
  subscription: SubscriptionInfo | null | undefined;
}) {
  if (!user.isSubscribed) {
    return (
      <p className="plan-status" role="status">
        You are on the <strong>Free</strong> plan:{' '}
        <strong>
          {user.generationCredits} generation{user.generationCredits === 1 ? '' : 's'}
        </strong>{' '}
        left.
      </p>
    );
  }
  const end = subscription?.currentPeriodEnd ? formatShortDate(subscription.currentPeriodEnd) : '';
  return (
    <div role="status">
      <p className="plan-status">
        You have the <strong>Unlimited</strong> plan.{' '}
        {subscription?.cancelAtPeriodEnd && end
          ? `It ends on ${end}; until then you can generate as much as you like.`
          : end
            ? `It renews on ${end}.`
            : ''}
      </p>
      {subscription?.status === 'past_due' ? (
        <p className="alert alert-error">{BILLING_MESSAGES.pastDue}</p>
      ) : null}
    </div>
  );
}

/** The Free and Unlimited plans side by side, with what each gives in plain words. */
export function PlanCards({ user }: { user: OwnUser | null }) {
  const plan = PRODUCT_INFO.subscription;
  const onFree = !!user && !user.isSubscribed;
  return (
    <ul className="plan-grid" aria-label="Plans">
      <li className={`card plan-card${onFree ? ' is-current' : ''}`}>
        <h2 className="plan-name">Free</h2>
        <Price cents={0} interval={null} />
        <p className="plan-gives">
          {FREE_GENERATIONS} free generations with every new account. No credit card.
        </p>
        <ul className="plan-features">
          <Check>{FREE_GENERATIONS} materials: quizzes, tests, lessons or worksheets</Check>
          <Check>Answer keys checked against your text</Check>
          <Check>Export as Word or raw text, organise in folders</Check>
          <Check>The book catalogue and the AI Teaching Assistant</Check>
        </ul>
        <div className="plan-action">
          {!user ? (
            <Link className="button button-ghost button-lg" to="/register">
              Create a free account
            </Link>
          ) : onFree ? (
            <span className="badge">Your plan</span>
          ) : (
            <span className="muted">Included in Unlimited</span>
          )}
        </div>
      </li>
      <li className={`card plan-card plan-featured${user?.isSubscribed ? ' is-current' : ''}`}>
        <h2 className="plan-name">Unlimited</h2>
        <Price cents={plan.priceCents} interval={plan.interval} />
        <p className="plan-gives">{plan.gives}</p>
        <ul className="plan-features">
          <Check>Unlimited material generations</Check>
          <Check>Chapters’ ready-made materials added to your own for free</Check>
          <Check>Everything in Free</Check>
          <Check>
            Cancel any time in Manage Subscription: the plan runs to the end of the month paid for
          </Check>
        </ul>
        <div className="plan-action">
          {user?.isSubscribed ? <span className="badge">Your plan</span> : null}
          <PlanButton user={user} />
        </div>
      </li>
    </ul>
  );
}

/** A credit pack's Checkout button (guests are asked to log in first). */
export function CreditCheckoutButton({
  product,
  user,
}: {
  product: CreditProduct;
  user: OwnUser | null;
}) {
  const info = PRODUCT_INFO[product];
  if (!user) {
    return (
      <Link className="button button-ghost" to={LOGIN_HERE}>
        Log in to buy
      </Link>
    );
  }
  return (
    <ActionButton
      className="button button-primary"
      start={() => createCreditCheckout(product)}
      ariaLabel={`Checkout: ${info.name}, ${formatCents(info.priceCents)}`}
    >
      Checkout
    </ActionButton>
  );
}

/** The two credit packs (spec §9), each with its price, what it gives and its Checkout. */
export function CreditPacks({
  user,
  headingLevel = 3,
}: {
  user: OwnUser | null;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <ul className="pack-grid" aria-label="Credit packs">
      {CREDIT_PRODUCTS.map((product) => {
        const info = PRODUCT_INFO[product];
        return (
          <li key={product} className="card pack-card">
            <Heading className="pack-name">{info.name}</Heading>
            <Price cents={info.priceCents} interval={null} />
            <p className="pack-gives">{info.gives}</p>
            <CreditCheckoutButton product={product} user={user} />
          </li>
        );
      })}
    </ul>
  );
}
