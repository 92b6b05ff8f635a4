import { ForgotForm } from '../features/users/components/forgot-form';
import { seo } from '../lib/seo';
import accountsCss from '../styles/accounts.css?url';

export const links = () => [{ rel: 'stylesheet', href: accountsCss }];

export const meta = () =>
  seo({
    title: 'Forgot your password?',
    description: 'Get a link to choose a new Chapterwise password.',
    noindex: true,
  });

export default function ForgotRoute() {
  return (
    <section className="container auth-page" aria-labelledby="forgot-title">
      <div className="auth-card card">
        <h1 id="forgot-title">Forgot your password?</h1>
        <p className="muted">
          Enter the email address of your account. We will send you a link to choose a new password;
          it works for 1 hour.
        </p>
        <ForgotForm />
      </div>
    </section>
  );
}
