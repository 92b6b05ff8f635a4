import cluster from 'node:cluster';
import path from 'node:path';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase } from './db/client.js';
import { runSeeders } from './db/seed.js';
import { removeServerFile, writeServerFile } from './lib/server-file.js';

/** How long shutdown may take before the process exits anyway. */
const SHUTDOWN_DEADLINE_MS = 20_000;

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * `WEB_CONCURRENCY`: how many web processes share the port (Node cluster). Only with
 * PostgreSQL: the embedded database is opened by one process.
 */
function webConcurrency(config: Config): number {
  const wanted = config.webConcurrency;
  if (wanted > 1 && !config.databaseUrl) {
    console.warn(
      `WEB_CONCURRENCY=${wanted} ignored: the embedded database (PGlite) is held by one process. ` +
        'Set DATABASE_URL (PostgreSQL) to run several.',
    );
    return 1;
  }
  return wanted;
}

/**
 * The cluster's primary: applies the migrations once, then starts `count` web processes and
 * replaces one that dies; SIGTERM/SIGINT are passed on and the primary leaves after them.
 */
async function runPrimary(config: Config, count: number) {
  const database = await openDatabase({ databaseUrl: config.databaseUrl });
  await database.migrate();
  await database.close();
  let stopping = false;
  const fork = () => cluster.fork({ CW_MIGRATED: '1' });
  for (let i = 0; i < count; i++) fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    console.error(`web process ${worker.process.pid} ended (${signal ?? code}); starting another`);
    setTimeout(fork, 1000);
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    setTimeout(() => process.exit(1), SHUTDOWN_DEADLINE_MS + 2000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  console.log(`${count} web processes on port ${config.port} (WEB_CONCURRENCY)`);
}

/**
 * Starts one process: config, database (migrated under a lock), sample data, then HTTP; or,
 * with `--worker` (`npm run worker`), the background jobs only, without HTTP.
 * SIGTERM/SIGINT: /readyz answers 503, Fastify stops taking requests and finishes in-flight
 * ones, running jobs finish, the database closes; after 20 s the process exits anyway.
 */
async function main() {
  const config = readConfig();
  const dev = process.argv.includes('--dev');
  const worker = process.argv.includes('--worker');

  if (!dev && !worker && cluster.isPrimary) {
    const count = webConcurrency(config);
    if (count > 1) return runPrimary(config, count);
  }

  if (worker && !config.databaseUrl) {
    console.error(
      'npm run worker needs DATABASE_URL (PostgreSQL): the embedded database is held by the one server process, which runs the jobs itself.',
    );
    process.exit(1);
  }
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'pglite'),
  });
  if (!config.migrated) await database.migrate();

  const app = await buildApp({
    config: worker ? { ...config, jobsEnabled: true } : config,
    database,
    web: worker ? 'off' : dev ? 'development' : 'production',
    jobsSender: database.kind === 'postgres',
  });
  if (config.seedOnStart) {
    // Several processes starting together: one loads the sample data, the others go on.
    await database.withLock('chapterwise:seed', () =>
      runSeeders(database, app.log, { storage: app.storage, publicUrl: config.publicUrl }),
    );
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.lifecycle.draining = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    force.unref();
    try {
      removeServerFile(config.dataDir, process.pid);
      await app.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error while shutting down');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  if (worker) {
    await app.ready();
    app.log.info('worker ready: running background jobs, no HTTP');
    return;
  }

  await app.listen({ port: config.port, host: config.host });
  // Operator commands reach the embedded database through this server (see lib/server-file.ts).
  if (database.kind === 'pglite') {
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    writeServerFile(config.dataDir, { pid: process.pid, host: config.host, port });
  }
  app.log.info(`ready on ${config.publicUrl}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
