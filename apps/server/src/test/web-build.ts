import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

const REPO_ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../..');
const LOCK = path.join(REPO_ROOT, 'apps/web/.build-lock');
const BUILT = path.join(REPO_ROOT, 'apps/web/build/server/index.js');
/** What the web build is made from: a change to any of these makes the build stale. */
const SOURCES = [
  'apps/web/app',
  'apps/web/public',
  'apps/web/vite.config.ts',
  'apps/web/react-router.config.ts',
  'packages/shared/src',
];

function newestChange(entry: string): number {
  const stat = statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(entry)) {
    newest = Math.max(newest, newestChange(path.join(entry, name)));
  }
  return newest;
}

/** Why the web build must be (re)made, or null when it is current. */
export function webBuildStaleness(): string | null {
  if (!existsSync(BUILT)) return 'apps/web/build is missing';
  const built = statSync(BUILT).mtimeMs;
  const changed = SOURCES.find((source) => newestChange(path.join(REPO_ROOT, source)) > built);
  return changed ? `${changed} changed after the last web build` : null;
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Tests of server-rendered pages need a web build that matches the sources, so a reused
 * checkout never tests a stale build. Test files run in parallel: one builds under a lock
 * directory while the others wait, then find the build current.
 */
export function ensureWebBuild(): void {
  if (!webBuildStaleness()) return;
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      if (Date.now() > deadline)
        throw new Error(`Gave up waiting for ${LOCK} (remove it if stale).`);
      sleep(500);
    }
  }
  try {
    const reason = webBuildStaleness();
    if (!reason) return;
    console.log(`${reason}: building the web app for the page tests`);
    execFileSync('npm', ['run', 'build', '-w', '@chapterwise/web', '--silent'], {
      cwd: REPO_ROOT,
      stdio: 'inherit',
    });
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
