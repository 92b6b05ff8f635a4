import { useId, useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api';
import { requestPasswordReset } from '../api';

/**
 * Forgot password: one email field. The answer is the same whether or not an account uses
 * the address, so the screen says "if an account uses it" and explains what to do next.
 */
export function ForgotForm() {
  const id = useId();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<{ email: string; message: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await requestPasswordReset({ email });
      setSentTo({ email: email.trim(), message: answer.message });
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  }

  if (sentTo) {
    return (
      <div className="auth-form">
        <div className="alert alert-success" role="status">
          <strong>Check your inbox.</strong> {sentTo.message}
        </div>
        <p>
          We sent it to <strong>{sentTo.email}</strong>. If nothing arrives in a few minutes, look
          in your spam folder, check the address, or ask again.
        </p>
        <div className="button-row">
          <Link to="/login" className="button button-primary">
            Back to login
          </Link>
          <button type="button" className="button button-ghost" onClick={() => setSentTo(null)}>
            Use another address
          </button>
        </div>
      </div>
    );
  }

  return (
    <form className="auth-form" onSubmit={handleSubmit} noValidate>
      <div className="field">
        <label htmlFor={`${id}-email`}>Email</label>
        <input
          id={`${id}-email`}
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </div>
      <button
        type="submit"
        className="button button-primary button-lg button-block"
        disabled={busy}
      >
        {busy ? <span className="spinner" aria-hidden="true" /> : null}
        {busy ? 'Sending…' : 'Send reset link'}
      </button>
      <p className="form-error" role="alert">
        {error ?? ''}
      </p>
      <p className="auth-switch">
        Remembered it? <Link to="/login">Log in</Link>
      </p>
    </form>
  );
}
