import { redirect, type ClientLoaderFunctionArgs } from 'react-router';
import { hasValidStoredToken } from './session';

/**
 * For logged-in-only routes: use as (or inside) the route's `clientLoader`. A visitor without
 * a valid session goes to /login, which brings them back here after logging in.
 */
export function requireSession({ request }: Pick<ClientLoaderFunctionArgs, 'request'>): void {
  if (!hasValidStoredToken()) {
    const url = new URL(request.url);
    const back = url.pathname + url.search;
    throw redirect(`/login?redirectTo=${encodeURIComponent(back)}`);
  }
}
