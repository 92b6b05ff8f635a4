import { Link, useParams } from 'react-router';
import { ErrorBox } from '../components/ui/error-box';
import { Loading } from '../components/ui/loading';
import { TestBanner, TestCheckout, useCheckoutSession } from '../features/billing';
import { ApiClientError, errorMessage } from '../lib/api';
import { requireSession } from '../lib/guard';
import { seo } from '../lib/seo';
import billingCss from '../styles/billing.css?url';
import type { Route } from './+types/pay-checkout';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: billingCss }];

export const meta = () =>
  seo({ title: 'Test checkout', description: 'Test checkout: no card is charged.', noindex: true });

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

/** /pay/checkout/{id}: the local adapter's hosted checkout page (PAYMENTS=local). */
export default function PayCheckoutRoute() {
  const { id = '' } = useParams();
  const session = useCheckoutSession(id);
  let body: React.ReactNode;
  if (session.isPending) body = <Loading label="Loading the checkout…" />;
  else if (session.isError) {
    const missing =
      session.error instanceof ApiClientError &&
      (session.error.status === 404 || session.error.status === 400);
    body = (
      <div className="card test-card">
        <TestBanner />
        <h1>{missing ? 'Checkout not found' : 'Something went wrong'}</h1>
        {missing ? (
          <p>This checkout does not exist or is not yours.</p>
        ) : (
          <ErrorBox message={errorMessage(session.error)} />
        )}
        <Link className="button button-primary" to="/subscription">
          Back to plans
        </Link>
      </div>
    );
  } else body = <TestCheckout session={session.data} />;
  return <div className="container page-narrow pay-page">{body}</div>;
}
