import path from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { buildApp } from '../../app.js';
import { ConfigError, loadConfig } from '../../config.js';
import { openDatabase } from '../../db/client.js';
import { runSeeders } from '../../db/seed.js';
import {
  DEFAULT_PREGENERATE,
  PLATFORM_MATERIALS_SEED,
  pregenerateChapterMaterials,
  writePlatformSeed,
} from './pregenerate.js';

const HELP = `Makes the platform's ready-made materials for featured chapters: the first
chapters of the most downloaded books with a full text, one material of each type.
Chapter pages list them (GET /materials/getavailablechaptermaterials).

  npm run materials:pregenerate -- [--books 8] [--chapters 3] [--types Quiz,Test,Lesson,Worksheet]
                                   [--write-seed [FILE]]

  --books       how many books (default ${DEFAULT_PREGENERATE.books})
  --chapters    how many chapters of each book (default ${DEFAULT_PREGENERATE.chapters})
  --types       material types (default ${DEFAULT_PREGENERATE.types.join(',')})
  --write-seed  also write them as the repository's first-start seed file
                (default ${path.relative(process.cwd(), PLATFORM_MATERIALS_SEED)})

Uses DATA_DIR / DATABASE_URL and the generator (LLM_PROVIDER…) like the server. Earlier
ready-made materials of the same chapters and types are replaced. With the embedded database
(no DATABASE_URL), stop the server first: only one process may open DATA_DIR/pglite.`;

class UsageError extends Error {}

async function main() {
  const { values } = parseArgs({
    options: {
      books: { type: 'string' },
      chapters: { type: 'string' },
      types: { type: 'string' },
      'write-seed': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    allowNegative: false,
    strict: true,
    // `--write-seed` alone means the default file.
    args: process.argv
      .slice(2)
      .map((a, i, all) =>
        a === '--write-seed' && (all[i + 1] === undefined || all[i + 1]!.startsWith('--'))
          ? `--write-seed=${PLATFORM_MATERIALS_SEED}`
          : a,
      ),
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const count = (value: string | undefined, fallback: number, name: string) => {
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > 1000) {
      throw new UsageError(`--${name} must be a whole number from 1 to 1000 (got "${value}").`);
    }
    return n;
  };
  const options = {
    books: count(values.books, DEFAULT_PREGENERATE.books, 'books'),
    chapters: count(values.chapters, DEFAULT_PREGENERATE.chapters, 'chapters'),
    types: values.types
      ? values.types
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean)
      : DEFAULT_PREGENERATE.types,
  };

  const config = { ...loadConfig(), jobsEnabled: false };
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'pglite'),
  });
  await database.migrate();
  const app = await buildApp({ config, database, web: 'off', logger: { level: 'warn' } });
  try {
    await app.ready();
    if (config.seedOnStart) {
      await runSeeders(database, app.log, { storage: app.storage, publicUrl: config.publicUrl });
    }
    const bar = new cliProgress.SingleBar(
      { format: ' |{bar}| {value}/{total} {label}', hideCursor: true },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    const report = await pregenerateChapterMaterials(
      app.books,
      app.materials,
      options,
      (done, total, label) => {
        if (!started) {
          bar.start(total, 0, { label });
          started = true;
        }
        bar.update(done, { label: label.slice(0, 60) });
      },
    );
    bar.stop();
    console.log(
      `Made ${report.made} materials for ${report.chapters} chapters` +
        (report.failed.length ? `; ${report.failed.length} could not be made:` : '.'),
    );
    for (const f of report.failed) {
      console.log(`  ${f.bookUrl}/${f.chapterUrl} (${f.type}): ${f.error}`);
    }
    if (values['write-seed']) {
      writePlatformSeed(values['write-seed'], report.materials);
      console.log(`Wrote ${report.materials.length} materials to ${values['write-seed']}.`);
    }
  } finally {
    await app.close();
  }
}

main().catch((error: unknown) => {
  console.error(
    error instanceof ConfigError || error instanceof UsageError ? error.message : error,
  );
  process.exit(1);
});
