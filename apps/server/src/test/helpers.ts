import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type Database } from '../db/client.js';
import { users, type NewUserRow, type UserRow } from '../db/schema/index.js';
import { SESSION_TTL_SECONDS } from '../lib/tokens.js';
import { ensureWebBuild } from './web-build.js';
import type { ImageProvider } from '../providers/images/index.js';
import type { PrintProvider } from '../providers/print/index.js';

export { ensureWebBuild };

export const TEST_JWT_SECRET = 'test-secret-that-is-at-least-32-characters-long';

/**
 * A fresh, migrated database for one test file: a copy of the run's PostgreSQL template when
 * TEST_DATABASE_URL is set, else a PGlite loaded from the run's snapshot.
 */
export async function createTestDatabase(): Promise<Database> {
  const template = inject('pgTemplate');
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (template && baseUrl) {
    const name = `${template}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
          break;
        } catch (error) {
          // Two files copying the template at the same instant: wait and try again.
          if (attempt >= 20 || !String(error).includes('being accessed')) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
        }
      }
    } finally {
      await admin.end();
    }
    const url = new URL(baseUrl);
    url.pathname = `/${name}`;
    return openDatabase({ databaseUrl: url.toString(), poolSize: 5 });
  }
  const snapshot = readFileSync(inject('pgliteSnapshot'));
  return openDatabase({ loadDataDir: new Blob([snapshot]) });
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  dataDir: string;
  close(): Promise<void>;
}

/** Builds the API (no web pages) on a fresh database, with a temporary DATA_DIR. */
export async function createTestApp(
  env: Record<string, string> = {},
  options: {
    web?: 'off' | 'production';
    imageProvider?: ImageProvider;
    printProvider?: PrintProvider;
  } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cw-app-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    JWT_SECRET: TEST_JWT_SECRET,
    JOBS_ENABLED: 'false',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://localhost:3000',
    ...env,
  });
  if (options.web === 'production') ensureWebBuild();
  const database = await createTestDatabase();
  const app = await buildApp({
    config,
    database,
    web: options.web ?? 'off',
    logger: false,
    ...(options.imageProvider ? { imageProvider: options.imageProvider } : {}),
    ...(options.printProvider ? { printProvider: options.printProvider } : {}),
  });
  await app.ready();
  return {
    app,
    database,
    config,
    dataDir,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let userCounter = 0;

/**
 * Inserts a user directly (a factory, not the register endpoint) and returns a valid bearer
 * token for them. The password hash is a placeholder: use the register endpoint when a
 * test needs to log in with a password.
 */
export async function createUser(
  app: FastifyInstance,
  overrides: Partial<NewUserRow> = {},
): Promise<{ user: UserRow; token: string; auth: { authorization: string } }> {
  userCounter += 1;
  const tag = `${Date.now().toString(36)}${userCounter}${randomBytes(2).toString('hex')}`;
  const [user] = await app.db
    .insert(users)
    .values({
      username: `teacher_${tag}`,
      email: `teacher_${tag}@example.org`,
      passwordHash: 'not-a-real-hash',
      firstName: 'Test',
      lastName: 'Teacher',
      ...overrides,
    })
    .returning();
  if (!user) throw new Error('could not create user');
  const token = await app.tokens.sign(
    { sub: user.id, ver: user.tokenVersion },
    SESSION_TTL_SECONDS.short,
  );
  return { user, token, auth: { authorization: `Bearer ${token}` } };
}
