import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../../lib/api';
import { useToast } from '../../../lib/toast';
import { registerAccount } from '../api';
import { PasswordInput } from './password-input';

const FIELDS = [
  { name: 'firstName', label: 'First name', autoComplete: 'given-name', type: 'text' },
  { name: 'lastName', label: 'Last name', autoComplete: 'family-name', type: 'text' },
  { name: 'username', label: 'Username', autoComplete: 'username', type: 'text' },
  { name: 'email', label: 'Email', autoComplete: 'email', type: 'email' },
] as const;

type Values = Record<(typeof FIELDS)[number]['name'] | 'password' | 'passwordConfirmation', string>;

/**
 * Register (spec §2): first and last name, username, email, password and its confirmation,
 * and the terms note. The server decides what is valid; a failure shows its message in a
 * 5 s toast. Success goes to /login.
 */
export function RegisterForm() {
  const id = useId();
  const toast = useToast();
  const navigate = useNavigate();
  const [values, setValues] = useState<Values>({
    firstName: '',
    lastName: '',
    username: '',
    email: '',
    password: '',
    passwordConfirmation: '',
  });
  const [busy, setBusy] = useState(false);
  const set = (name: keyof Values) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setValues((all) => ({ ...all, [name]: event.target.value }));

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    try {
      await registerAccount(values);
      toast({
        tone: 'success',
        title: 'Account created',
        message: 'Welcome! Log in to start with your 5 free generations.',
      });
      void navigate('/login', { state: { email: values.email } });
    } catch (caught) {
      toast({ tone: 'error', message: errorMessage(caught), durationMs: 5000 });
      setBusy(false);
    }
  }

  return (
    <form className="auth-form" onSubmit={handleSubmit} noValidate>
      <div className="form-grid">
        {FIELDS.map((field) => (
          <div className="field" key={field.name}>
            <label htmlFor={`${id}-${field.name}`}>{field.label}</label>
            <input
              id={`${id}-${field.name}`}
              name={field.name}
              type={field.type}
              autoComplete={field.autoComplete}
              value={values[field.name]}
              onChange={set(field.name)}
              {...(field.name === 'username' ? { 'aria-describedby': `${id}-username-hint` } : {})}
            />
            {field.name === 'username' ? (
              <span id={`${id}-username-hint`} className="field-hint">
                3–30 letters, digits, _ or -. It is your public profile address.
              </span>
            ) : null}
          </div>
        ))}
        <div className="field">
          <label htmlFor={`${id}-password`}>Password</label>
          <PasswordInput
            id={`${id}-password`}
            name="password"
            autoComplete="new-password"
            aria-describedby={`${id}-password-hint`}
            value={values.password}
            onChange={set('password')}
          />
          <span id={`${id}-password-hint`} className="field-hint">
            At least 8 characters. A short sentence is easy to remember.
          </span>
        </div>
        <div className="field">
          <label htmlFor={`${id}-confirm`}>Confirm password</label>
          <PasswordInput
            id={`${id}-confirm`}
            name="passwordConfirmation"
            autoComplete="new-password"
            toggleLabel="password confirmation"
            value={values.passwordConfirmation}
            onChange={set('passwordConfirmation')}
          />
        </div>
      </div>
      <p className="auth-note">
        By signing up you agree to our <Link to="/legal/terms">Terms of Service</Link> and{' '}
        <Link to="/legal/privacy">Privacy Policy</Link>.
      </p>
      <button
        type="submit"
        className="button button-primary button-lg button-block"
        disabled={busy}
      >
        {busy ? <span className="spinner" aria-hidden="true" /> : null}
        {busy ? 'Creating your account…' : 'Create Account'}
      </button>
      <p className="auth-switch">
        Already have an account? <Link to="/login">Log in</Link>
      </p>
    </form>
  );
}
