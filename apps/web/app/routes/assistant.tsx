import { useCallback, useEffect, useState } from 'react';
import { useRouteLoaderData } from 'react-router';
import type { AssistantSessionAnswer } from '@chapterwise/shared';
import { Loading } from '../components/ui/loading';
import { assistantApi, ChatScreen, NoSession } from '../features/assistant';
import { ApiClientError, errorMessage } from '../lib/api';
import { seo } from '../lib/seo';
import assistantCss from '../styles/assistant.css?url';
import type { Route } from './+types/assistant';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: assistantCss }];

export function meta() {
  return seo({
    title: 'AI Teaching Assistant',
    description: 'A chat that answers from the books, with every quote linked to its paragraph.',
    noindex: true,
  });
}

type State =
  | { kind: 'checking' }
  | { kind: 'ready'; session: AssistantSessionAnswer }
  | { kind: 'none'; reason: string | null };

/**
 * /assistant?a=TOKEN: the dashboard's chat token is exchanged for a chat session (an HttpOnly
 * cookie) and taken out of the address bar at once; without a token the session cookie is
 * tried; without either, the page says to open the assistant from the dashboard.
 */
export default function AssistantRoute() {
  const root = useRouteLoaderData('root') as { publicConfig?: { publicUrl: string } } | undefined;
  const publicUrl = root?.publicConfig?.publicUrl ?? '';
  const [state, setState] = useState<State>({ kind: 'checking' });

  useEffect(() => {
    const url = new URL(window.location.href);
    const token = url.searchParams.get('a');
    if (token) {
      url.searchParams.delete('a');
      window.history.replaceState(
        window.history.state,
        '',
        `${url.pathname}${url.search}${url.hash}`,
      );
    }
    let current = true;
    (token ? assistantApi.exchange(token) : assistantApi.session())
      .then((session) => current && setState({ kind: 'ready', session }))
      .catch((error: unknown) => {
        if (!current) return;
        const expected = error instanceof ApiClientError && error.status === 401;
        setState({ kind: 'none', reason: token || !expected ? errorMessage(error) : null });
      });
    return () => {
      current = false;
    };
  }, []);

  const ended = useCallback((reason: string) => setState({ kind: 'none', reason }), []);

  if (state.kind === 'checking') {
    return (
      <div className="container page">
        <Loading label="Opening the assistant…" />
      </div>
    );
  }
  if (state.kind === 'none') {
    return <NoSession reason={state.reason} publicUrl={publicUrl} />;
  }
  return <ChatScreen session={state.session} onSessionEnded={ended} />;
}
