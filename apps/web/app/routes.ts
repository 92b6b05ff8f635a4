import { index, route, type RouteConfig } from '@react-router/dev/routes';

export default [
  index('routes/home.tsx'),
  route('legal/:policy', 'routes/legal.tsx'),
  // Everything else, including the template-only paths the spec lists, is a real 404.
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
