import { useId, useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import { logIn } from '../api';
import { PasswordInput } from './password-input';

/**
 * Login (spec §2): email, password with show/hide, 'Remember me', 'Forgot Password' and a
 * link to register. No client checks; the server's error (wrong password, too many attempts)
 * shows in red under the form. On success, a full-page load of `redirectTo`.
 */
export function LoginForm({
  redirectTo,
  initialEmail = '',
}: {
  redirectTo: string;
  initialEmail?: string;
}) {
  const session = useSession();
  const id = useId();
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await logIn({ email, password, rememberMe });
      session.signIn(answer);
      window.location.assign(redirectTo);
    } catch (caught) {
      setError(errorMessage(caught));
      setBusy(false);
    }
  }

  return (
    <form
      className="auth-form"
      onSubmit={handleSubmit}
      noValidate
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <div className="field">
        <label htmlFor={`${id}-email`}>Email</label>
        <input
          id={`${id}-email`}
          type="email"
          name="email"
          autoComplete="username"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </div>
      <div className="field">
        <div className="field-row">
          <label htmlFor={`${id}-password`}>Password</label>
          <Link to="/forgot" className="field-link">
            Forgot Password?
          </Link>
        </div>
        <PasswordInput
          id={`${id}-password`}
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </div>
      <label className="checkbox">
        <input
          type="checkbox"
          name="rememberMe"
          checked={rememberMe}
          onChange={(event) => setRememberMe(event.target.checked)}
        />
        Remember me
      </label>
      <button
        type="submit"
        className="button button-primary button-lg button-block"
        disabled={busy}
      >
        {busy ? <span className="spinner" aria-hidden="true" /> : null}
        {busy ? 'Logging in…' : 'Log in'}
      </button>
      <p id={`${id}-error`} className="form-error" role="alert">
        {error ?? ''}
      </p>
      <p className="auth-switch">
        New to Chapterwise? <Link to="/register">Create an account</Link>
      </p>
    </form>
  );
}
