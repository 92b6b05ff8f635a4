import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ErrorBox } from '../components/ui/error-box';
import { Loading } from '../components/ui/loading';
import { ThankYou, useCheckoutSession, useSubscription } from '../features/billing';
import { ApiClientError, errorMessage } from '../lib/api';
import { requireSession } from '../lib/guard';
import { seo } from '../lib/seo';
import { useSession } from '../lib/session';
import billingCss from '../styles/billing.css?url';
import type { Route } from './+types/thankyou';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: billingCss }];

export const meta = () =>
  seo({ title: 'Thank you', description: 'Your purchase on Chapterwise.', noindex: true });

export function clientLoader(args: Route.ClientLoaderArgs) {
  requireSession(args);
  return null;
}

export function HydrateFallback() {
  return (
    <div className="container page-narrow">
      <Loading />
    </div>
  );
}

/**
 * /thankyou?session_id=… (spec §2): where the checkout comes back to. It waits for the
 * provider's confirmation (the webhook) and then says what was bought and what changed.
 */
export default function ThankYouRoute() {
  const [params] = useSearchParams();
  const id = params.get('session_id') ?? '';
  const session = useCheckoutSession(id, true);
  const subscription = useSubscription();
  const { user, refresh } = useSession();
  const complete = session.data?.status === 'complete';
  const [startedAt] = useState(() => Date.now());
  const refreshed = useRef(false);

  // Once the provider has confirmed, read the account again: the plan and credits changed.
  const refetchPlan = subscription.refetch;
  useEffect(() => {
    if (!complete || refreshed.current) return;
    refreshed.current = true;
    void refresh();
    void refetchPlan();
  }, [complete, refresh, refetchPlan]);

  // The plan's own event may come a moment after the payment's: ask again for a little while.
  const waitingForPlan =
    complete && session.data?.order.product === 'subscription' && user && !user.isSubscribed;
  useEffect(() => {
    if (!waitingForPlan) return;
    let tries = 0;
    const timer = window.setInterval(() => {
      tries += 1;
      if (tries > 15) window.clearInterval(timer);
      void refresh();
      void refetchPlan();
    }, 2000);
    return () => window.clearInterval(timer);
  }, [waitingForPlan, refresh, refetchPlan]);

  let body: React.ReactNode;
  if (!id) {
    body = (
      <>
        <h1>Thank you</h1>
        <p>There is no purchase to show here.</p>
        <Link className="button button-primary" to="/subscription">
          See plans and credits
        </Link>
      </>
    );
  } else if (session.isPending) {
    body = <Loading label="Loading your purchase…" />;
  } else if (session.isError) {
    const missing =
      session.error instanceof ApiClientError &&
      (session.error.status === 404 || session.error.status === 400);
    body = (
      <>
        <h1>{missing ? 'Purchase not found' : 'Something went wrong'}</h1>
        {missing ? (
          <p>This checkout does not exist or is not yours.</p>
        ) : (
          <ErrorBox message={errorMessage(session.error)} />
        )}
      </>
    );
  } else {
    body = (
      <ThankYou
        session={session.data}
        user={user}
        subscription={subscription.data}
        waitedTooLong={session.dataUpdatedAt - startedAt > 55_000}
      />
    );
  }
  return <div className="container page-narrow thankyou-page">{body}</div>;
}
