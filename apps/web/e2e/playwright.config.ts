import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3199);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'cw-e2e-'));
process.env.E2E_DATA_DIR = dataDir;
// Operator commands run by tests (npm run users:admin) sign with the server's secret.
const jwtSecret = 'e2e-secret-that-is-at-least-32-characters';
process.env.E2E_JWT_SECRET = jwtSecret;
const repoRoot = path.resolve(import.meta.dirname, '../../..');
/** texts.spec.ts serves book texts from a local HTTP mirror on this port (decision 014). */
const mirrorPort = Number(process.env.E2E_MIRROR_PORT ?? 3350);
process.env.E2E_MIRROR_PORT = String(mirrorPort);

/** E2E runs the built app as users get it, in Debian's Chromium (never a downloaded browser). */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: path.join(repoRoot, 'test-results/e2e'),
  fullyParallel: false,
  workers: process.env.CI ? 2 : 2,
  retries: process.env.CI ? 1 : 0,
  // Long flows scan a dozen pages with axe (~5 s each on 2 busy cores): a minute was not enough.
  timeout: 180_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: 'node apps/server/dist/server.js',
    cwd: repoRoot,
    url: `http://localhost:${port}/readyz`,
    // The first start loads the whole sample catalogue: minutes on a busy shared machine.
    timeout: 420_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://localhost:${port}`,
      DATA_DIR: dataDir,
      JWT_SECRET: jwtSecret,
      LOG_LEVEL: 'warn',
      // Every test signs up from 127.0.0.1: widen the per-IP budgets (per-email ones stay).
      RATE_LIMIT_SCALE: '100',
      // The offline test checkout (production mode asks for the choice to be explicit).
      PAYMENTS: 'local',
      // Texts on demand come from texts.spec.ts's local mirror, never from the internet.
      GUTENBERG_MIRROR: `http://127.0.0.1:${mirrorPort}`,
      GUTENBERG_RATE: '20',
      GUTENBERG_TIMEOUT: '10',
      // The offline print shop's order clock: one step (placed → in production → …) per 5 s.
      SHOP_LOCAL_STEP_SECONDS: '5',
    },
  },
});
