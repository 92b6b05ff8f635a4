import { getNewsletterStatus } from '../features/newsletter/api';
import { UnsubscribePanel, type UnsubscribeState } from '../features/newsletter/unsubscribe-panel';
import { ApiClientError, errorMessage } from '../lib/api';
import { seo } from '../lib/seo';
import accountsCss from '../styles/accounts.css?url';
import type { Route } from './+types/newsletter-unsubscribe';

export const links = () => [{ rel: 'stylesheet', href: accountsCss }];

export const meta = () =>
  seo({
    title: 'Newsletter',
    description: 'Unsubscribe from the Chapterwise newsletter.',
    noindex: true,
  });

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get('token') ?? '';
  if (!token) {
    return {
      token,
      state: {
        kind: 'invalid',
        message: 'This unsubscribe link is incomplete. Please use the whole link from the email.',
      } as UnsubscribeState,
    };
  }
  try {
    const status = await getNewsletterStatus(token, context.apiFetch);
    return {
      token,
      state: {
        kind: status.subscribed ? 'subscribed' : 'unsubscribed',
        email: status.email,
      } as UnsubscribeState,
    };
  } catch (error) {
    if (error instanceof ApiClientError && error.status < 500) {
      return {
        token,
        state: { kind: 'invalid', message: errorMessage(error) } as UnsubscribeState,
      };
    }
    throw error;
  }
}

export default function NewsletterUnsubscribeRoute({ loaderData }: Route.ComponentProps) {
  return (
    <section className="container auth-page">
      <div className="auth-card card">
        <UnsubscribePanel token={loaderData.token} initial={loaderData.state} />
      </div>
    </section>
  );
}
