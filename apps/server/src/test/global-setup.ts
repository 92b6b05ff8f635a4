import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import PgBoss from 'pg-boss';
import type { TestProject } from 'vitest/node';
import { openDatabase, type Database } from '../db/client.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite data dump every test file starts from. */
    pgliteSnapshot: string;
    /** With TEST_DATABASE_URL: the migrated template database each test file copies. */
    pgTemplate: string;
  }
}

/** Creates pg-boss's own schema so tests that start the queue do not pay for it. */
async function installJobSchema(database: Database) {
  const boss =
    database.kind === 'postgres'
      ? new PgBoss({
          connectionString: database.connectionString!,
          max: 1,
          supervise: false,
          schedule: false,
        })
      : new PgBoss({ db: { executeSql: database.executeSql }, supervise: false, schedule: false });
  await boss.start();
  await boss.stop({ graceful: true, wait: true, timeout: 1000 });
}

/**
 * Runs once per test run: migrates one database and keeps it as the starting point of every
 * test file (a PGlite dump, or a PostgreSQL template database when TEST_DATABASE_URL is set),
 * so each file gets a fresh database in about a second instead of an initdb.
 */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), 'cw-test-'));
  const cleanups: Array<() => Promise<void>> = [
    async () => rmSync(dir, { recursive: true, force: true }),
  ];

  const memory = await openDatabase({});
  await memory.migrate();
  await installJobSchema(memory);
  const dump = await memory.pglite!.dumpDataDir('gzip');
  const snapshot = path.join(dir, 'pglite.tar.gz');
  writeFileSync(snapshot, Buffer.from(await dump.arrayBuffer()));
  await memory.close();
  project.provide('pgliteSnapshot', snapshot);

  const baseUrl = process.env.TEST_DATABASE_URL;
  if (baseUrl) {
    const template = `cw_test_${Date.now()}_${process.pid}`;
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${template}"`);
    const url = new URL(baseUrl);
    url.pathname = `/${template}`;
    const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 2 });
    await database.migrate();
    await installJobSchema(database);
    await database.close();
    await admin.end();
    project.provide('pgTemplate', template);
    cleanups.push(async () => {
      const admin = new pg.Client({ connectionString: baseUrl });
      await admin.connect();
      // Drop the template and every per-file copy made from it in this run.
      const { rows } = await admin.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE $1`,
        [`${template}%`],
      );
      for (const row of rows) {
        await admin.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
      }
      await admin.end();
    });
  } else {
    project.provide('pgTemplate', '');
  }

  return async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
}
