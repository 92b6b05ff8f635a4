import { GOOGLE_FORMS_RESULT_PARAM } from '@chapterwise/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useRouteError,
  useRouteLoaderData,
  type LinksFunction,
} from 'react-router';
import type { Route } from './+types/root';
import { Footer } from './components/layout/footer';
import { Header } from './components/layout/header';
import { NotFound } from './components/layout/not-found';
import { useNonce } from './lib/nonce';
import { createQueryClient } from './lib/query-client';
import { SessionProvider } from './lib/session';
import { THEME_BOOT_SCRIPT } from './lib/theme';
import { ToastProvider } from './lib/toast';
import appCss from './styles/app.css?url';

export const links: LinksFunction = () => [
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
  { rel: 'stylesheet', href: appCss },
];

export function loader({ context }: Route.LoaderArgs) {
  return { publicConfig: context.publicConfig };
}

const FALLBACK_CONFIG = { chatUrl: '/assistant', publicUrl: '' };

/** The document shell, shared by every page and by the error pages. */
export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<typeof loader>('root');
  const config = data?.publicConfig ?? FALLBACK_CONFIG;
  const [queryClient] = useState(createQueryClient);
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: THEME_BOOT_SCRIPT }} />
        <Meta />
        <Links />
      </head>
      <body>
        <QueryClientProvider client={queryClient}>
          <ToastProvider>
            <SessionProvider>
              <Header chatUrl={config.chatUrl} />
              <main id="main" tabIndex={-1}>
                {children}
              </main>
              <Footer />
            </SessionProvider>
          </ToastProvider>
        </QueryClientProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

// Loaded only when Google sends a teacher back: every other page does without the materials
// feature's code (issue 18).
const GoogleFormsReturn = lazy(() =>
  import('./features/materials/components/google-forms-return').then((module) => ({
    default: module.GoogleFormsReturn,
  })),
);

export default function App() {
  const { search } = useLocation();
  const returningFromGoogle = new URLSearchParams(search).has(GOOGLE_FORMS_RESULT_PARAM);
  return (
    <>
      {returningFromGoogle ? (
        <Suspense fallback={null}>
          <GoogleFormsReturn />
        </Suspense>
      ) : null}
      <Outlet />
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : 'Something went wrong on our side.';
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <section className="container page-narrow error-page">
      <title>Something went wrong | Chapterwise</title>
      <h1>Something went wrong</h1>
      <p>{message} Please reload the page or try again in a moment.</p>
      <a className="button button-primary" href="/">
        Go to the home page
      </a>
    </section>
  );
}
