import { Link } from 'react-router';
import { RegisterForm } from '../features/users/components/register-form';
import { seo } from '../lib/seo';
import accountsCss from '../styles/accounts.css?url';

export const links = () => [{ rel: 'stylesheet', href: accountsCss }];

export const meta = () =>
  seo({
    title: 'Create your account',
    description:
      'Create a free Chapterwise account: 5 free generations of quizzes, tests and lessons, no credit card.',
  });

export default function RegisterRoute() {
  return (
    <section className="container auth-page auth-page-wide" aria-labelledby="register-title">
      <div className="auth-card card">
        <h1 id="register-title">Create your account</h1>
        <p className="muted">Your first 5 generations are free. No credit card needed.</p>
        <RegisterForm />
      </div>
      <p className="auth-aside muted">
        <Link to="/">← Back to the home page</Link>
      </p>
    </section>
  );
}
