import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';

export interface TestAccount {
  email: string;
  password: string;
  username: string;
  firstName: string;
  token: string;
  userId: string;
}

let counter = 0;

/**
 * Registers a new teacher through the API (the contract in ../shared/spec/api-shapes.md) and
 * logs in, returning the session token. Use it to skip the forms when a test is about
 * something else; the accounts E2E test goes through the real screens.
 */
export async function createAccount(
  request: APIRequestContext,
  overrides: Partial<Pick<TestAccount, 'firstName' | 'password'>> = {},
): Promise<TestAccount> {
  counter += 1;
  const tag = `${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const account = {
    email: `e2e_${tag}@example.org`,
    password: overrides.password ?? 'correct horse battery staple',
    username: `e2e_${tag}`.slice(0, 30),
    firstName: overrides.firstName ?? 'Ada',
  };
  const register = await request.post('/api/v1/users/register', {
    data: {
      ...account,
      lastName: 'Lovelace',
      passwordConfirmation: account.password,
    },
  });
  if (!register.ok())
    throw new Error(`register failed: ${register.status()} ${await register.text()}`);
  const login = await request.post('/api/v1/users/login', {
    data: { email: account.email, password: account.password },
  });
  if (!login.ok()) throw new Error(`login failed: ${login.status()} ${await login.text()}`);
  const { token, user } = (await login.json()) as { token: string; user: { _id: string } };
  return { ...account, token, userId: user._id };
}

/** Starts the page signed in as the account (token in local storage, as the app keeps it). */
export async function signIn(page: Page, account: Pick<TestAccount, 'token'>): Promise<void> {
  await page.addInitScript((token) => {
    if (!window.localStorage.getItem('token')) window.localStorage.setItem('token', token);
  }, account.token);
}

/**
 * Makes the account an admin with the real operator command, `npm run users:admin`, run
 * against the E2E server's DATA_DIR: the server holds the embedded database, so the command
 * goes through it (see apps/server/src/modules/users/admin-cli.ts).
 */
export function grantAdmin(email: string): string {
  const dataDir = process.env.E2E_DATA_DIR;
  const jwtSecret = process.env.E2E_JWT_SECRET;
  if (!dataDir || !jwtSecret)
    throw new Error('E2E_DATA_DIR and E2E_JWT_SECRET come from playwright.config.ts');
  return execFileSync('npm', ['run', '--silent', 'users:admin', '--', email], {
    cwd: path.resolve(import.meta.dirname, '../../..'),
    env: { ...process.env, DATA_DIR: dataDir, JWT_SECRET: jwtSecret, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    timeout: 60_000,
  });
}
