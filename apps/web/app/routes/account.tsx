import { useEffect } from 'react';
import { Link, useNavigate, useNavigation, useSearchParams } from 'react-router';
import { Loading } from '../components/ui/loading';
import { Avatar } from '../features/users/components/avatar';
import { EditInfoForm } from '../features/users/components/edit-info-form';
import { PasswordForm } from '../features/users/components/password-form';
import { SectionTabs, type Section } from '../features/users/components/section-tabs';
import { requireSession } from '../lib/guard';
import { seo } from '../lib/seo';
import { useSession } from '../lib/session';
import accountsCss from '../styles/accounts.css?url';
import type { Route } from './+types/account';
import type { OwnUser } from '@chapterwise/shared';

export const links = () => [{ rel: 'stylesheet', href: accountsCss }];

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
 * The account page's sections, shown as tabs (?tab=<id> links to one). Other features add
 * theirs here: billing's "Subscription" area and "Seller settings" go after Password.
 */
function accountSections(user: OwnUser): Section[] {
  return [
    { id: 'edit-info', label: 'Edit Info', content: <EditInfoForm user={user} /> },
    { id: 'password', label: 'Password', content: <PasswordForm /> },
  ];
}

export default function AccountRoute() {
  const { status, user } = useSession();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();

  const navigation = useNavigation();
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
            {user.isSubscribed
              ? 'Unlimited plan'
              : `${user.generationCredits} free generation${user.generationCredits === 1 ? '' : 's'} left`}
          </p>
          <Link to={`/profile/${user.username}`} className="button button-ghost button-sm">
            View public profile
          </Link>
        </aside>
        <div className="card account-panel">
          <SectionTabs
            label="Account settings"
            sections={accountSections(user)}
            current={params.get('tab') ?? 'edit-info'}
            onSelect={(tab) => setParams({ tab }, { replace: true, preventScrollReset: true })}
          />
        </div>
      </div>
    </section>
  );
}
