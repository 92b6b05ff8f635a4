import { useState } from 'react';

interface PasswordInputProps extends Omit<React.InputHTMLAttributes<HTMLInputElement>, 'type'> {
  /** When given, the toggle is owned by the parent (one toggle for several fields). */
  visible?: boolean;
  /** Label of the built-in toggle, e.g. "password". */
  toggleLabel?: string;
}

/**
 * A password field with a show/hide toggle (spec §5: the toggle switches between masked and
 * visible text). The toggle is a real button with a state, so keyboards and screen readers
 * can use it.
 */
export function PasswordInput({ visible, toggleLabel = 'password', ...props }: PasswordInputProps) {
  const [shown, setShown] = useState(false);
  const isVisible = visible ?? shown;
  return (
    <div className="password-field">
      <input {...props} type={isVisible ? 'text' : 'password'} />
      {visible === undefined ? (
        <button
          type="button"
          className="password-toggle"
          aria-pressed={shown}
          aria-label={shown ? `Hide ${toggleLabel}` : `Show ${toggleLabel}`}
          onClick={() => setShown(!shown)}
        >
          {shown ? 'Hide' : 'Show'}
        </button>
      ) : null}
    </div>
  );
}
