import { useSearchParams } from 'react-router';
import { ResetForm } from '../features/users/components/reset-form';
import { seo } from '../lib/seo';
import accountsCss from '../styles/accounts.css?url';

export const links = () => [{ rel: 'stylesheet', href: accountsCss }];

export const meta = () =>
  seo({
    title: 'Choose a new password',
    description: 'Set a new password for your Chapterwise account.',
    noindex: true,
  });

export default function ResetRoute() {
  const [params] = useSearchParams();
  return (
    <section className="container auth-page" aria-labelledby="reset-title">
      <div className="auth-card card">
        <h1 id="reset-title">Choose a new password</h1>
        <p className="muted">
          After this, you log in with the new password, and any device still logged in is logged
          out.
        </p>
        <ResetForm token={params.get('token') ?? ''} />
      </div>
    </section>
  );
}
