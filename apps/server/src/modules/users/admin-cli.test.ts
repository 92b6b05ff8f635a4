import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_JWT_SECRET } from '../../test/helpers.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../../../../..');
const CLI = path.join(import.meta.dirname, 'admin-cli.ts');
const dataDir = mkdtempSync(path.join(tmpdir(), 'cw-admin-cli-'));
// The shared package from source, as the tests use it (its dist/ may not be built yet).
const tsconfig = path.join(dataDir, 'tsconfig.json');
writeFileSync(
  tsconfig,
  JSON.stringify({
    compilerOptions: {
      paths: { '@chapterwise/shared': [path.join(ROOT, 'packages/shared/src/index.ts')] },
    },
  }),
);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Runs `npm run users:admin`'s program as an operator would, on its own embedded database. */
async function usersAdmin(...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, JWT_SECRET: TEST_JWT_SECRET };
  delete env.DATABASE_URL;
  try {
    const { stdout, stderr } = await run(
      path.join(ROOT, 'node_modules/.bin/tsx'),
      ['--tsconfig', tsconfig, CLI, ...args],
      {
        cwd: ROOT,
        env,
        timeout: 90_000,
      },
    );
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('npm run users:admin (directly on the embedded database, no server running)', () => {
  it('opens and migrates the database, lists admins and refuses unknown accounts', async () => {
    const list = await usersAdmin('--list');
    expect(list).toEqual({ code: 0, out: 'There are no admins.\n' });
    const unknown = await usersAdmin('nobody@example.org');
    expect(unknown.code).toBe(1);
    expect(unknown.out).toBe('No account uses the email address nobody@example.org.\n');
    const bad = await usersAdmin('not-an-email');
    expect(bad).toEqual({ code: 1, out: '"not-an-email" is not an email address.\n' });
    const help = await usersAdmin('--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('npm run users:admin -- <email> --revoke');
  }, 120_000);
});
