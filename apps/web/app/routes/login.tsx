import { useEffect } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { LoginForm } from '../features/users/components/login-form';
import { safeRedirect } from '../features/users/redirect';
import { seo } from '../lib/seo';
import { hasValidStoredToken } from '../lib/session';
import accountsCss from '../styles/accounts.css?url';

export const links = () => [{ rel: 'stylesheet', href: accountsCss }];

export const meta = () =>
  seo({
    title: 'Log in',
    description: 'Log in to Chapterwise to make quizzes, tests and lessons from any chapter.',
    noindex: true,
  });

export default function LoginRoute() {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const redirectTo = safeRedirect(params.get('redirectTo'));
  const initialEmail = (location.state as { email?: string } | null)?.email ?? '';

  // Already logged in (a valid token is stored): go straight on.
  useEffect(() => {
    if (hasValidStoredToken()) void navigate(redirectTo, { replace: true });
  }, [navigate, redirectTo]);

  return (
    <section className="container auth-page" aria-labelledby="login-title">
      <div className="auth-card card">
        <h1 id="login-title">Welcome back</h1>
        <p className="muted">Log in to your teaching materials.</p>
        {params.get('redirectTo') ? (
          <p className="alert alert-info">Please log in to continue.</p>
        ) : null}
        <LoginForm redirectTo={redirectTo} initialEmail={initialEmail} />
      </div>
      <p className="auth-aside muted">
        <Link to="/">← Back to the home page</Link>
      </p>
    </section>
  );
}
