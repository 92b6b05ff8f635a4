import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../lib/api';
import { unsubscribeFromNewsletter } from './api';

export type UnsubscribeState =
  { kind: 'invalid'; message: string } | { kind: 'subscribed' | 'unsubscribed'; email: string };

/**
 * The page behind the link in every newsletter email. It asks before unsubscribing (mail
 * scanners open links, and should not unsubscribe anyone) and says clearly what happened.
 */
export function UnsubscribePanel({ token, initial }: { token: string; initial: UnsubscribeState }) {
  const [state, setState] = useState(initial);
  const [justLeft, setJustLeft] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function handleUnsubscribe() {
    setBusy(true);
    setError(null);
    try {
      const answer = await unsubscribeFromNewsletter(token);
      setState({ kind: 'unsubscribed', email: answer.email });
      setJustLeft(true);
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  }

  if (state.kind === 'invalid') {
    return (
      <>
        <h1>This link does not work</h1>
        <div className="alert alert-error" role="alert">
          {state.message}
        </div>
        <p>
          Every newsletter email has its own unsubscribe link at the bottom. If you keep getting
          emails you did not ask for, write to{' '}
          <a href="mailto:hello@chapterwise.app">hello@chapterwise.app</a>.
        </p>
        <Link to="/" className="button button-ghost">
          Go to the home page
        </Link>
      </>
    );
  }

  if (state.kind === 'unsubscribed') {
    return (
      <>
        <h1>{justLeft ? 'You are unsubscribed' : 'Already unsubscribed'}</h1>
        <div className="alert alert-success" role="status">
          {state.email} will not get the Chapterwise newsletter any more.
        </div>
        <p>Changed your mind? Sign up again any time with the form at the bottom of every page.</p>
        <Link to="/books" className="button button-primary">
          Browse the books
        </Link>
      </>
    );
  }

  return (
    <>
      <h1>Unsubscribe from the newsletter?</h1>
      <p>
        <strong>{state.email}</strong> gets the Chapterwise newsletter: new book guides and teaching
        ideas, about once a month.
      </p>
      <div className="button-row">
        <button
          type="button"
          className="button button-primary"
          onClick={handleUnsubscribe}
          disabled={busy}
        >
          {busy ? <span className="spinner" aria-hidden="true" /> : null}
          {busy ? 'Unsubscribing…' : 'Unsubscribe'}
        </button>
        <Link to="/" className="button button-ghost">
          Keep me subscribed
        </Link>
      </div>
      <div role="alert">{error ? <p className="form-error">{error}</p> : null}</div>
    </>
  );
}
