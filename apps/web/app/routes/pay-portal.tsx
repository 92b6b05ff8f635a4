import { useQueryClient } from '@tanstack/react-query';
import { Loading } from '../components/ui/loading';
import { billingKeys, TestPortal, useSubscription } from '../features/billing';
import { ErrorBox } from '../components/ui/error-box';
import { errorMessage } from '../lib/api';
import { requireSession } from '../lib/guard';
import { seo } from '../lib/seo';
import { useSession } from '../lib/session';
import billingCss from '../styles/billing.css?url';
import type { Route } from './+types/pay-portal';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: billingCss }];

export const meta = () =>
  seo({ title: 'Manage Subscription (test)', description: 'Test customer portal.', noindex: true });

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

/** /pay/portal: the local adapter's customer portal (PAYMENTS=local). */
export default function PayPortalRoute() {
  const subscription = useSubscription();
  const client = useQueryClient();
  const { refresh } = useSession();
  return (
    <div className="container page-narrow pay-page">
      {subscription.isPending ? (
        <Loading label="Loading your plan…" />
      ) : subscription.isError ? (
        <ErrorBox message={errorMessage(subscription.error)} />
      ) : (
        <TestPortal
          subscription={subscription.data}
          onChange={(info) => {
            client.setQueryData(billingKeys.subscription, info);
            void refresh();
          }}
        />
      )}
    </div>
  );
}
