import path from 'node:path';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase } from './db/client.js';
import { runSeeders } from './db/seed.js';
import { removeServerFile, writeServerFile } from './lib/server-file.js';

/**
 * Starts the one process: config, database (migrated), sample data, then HTTP.
 * SIGTERM/SIGINT stop taking requests, finish in-flight ones, stop jobs, close the database.
 */
async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const dev = process.argv.includes('--dev');
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'pglite'),
  });
  await database.migrate();

  const app = await buildApp({ config, database, web: dev ? 'development' : 'production' });
  if (config.seedOnStart) {
    await runSeeders(database, app.log, { storage: app.storage, publicUrl: config.publicUrl });
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 20_000);
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
