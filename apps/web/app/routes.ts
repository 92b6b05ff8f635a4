import { index, route, type RouteConfig } from '@react-router/dev/routes';

export default [
  index('routes/home.tsx'),
  route('legal/:policy', 'routes/legal.tsx'),
  route('material-generator', 'routes/material-generator.tsx'),
  route('dashboard', 'routes/dashboard.tsx'),
  route('create-set', 'routes/create-set.tsx'),
  route('set/:id', 'routes/set.tsx'),
  route('material/:id/print', 'routes/material-print.tsx'),
  // Everything else, including the template-only paths the spec lists, is a real 404.
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
