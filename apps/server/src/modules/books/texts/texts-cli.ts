import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import cliProgress from 'cli-progress';
import type { FastifyBaseLogger } from 'fastify';
import { ConfigError, isDefaultMirror, loadConfig, parseMirror } from '../../../config.js';
import { openDatabase } from '../../../db/client.js';
import { JobQueue } from '../../../jobs/queue.js';
import { createTextSource } from '../../../providers/texts/index.js';
import { queryRows } from '../books.repository.js';
import { PreparePool } from '../text/prepare-pool.js';
import { BookTextsService } from './book-texts.service.js';

const HELP = `Fetches, cleans and splits the texts of many books (decision 014).

  npm run books:texts -- --mirror URL|DIR [--ids 84,1342 | --top N | --all] [--force]
                         [--concurrency N] [--threads N]

  --mirror       a base URL (https://www.gutenberg.org, a private mirror) or a folder laid out
                 like PG's cache: DIR/cache/epub/{id}/pg{id}.txt (or .txt.gz). Default:
                 GUTENBERG_MIRROR.
  --ids          these ebook numbers
  --top N        the N most downloaded books of the catalogue
  --all          every book of the catalogue
  --force        fetch again books that already have chapters
  --concurrency  books in hand at once: fetched, being prepared or waiting to be stored
                 (default 8; an HTTP mirror's rate limit still applies, a folder has none)
  --threads      threads that clean, split and measure texts (default: one per core); the
                 main thread stores the finished books, several per transaction

Resumable: books that already have chapters are skipped, so a stopped run continues where it
stopped. Uses DATA_DIR / DATABASE_URL like the server (with the embedded database, stop the
server first). Failures are listed at the end, by reason.`;

async function main() {
  const { values } = parseArgs({
    options: {
      mirror: { type: 'string' },
      ids: { type: 'string' },
      top: { type: 'string' },
      all: { type: 'boolean', default: false },
      force: { type: 'boolean', default: false },
      concurrency: { type: 'string', default: '8' },
      threads: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  const chosen = [values.ids, values.top, values.all || undefined].filter(Boolean).length;
  if (values.help || chosen !== 1) {
    console.log(HELP);
    if (!values.help) process.exitCode = 2;
    return;
  }
  const config = loadConfig();
  if (values.mirror) {
    const mirror = parseMirror(values.mirror);
    if (typeof mirror === 'string') throw new ConfigError([`--mirror: ${mirror}`]);
    const polite = mirror.kind === 'http' && isDefaultMirror(mirror.baseUrl);
    config.texts = { ...config.texts, mirror, ratePerSecond: polite ? 1 : 20 };
  }
  const concurrency = Math.max(1, Math.min(64, Number(values.concurrency) || 8));
  const pool = new PreparePool(
    values.threads ? { threads: Math.max(1, Math.min(64, Number(values.threads) || 1)) } : {},
  );
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'pglite'),
  });
  await database.migrate();
  const db = database.db;
  const log = silentLogger();
  const source = createTextSource(config, database);
  const texts = new BookTextsService({
    db,
    source,
    jobs: new JobQueue(database, log),
    log,
    preparer: pool,
  });

  let ids: number[];
  const withText = values.force ? sql`true` : sql`chapter_count = 0`;
  if (values.ids) {
    const wanted = values.ids
      .split(',')
      .map((id) => Number(id.trim()))
      .filter((id) => Number.isSafeInteger(id) && id > 0);
    const rows = await queryRows<{ id: number }>(
      db,
      sql`SELECT id FROM books WHERE id IN (${sql.join(
        wanted.map((id) => sql`${id}`),
        sql`, `,
      )}) AND ${withText}`,
    );
    const known = new Set(rows.map((r) => Number(r.id)));
    ids = wanted.filter((id) => known.has(id));
  } else {
    const limit = values.top ? sql`LIMIT ${Math.max(1, Number(values.top) || 0)}` : sql``;
    // --top N is the N most downloaded books; those already done count towards N.
    const rows = await queryRows<{ id: number; chapter_count: number }>(
      db,
      sql`SELECT id, chapter_count FROM books ORDER BY download_count DESC, id ${limit}`,
    );
    ids = rows
      .filter((r) => values.force || Number(r.chapter_count) === 0)
      .map((r) => Number(r.id));
    console.log(
      `${rows.length} books chosen, ${rows.length - ids.length} have chapters already (skipped).`,
    );
  }
  console.log(
    `Fetching ${ids.length} texts from ${source.description} (${concurrency} at once, ` +
      `${pool.size} preparing threads)…`,
  );

  const bar = new cliProgress.SingleBar(
    {
      format:
        ' texts |{bar}| {value}/{total} {percentage}% | {ok} ok, {failed} failed | ETA {eta_formatted}',
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  const failures = new Map<string, { message: string; ids: number[] }>();
  let ok = 0;
  let chapters = 0;
  bar.start(ids.length, 0, { ok: 0, failed: 0 });
  let failed = 0;
  await texts.fetchMany(ids, {
    concurrency,
    onResult: (id, result) => {
      if (result.status === 'ready') {
        ok++;
        chapters += result.chapterCount;
      } else {
        failed++;
        const entry = failures.get(result.code) ?? { message: result.message, ids: [] };
        entry.ids.push(id);
        failures.set(result.code, entry);
      }
      bar.increment(1, { ok, failed });
    },
  });
  bar.stop();
  await pool.close();
  await database.close();

  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuAtStart);
  console.log(
    `\nDone in ${seconds.toFixed(1)} s: ${ok} texts prepared (${chapters} chapters), ` +
      `${ids.length - ok} failed. CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s ` +
      `(user + sys, every thread); load average ${loadavg()
        .map((n) => n.toFixed(2))
        .join(', ')}.`,
  );
  if (failures.size) {
    console.log('Failures (run again to retry them):');
    for (const [code, f] of [...failures].sort((a, b) => b[1].ids.length - a[1].ids.length)) {
      console.log(
        `  ${String(f.ids.length).padStart(6)}  ${code}: ${f.message} (e.g. ${f.ids.slice(0, 8).join(', ')})`,
      );
    }
    process.exitCode = 1;
  }
}

/** The service logs through Fastify's logger; the CLI shows a progress bar instead. */
function silentLogger(): FastifyBaseLogger {
  const noop = () => undefined;
  const logger = {
    level: 'silent',
    fatal: noop,
    error: noop,
    warn: noop,
    info: noop,
    debug: noop,
    trace: noop,
    silent: noop,
    child: () => logger,
  };
  return logger as unknown as FastifyBaseLogger;
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
