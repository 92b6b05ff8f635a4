import { index, route, type RouteConfig } from '@react-router/dev/routes';

export default [
  index('routes/home.tsx'),
  route('legal/:policy', 'routes/legal.tsx'),
  route('login', 'routes/login.tsx'),
  route('register', 'routes/register.tsx'),
  route('forgot', 'routes/forgot.tsx'),
  route('reset', 'routes/reset.tsx'),
  route('account', 'routes/account.tsx'),
  route('profile/:username', 'routes/profile.tsx'),
  route('newsletter/unsubscribe', 'routes/newsletter-unsubscribe.tsx'),
  route('books', 'routes/books.tsx', { id: 'books' }),
  route('books/:slug', 'routes/books.tsx', { id: 'books-filtered' }),
  route('book/:url', 'routes/book.tsx'),
  route('book/:url/:chapterUrl', 'routes/chapter.tsx'),
  route('material-generator', 'routes/material-generator.tsx'),
  route('dashboard', 'routes/dashboard.tsx'),
  route('create-set', 'routes/create-set.tsx'),
  route('set/:id', 'routes/set.tsx'),
  route('material/:id/print', 'routes/material-print.tsx'),
  route('material/:id/edit', 'routes/material-edit.tsx'),
  route('subscription', 'routes/subscription.tsx'),
  route('thankyou', 'routes/thankyou.tsx'),
  // The local payments adapter's own checkout, portal and onboarding pages.
  route('pay/checkout/:id', 'routes/pay-checkout.tsx'),
  route('pay/portal', 'routes/pay-portal.tsx'),
  route('pay/onboarding', 'routes/pay-onboarding.tsx'),
  // Everything else, including the template-only paths the spec lists, is a real 404.
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
