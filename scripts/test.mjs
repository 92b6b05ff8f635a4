#!/usr/bin/env node
// `npm test`: unit and API tests (Vitest), then E2E in Chromium (Playwright).
// Without Chromium, E2E is skipped with instructions, unless CI is set, where it is required.
import { findChromium, run } from './lib.mjs';

run('npx', ['vitest', 'run']);

const chromium = findChromium();
if (!chromium) {
  const how =
    'E2E tests need Chromium. Install it with: sudo apt-get install -y chromium (or set CHROMIUM_PATH).';
  if (process.env.CI) {
    console.error(`\n✖ ${how}`);
    process.exit(1);
  }
  console.warn(`\n⚠ Skipping E2E. ${how}`);
  process.exit(0);
}
run('node', ['scripts/test-e2e.mjs'], { env: { ...process.env, CHROMIUM_PATH: chromium } });
