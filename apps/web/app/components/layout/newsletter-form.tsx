import { useId, useState } from 'react';
import { apiRequest } from '../../lib/api';
import { useToast } from '../../lib/toast';

const THANKS_DELAY_MS = 2000;

/**
 * Footer newsletter sign-up (spec §4): on success the email clears and, after a 2 s wait,
 * 'Thanks for subscribing!' shows; on failure the email clears and a 1 s toast says so.
 */
export function NewsletterForm() {
  const id = useId();
  const toast = useToast();
  const [email, setEmail] = useState('');
  const [state, setState] = useState<'idle' | 'sending' | 'thanks'>('idle');

  async function handleSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setState('sending');
    try {
      await apiRequest('/users/subscribe/', { method: 'POST', body: [{ email }], auth: false });
      await new Promise((resolve) => setTimeout(resolve, THANKS_DELAY_MS));
      setEmail('');
      setState('thanks');
    } catch {
      setEmail('');
      setState('idle');
      toast({ message: 'Oops, something bad happened...', tone: 'error', durationMs: 1000 });
    }
  }

  return (
    <form className="newsletter" onSubmit={handleSubmit} noValidate>
      <label htmlFor={id} className="footer-heading">
        Newsletter
      </label>
      <p className="footer-text">New book guides and teaching ideas, about once a month.</p>
      <div className="newsletter-row">
        <input
          id={id}
          type="email"
          name="email"
          required
          autoComplete="email"
          placeholder="you@school.org"
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            if (state === 'thanks') setState('idle');
          }}
        />
        <button type="submit" className="button button-primary" disabled={state === 'sending'}>
          {state === 'sending' ? 'Subscribing…' : 'Subscribe'}
        </button>
      </div>
      <p className="newsletter-thanks" role="status">
        {state === 'thanks' ? 'Thanks for subscribing!' : ''}
      </p>
    </form>
  );
}
