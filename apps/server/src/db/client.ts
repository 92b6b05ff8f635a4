import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
/** The one database type every repository takes: the same on PGlite and PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export const MIGRATIONS_FOLDER = path.resolve(
  path.dirname(new URL(import.meta.url).pathname),
  '../../src/db/migrations',
);

const MIGRATION_LOCK = 'chapterwise:migrations';

/** Runs SQL for pg-boss: parameterised statements through `query`, scripts through `exec`. */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  executeSql: ExecuteSql;
  migrate(): Promise<void>;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  /**
   * Runs `fn` unless another process holds the lock `name` (PostgreSQL advisory lock, held on
   * one connection for the run): true when it ran. PGlite has one process: it always runs.
   */
  withLock(name: string, fn: () => Promise<void>): Promise<boolean>;
  close(): Promise<void>;
  /** Only for PGlite: the underlying instance (tests dump and clone it). */
  pglite?: PGlite;
  /** Only for PostgreSQL: the connection string pg-boss opens its own pool with. */
  connectionString?: string;
}

export interface OpenDatabaseOptions {
  databaseUrl?: string | undefined;
  /** Folder for PGlite's files; `undefined` keeps an in-memory database. */
  pgliteDir?: string | undefined;
  /** A PGlite data dump (from `dumpDataDir`) to start from instead of an empty cluster. */
  loadDataDir?: Blob | File | undefined;
  poolSize?: number;
}

/** PGlite's extensions that our migrations create. */
export const PGLITE_EXTENSIONS = { pg_trgm, unaccent };

/** Opens PostgreSQL when a URL is given, else embedded PGlite. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  return openPglite(options.pgliteDir, options.loadDataDir);
}

async function openPostgres(connectionString: string, max: number): Promise<Database> {
  // Idle connections stay open for five minutes (pg's default is 10 s): a new PostgreSQL
  // backend costs a connection and cold catalogue caches, tens of ms on the next query.
  const pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: 300_000 });
  const db = drizzleNodePg({ client: pool, schema }) as unknown as Db;
  return {
    kind: 'postgres',
    db,
    connectionString,
    executeSql: async (text, values) => pool.query(text, values as unknown[]),
    // Instances starting together queue on one advisory lock: the first applies the
    // migrations, the others then find them applied (decision 023).
    migrate: async () => {
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock(hashtext($1))', [MIGRATION_LOCK]);
        try {
          await migrateNodePg(drizzleNodePg({ client }), { migrationsFolder: MIGRATIONS_FOLDER });
        } finally {
          await client.query('SELECT pg_advisory_unlock(hashtext($1))', [MIGRATION_LOCK]);
        }
      } finally {
        client.release();
      }
    },
    withLock: async (name, fn) => {
      const client = await pool.connect();
      try {
        const { rows } = await client.query<{ locked: boolean }>(
          'SELECT pg_try_advisory_lock(hashtext($1)) AS locked',
          [name],
        );
        if (!rows[0]?.locked) return false;
        try {
          await fn();
        } finally {
          await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
        }
        return true;
      } finally {
        client.release();
      }
    },
    ping: async () => {
      try {
        await pool.query('select 1');
        return true;
      } catch {
        return false;
      }
    },
    close: () => pool.end(),
  };
}

async function openPglite(dir: string | undefined, loadDataDir?: Blob | File): Promise<Database> {
  if (dir) mkdirSync(dir, { recursive: true });
  const client = await PGlite.create({
    ...(dir ? { dataDir: dir } : {}),
    ...(loadDataDir ? { loadDataDir } : {}),
    extensions: PGLITE_EXTENSIONS,
  });
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  let closed = false;
  return {
    kind: 'pglite',
    db,
    pglite: client,
    executeSql: async (text, values) => {
      if (values && values.length > 0) return client.query(text, values);
      const results = await client.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    },
    migrate: () =>
      migratePglite(drizzlePglite({ client }), { migrationsFolder: MIGRATIONS_FOLDER }),
    withLock: async (_name, fn) => {
      await fn();
      return true;
    },
    ping: async () => {
      try {
        await client.query('select 1');
        return true;
      } catch {
        return false;
      }
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
}
