import { useId, useState } from 'react';
import { errorMessage } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import { changePassword } from '../api';
import { PasswordInput } from './password-input';

const EMPTY = { oldPassword: '', newPassword: '', newPasswordConfirm: '' };

/**
 * Password tab (spec §2, §8): current password, new password and its confirmation, one
 * show/hide toggle. The server's message shows in green on success and red on failure, and
 * the three fields clear after the answer. Other devices are logged out; this one keeps its
 * session with the new token the answer brings.
 */
export function PasswordForm() {
  const id = useId();
  const session = useSession();
  const [values, setValues] = useState(EMPTY);
  const [visible, setVisible] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const set = (name: keyof typeof EMPTY) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setValues((all) => ({ ...all, [name]: event.target.value }));

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setResult(null);
    try {
      const answer = await changePassword(values);
      if (answer.token && session.user) session.signIn({ token: answer.token, user: session.user });
      setResult({ ok: answer.wasSuccessful, message: answer.message });
    } catch (caught) {
      setResult({ ok: false, message: errorMessage(caught) });
    } finally {
      setValues(EMPTY);
      setBusy(false);
    }
  }

  const fields = [
    { name: 'oldPassword', label: 'Current password', autoComplete: 'current-password' },
    { name: 'newPassword', label: 'New password', autoComplete: 'new-password' },
    { name: 'newPasswordConfirm', label: 'Confirm new password', autoComplete: 'new-password' },
  ] as const;

  return (
    <form className="account-form password-form" onSubmit={handleSubmit} noValidate>
      {fields.map((field) => (
        <div className="field" key={field.name}>
          <label htmlFor={`${id}-${field.name}`}>{field.label}</label>
          <PasswordInput
            id={`${id}-${field.name}`}
            name={field.name}
            autoComplete={field.autoComplete}
            visible={visible}
            value={values[field.name]}
            onChange={set(field.name)}
          />
        </div>
      ))}
      <label className="checkbox">
        <input
          type="checkbox"
          checked={visible}
          onChange={(event) => setVisible(event.target.checked)}
        />
        Show passwords
      </label>
      <p className="field-hint">
        At least 8 characters. Changing it logs you out on your other devices.
      </p>
      <div role="status" aria-live="polite">
        {result ? (
          <p className={result.ok ? 'form-success' : 'form-error'}>{result.message}</p>
        ) : null}
      </div>
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? <span className="spinner" aria-hidden="true" /> : null}
        {busy ? 'Changing…' : 'Change Password'}
      </button>
    </form>
  );
}
