/**
 * `npm run books:search-eval [-- --set dev|held-out]`: how often a teacher's search finds the
 * book first, on the database of DATA_DIR (PGlite) or DATABASE_URL, with the catalogue loaded.
 */
import path from 'node:path';
import { loadConfig } from '../../../config.js';
import { openDatabase } from '../../../db/client.js';
import { BooksService } from '../books.service.js';
import { SEARCH_CASES } from './cases.js';
import { evaluateSearch, summarise } from './eval.js';

const setArg = process.argv.indexOf('--set');
const set = setArg > 0 ? process.argv[setArg + 1] : undefined;
const config = loadConfig();
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  pgliteDir: config.databaseUrl ? undefined : path.join(config.dataDir, 'pglite'),
});
try {
  const books = new BooksService(database.db, config.dataDir);
  const started = performance.now();
  const results = await evaluateSearch(
    books,
    SEARCH_CASES.filter((c) => !set || c.set === set),
  );
  console.log(summarise(results));
  console.log(`${results.length} searches in ${Math.round(performance.now() - started)} ms`);
} finally {
  await database.close();
}
