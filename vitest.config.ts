import path from 'node:path';
import { defineConfig } from 'vitest/config';

const shared = path.resolve(import.meta.dirname, 'packages/shared/src/index.ts');

export default defineConfig({
  resolve: { alias: { '@chapterwise/shared': shared } },
  test: {
    projects: [
      {
        resolve: { alias: { '@chapterwise/shared': shared } },
        test: {
          name: 'shared',
          include: ['packages/shared/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        resolve: { alias: { '@chapterwise/shared': shared } },
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias: { '@chapterwise/shared': shared } },
        test: {
          name: 'web',
          include: ['apps/web/app/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
        },
      },
    ],
  },
});
