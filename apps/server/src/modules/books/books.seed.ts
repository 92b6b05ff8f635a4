import path from 'node:path';
import type { Seeder } from '../../db/seed.js';
import { readCatalogueVersion } from './books.repository.js';
import { importCatalogue } from './import/importer.js';

/** The sample catalogue kept in the repository (see seed-data/books/README.md). */
export const BOOKS_SEED_DIR = path.resolve(
  path.dirname(new URL(import.meta.url).pathname),
  '../../../seed-data/books',
);

/**
 * First start: imports the English public-domain catalogue, the featured texts and the
 * public-domain covers from the repository. Later starts: one query, then nothing.
 * A first start that was stopped midway resumes where it stopped.
 */
export const booksSeeder: Seeder = {
  name: 'books',
  async run(database, log) {
    if ((await readCatalogueVersion(database.db)) > 0) return;
    log.info('loading the sample book catalogue (first start only)');
    let lastStage = '';
    const report = await importCatalogue(database.db, {
      source: BOOKS_SEED_DIR,
      languages: ['en'],
      onProgress: (stage, done, total) => {
        if (stage !== lastStage || done === total) {
          lastStage = stage;
          log.info({ stage, done, total }, 'book catalogue');
        }
      },
    });
    log.info(
      {
        books: report.books,
        texts: report.texts.imported,
        chapters: report.texts.chapters,
        covers: report.covers.imported,
        ms: Math.round(report.durationMs),
      },
      'sample book catalogue loaded',
    );
  },
};
