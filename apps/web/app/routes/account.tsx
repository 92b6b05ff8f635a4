import { useCallback, useEffect } from 'react';
import { Link, useNavigate, useNavigation, useSearchParams } from 'react-router';
import { Loading } from '../components/ui/loading';
import { OrdersList, SellerSettings, SubscriptionPanel } from '../features/billing';
import { Avatar } from '../features/users/components/avatar';
import { EditInfoForm } from '../features/users/components/edit-info-form';
import { PasswordForm } from '../features/users/components/password-form';
import { SectionTabs, type Section } from '../features/users/components/section-tabs';
import { requireSession } from '../lib/guard';
import { seo } from '../lib/seo';
import { useSession } from '../lib/session';
import accountsCss from '../styles/accounts.css?url';
import billingCss from '../styles/billing.css?url';
import type { Route } from './+types/account';
import type { OwnUser } from '@chapterwise/shared';

export const links = () => [
  { rel: 'stylesheet', href: accountsCss },
  { rel: 'stylesheet', href: billingCss },
];

export const meta = () =>
  seo({ title: 'Account', description: 'Your Chapterwise account.', noindex: true });

export function clientLoader(args: Route.ClientLoaderArgs) {
  requireSession(args);
  return null;
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return (
    <section className="container page">
      <Loading label="Loading your account…" />
    </section>
  );
}

/**
 * The account page's sections, shown as tabs (?tab=<id> links to one): the profile, the
 * password, then billing's subscription area, orders and seller settings.
 */
function accountSections(user: OwnUser, seller: React.ReactNode): Section[] {
  return [
    { id: 'edit-info', label: 'Edit Info', content: <EditInfoForm user={user} /> },
    { id: 'password', label: 'Password', content: <PasswordForm /> },
    { id: 'subscription', label: 'Subscription', content: <SubscriptionPanel user={user} /> },
    {
      id: 'orders',
      label: 'Orders',
      content: (
        <section className="billing-panel" aria-labelledby="orders-heading">
          <h2 id="orders-heading">Orders</h2>
          <OrdersList />
        </section>
      ),
    },
    { id: 'seller', label: 'Seller settings', content: seller },
  ];
}

export default function AccountRoute() {
  const { status, user } = useSession();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();

  const navigation = useNavigation();
  // Back from the payment provider's onboarding: `?onboarding=return|refresh` is handled once.
  const onboarding = params.get('onboarding');
  const clearOnboarding = useCallback(
    () => setParams({ tab: 'seller' }, { replace: true, preventScrollReset: true }),
    [setParams],
  );
  // The stored token looked valid but the server ended the session (logout elsewhere).
  useEffect(() => {
    if (status === 'guest' && navigation.state === 'idle') {
      void navigate('/login?redirectTo=%2Faccount', { replace: true });
    }
  }, [status, navigation.state, navigate]);

  if (!user) return <HydrateFallback />;
  const name = `${user.firstName} ${user.lastName}`.trim() || user.username;
  return (
    <section className="container page account-page" aria-labelledby="account-title">
      <h1 id="account-title">Account</h1>
      <div className="account-layout">
        <aside className="card account-summary" aria-label="Your profile">
          <Avatar src={user.avatar} name={name} size="lg" />
          <p className="account-name">{name}</p>
          <p className="muted account-username">@{user.username}</p>
          <p className="account-credits">
            {user.isSubscribed ? (
              'Unlimited plan'
            ) : (
              <Link to="?tab=subscription">
                {`${user.generationCredits} free generation${user.generationCredits === 1 ? '' : 's'} left`}
              </Link>
            )}
          </p>
          <Link to={`/profile/${user.username}`} className="button button-ghost button-sm">
            View public profile
          </Link>
        </aside>
        <div className="card account-panel">
          <SectionTabs
            label="Account settings"
            sections={accountSections(
              user,
              <SellerSettings onboarding={onboarding} onHandled={clearOnboarding} />,
            )}
            current={params.get('tab') ?? 'edit-info'}
            onSelect={(tab) => setParams({ tab }, { replace: true, preventScrollReset: true })}
          />
        </div>
      </div>
    </section>
  );
}
