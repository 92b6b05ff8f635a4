import type { FastifyBaseLogger } from 'fastify';
import { blogSeeder } from '../modules/blog/blog.seed.js';
import { booksSeeder } from '../modules/books/books.seed.js';
import { platformMaterialsSeeder } from '../modules/materials/pregenerate.js';
import type { Storage } from '../providers/storage/index.js';
import type { Database } from './client.js';

/** What a seeder may need besides the database: where uploads go, the site's address. */
export interface SeedContext {
  storage: Storage;
  publicUrl: string;
}

/** A loader of sample data: runs on every start, does nothing when its data is already there. */
export interface Seeder {
  name: string;
  run(database: Database, log: FastifyBaseLogger, context: SeedContext): Promise<void>;
}

/** The sample data loaded on first start. Feature modules add their seeders here. */
export const seeders: Seeder[] = [booksSeeder, platformMaterialsSeeder, blogSeeder];

/** Runs every seeder in order. Each is idempotent, so a restart costs one quick check each. */
export async function runSeeders(
  database: Database,
  log: FastifyBaseLogger,
  context: SeedContext,
): Promise<void> {
  for (const seeder of seeders) {
    const started = performance.now();
    await seeder.run(database, log, context);
    log.debug({ seeder: seeder.name, ms: Math.round(performance.now() - started) }, 'seed checked');
  }
}
