import { useSearchParams } from 'react-router';
import { Loading } from '../components/ui/loading';
import { TestOnboarding } from '../features/billing';
import { requireSession } from '../lib/guard';
import { seo } from '../lib/seo';
import billingCss from '../styles/billing.css?url';
import type { Route } from './+types/pay-onboarding';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: billingCss }];

export const meta = () =>
  seo({ title: 'Seller onboarding (test)', description: 'Test seller onboarding.', noindex: true });

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

/** /pay/onboarding?account=…: the local adapter's seller onboarding (PAYMENTS=local). */
export default function PayOnboardingRoute() {
  const [params] = useSearchParams();
  return (
    <div className="container page-narrow pay-page">
      <TestOnboarding accountId={params.get('account') ?? ''} />
    </div>
  );
}
