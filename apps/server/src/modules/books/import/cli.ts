import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { ConfigError, loadConfig } from '../../../config.js';
import { openDatabase } from '../../../db/client.js';
import { BOOKS_SEED_DIR } from '../books.seed.js';
import { importCatalogue, type ImportStage } from './importer.js';

const HELP = `Imports a Project Gutenberg catalogue, its texts and covers into the database.

  npm run books:import -- [--source DIR] [--languages en|all|en,fr] [--ids 84,1342] [--force] [--report FILE]

  --source     a folder laid out like the Gutenberg data folder: catalog/ (gutenbergr CSVs,
               pg_catalog.csv, a Gutendex page), rdf/, texts/, covers/public_domain/; files
               may be gzipped. Default: the sample data in apps/server/seed-data/books.
  --languages  language codes to keep, or "all" (default: en)
  --ids        only these ebook numbers
  --force      import again even if these very sources were imported already
  --report     write the full report (skips with reasons and examples) as JSON

Uses DATA_DIR / DATABASE_URL like the server. With the embedded database (no DATABASE_URL),
stop the server first: only one process may open DATA_DIR/pglite. A stopped import resumes
where it stopped when run again with the same sources.`;

const STAGE_LABELS: Record<ImportStage, string> = {
  read: 'reading catalogue',
  books: 'books           ',
  texts: 'texts (chapters)',
  covers: 'covers          ',
};

async function main() {
  const { values } = parseArgs({
    options: {
      source: { type: 'string' },
      languages: { type: 'string', default: 'en' },
      ids: { type: 'string' },
      force: { type: 'boolean', default: false },
      report: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const config = loadConfig();
  const languages =
    values.languages === 'all'
      ? 'all'
      : values
          .languages!.split(',')
          .map((l) => l.trim())
          .filter(Boolean);
  const onlyIds = values.ids
    ? new Set(
        values.ids
          .split(',')
          .map((id) => Number(id.trim()))
          .filter(Number.isInteger),
      )
    : undefined;

  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'pglite'),
  });
  await database.migrate();

  const bars = new cliProgress.MultiBar(
    {
      format: ' |{bar}| {value}/{total} {percentage}%',
      hideCursor: true,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  const stageBars = new Map<ImportStage, cliProgress.SingleBar>();
  const report = await importCatalogue(database.db, {
    source: values.source ?? BOOKS_SEED_DIR,
    languages,
    ...(onlyIds ? { onlyIds } : {}),
    force: values.force,
    onProgress: (stage, done, total) => {
      let bar = stageBars.get(stage);
      if (!bar) {
        bar = bars.create(
          total,
          0,
          {},
          {
            format: ` ${STAGE_LABELS[stage]} |{bar}| {value}/{total} {percentage}%`,
          },
        );
        stageBars.set(stage, bar);
      }
      bar.setTotal(total);
      bar.update(done);
    },
  }).finally(() => bars.stop());
  await database.close();

  if (report.status === 'unchanged') {
    console.log(
      '\nThese sources were imported already: nothing to do (use --force to import again).',
    );
    return;
  }
  console.log(
    `\n${report.resumed ? 'Resumed and finished' : 'Imported'} in ${(report.durationMs / 1000).toFixed(1)} s`,
  );
  console.log(`  books:    ${report.books}`);
  console.log(`  texts:    ${report.texts.imported} (${report.texts.chapters} chapters)`);
  console.log(`  covers:   ${report.covers.imported}`);
  const skips = [
    ...Object.entries(report.skipped).map(([reason, t]) => ['book', reason, t] as const),
    ...Object.entries(report.texts.skipped).map(([reason, t]) => ['text', reason, t] as const),
    ...Object.entries(report.covers.skipped).map(([reason, t]) => ['cover', reason, t] as const),
  ];
  if (skips.length) {
    console.log('  skipped:');
    for (const [kind, reason, t] of skips) {
      console.log(
        `    ${String(t.count).padStart(6)} ${kind}s: ${reason} (e.g. ${t.examples.join(', ')})`,
      );
    }
  }
  if (values.report) {
    writeFileSync(values.report, JSON.stringify(report, null, 2));
    console.log(`  report:   ${values.report}`);
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
