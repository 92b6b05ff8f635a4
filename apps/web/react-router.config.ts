import type { Config } from '@react-router/dev/config';

export default {
  appDirectory: 'app',
  ssr: true,
  // Every route is in one cached file (assets/manifest-*.js, ~24 KB, ~4 KB brotli) instead of
  // a partial manifest inlined in every page plus a /__manifest request per page view to
  // discover the routes its links lead to (issue 18, decision 022).
  routeDiscovery: { mode: 'initial' },
} satisfies Config;
