import { ACCOUNT_MESSAGES } from '@chapterwise/shared';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api';
import { resetPassword } from '../api';
import { PasswordInput } from './password-input';

/**
 * Reset password from the emailed link: the new password twice. States: the link has no
 * token; the form; done (log in); and errors, with a way to ask for a new link when the
 * link has expired or was used.
 */
export function ResetForm({ token }: { token: string }) {
  const id = useId();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [visible, setVisible] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (!token) {
    return (
      <div className="auth-form">
        <div className="alert alert-error" role="alert">
          This reset link is incomplete. Open the link from your email again, or ask for a new one.
        </div>
        <Link to="/forgot" className="button button-primary">
          Ask for a new link
        </Link>
      </div>
    );
  }

  if (done) {
    return (
      <div className="auth-form">
        <div className="alert alert-success" role="status">
          {done}
        </div>
        <Link to="/login" className="button button-primary button-lg button-block">
          Log in
        </Link>
      </div>
    );
  }

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await resetPassword({ token, password, passwordConfirmation: confirmation });
      setDone(answer.message);
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  }

  const linkIsDead = error === ACCOUNT_MESSAGES.resetInvalid;
  return (
    <form className="auth-form" onSubmit={handleSubmit} noValidate>
      <div className="field">
        <label htmlFor={`${id}-password`}>New password</label>
        <PasswordInput
          id={`${id}-password`}
          name="password"
          autoComplete="new-password"
          visible={visible}
          aria-describedby={`${id}-hint`}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <span id={`${id}-hint`} className="field-hint">
          At least 8 characters.
        </span>
      </div>
      <div className="field">
        <label htmlFor={`${id}-confirm`}>Confirm new password</label>
        <PasswordInput
          id={`${id}-confirm`}
          name="passwordConfirmation"
          autoComplete="new-password"
          visible={visible}
          value={confirmation}
          onChange={(event) => setConfirmation(event.target.value)}
        />
      </div>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={visible}
          onChange={(event) => setVisible(event.target.checked)}
        />
        Show passwords
      </label>
      <button
        type="submit"
        className="button button-primary button-lg button-block"
        disabled={busy}
      >
        {busy ? <span className="spinner" aria-hidden="true" /> : null}
        {busy ? 'Saving…' : 'Set new password'}
      </button>
      <div role="alert">
        {error ? (
          <p className="form-error">
            {error} {linkIsDead ? <Link to="/forgot">Ask for a new link</Link> : null}
          </p>
        ) : null}
      </div>
    </form>
  );
}
