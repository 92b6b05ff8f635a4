#!/usr/bin/env node
// `npm run test:e2e`: builds the app, then runs Playwright against the built server.
import { findChromium, run } from './lib.mjs';

const chromium = findChromium();
if (!chromium) {
  console.error(
    'E2E tests need Chromium: sudo apt-get install -y chromium (or set CHROMIUM_PATH).',
  );
  process.exit(1);
}
if (!process.argv.includes('--no-build')) run('npm', ['run', 'build', '--silent']);
const extra = process.argv.slice(2).filter((a) => a !== '--no-build');
run('npx', ['playwright', 'test', '-c', 'apps/web/e2e/playwright.config.ts', ...extra], {
  env: { ...process.env, CHROMIUM_PATH: chromium },
});
