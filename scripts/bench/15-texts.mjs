// Texts on demand (decision 014): fetch + clean + split of a 1 MB text from a local mirror,
// `books:texts --top 1000` from a local mirror folder, and the cold start with those texts.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';

export default async function texts(kit) {
  const dist = path.join(kit.root, 'apps/server/dist');
  const load = (file) => import(pathToFileURL(path.join(dist, file)).href);
  const { HttpTextSource } = await load('providers/texts/index.js');
  const { prepareText } = await load('modules/books/text/prepare.js');

  // Every real text the repository holds: the 34 samples and the 37 evaluation texts.
  const dirs = [
    path.join(kit.root, 'apps/server/seed-data/books/texts'),
    path.join(kit.root, 'apps/server/test-data/chapter-eval'),
  ];
  const pool = kit.tmpDir('cw-texts-pool-');
  const files = [];
  for (const dir of dirs) {
    for (const f of readdirSync(dir).filter((f) => f.endsWith('.txt.gz'))) {
      const file = path.join(pool, f.replace(/\.gz$/, ''));
      writeFileSync(file, gunzipSync(readFileSync(path.join(dir, f))));
      files.push(file);
    }
  }

  // 1. One 1 MB text (Great Expectations, 1.0 MB) through a local HTTP mirror: download,
  // checks, header stripping, splitting and measuring. Median of 5.
  const big = readFileSync(path.join(pool, 'pg1400.txt'));
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(big);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const source = new HttpTextSource({
    baseUrl: `http://127.0.0.1:${server.address().port}`,
    userAgent: 'Chapterwise-bench',
    ratePerSecond: 1000,
    concurrency: 2,
    timeoutMs: 30_000,
    maxBytes: 15 * 1024 * 1024,
  });
  const times = [];
  let parts = 0;
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const fetched = await source.fetchText(1400);
    parts = prepareText(fetched.text, 'Great Expectations').chapters.length;
    times.push(performance.now() - started);
  }
  server.close();
  times.sort((a, b) => a - b);
  kit.figure(
    `fetch + clean + split + measure a ${(big.length / 1e6).toFixed(1)} MB text (${parts} chapters), median of 5`,
    times[2] / 1000,
    's',
    '< 1 s',
  );

  // 2. `books:texts --top 1000` from a mirror folder. The folder is generated for exactly the
  // books --top 1000 picks (the catalogue's 1,000 most downloaded English books): each gets
  // its own file, a real PG text (the 71 of the repository, in turn, 0.03-1.3 MB) under a PG
  // header naming that book, so every one of the 1,000 is read, cleaned, split, measured and
  // stored, and none fails for want of a file.
  const dataDir = kit.tmpDir();
  const imported = spawnSync(
    process.execPath,
    ['apps/server/dist/modules/books/import/cli.js', '--languages', 'en'],
    {
      cwd: kit.root,
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'error' },
      encoding: 'utf8',
    },
  );
  if (imported.status !== 0)
    throw new Error(`import failed: ${imported.stderr || imported.stdout}`);
  const { openDatabase } = await load('db/client.js');
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
  const top = (
    await database.pglite.query(
      'SELECT id, title, chapter_count FROM books ORDER BY download_count DESC, id LIMIT 1000',
    )
  ).rows;
  await database.close();
  const mirror = kit.tmpDir('cw-mirror-');
  const realTexts = files.map((f) => readFileSync(f, 'utf8'));
  let mirrorBytes = 0;
  top.forEach((book, n) => {
    const real = realTexts[n % realTexts.length];
    const start = real.search(/\*\*\* ?START OF/);
    const header =
      `The Project Gutenberg eBook of ${book.title}\n\nTitle: ${book.title}\n\n` +
      `Release date: [eBook #${book.id}]\n\nLanguage: English\n\n`;
    const text = start > 0 ? header + real.slice(start) : header + real;
    const dir = path.join(mirror, 'cache/epub', String(book.id));
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `pg${book.id}.txt`), text);
    mirrorBytes += Buffer.byteLength(text);
  });
  const withText = top.filter((b) => Number(b.chapter_count) > 0).length;

  // 3a. Cold start before the bulk run (the sample texts only), to compare with 3b. The
  // first start after an import loads other sample data: not counted.
  const first = await kit.startServer({ dataDir });
  await first.stop();
  const before = await kit.startServer({ dataDir });
  await before.stop();

  // 2. The bulk run itself, in one process (its worker threads included in its CPU time).
  const loadBefore = kit.loadAverage();
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'apps/server/src/modules/books/texts/texts-cli.ts',
      '--mirror',
      mirror,
      '--top',
      '1000',
    ],
    {
      cwd: kit.root,
      env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'error' },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const seconds = (performance.now() - started) / 1000;
  const done =
    /Done in [\d.]+ s: (\d+) texts prepared \((\d+) chapters\), (\d+) failed\. CPU ([\d.]+) s/.exec(
      run.stdout,
    );
  if (!done) throw new Error(`books:texts failed: ${run.stderr || run.stdout.slice(-800)}`);
  const [prepared, chapters, failed, cpu] = done.slice(1).map(Number);
  const loadAfter = kit.loadAverage();
  kit.figure(
    `books:texts --top 1000 from a mirror folder (${top.length} books, ${withText} with a text ` +
      `already; ${prepared} prepared, ${chapters} chapters, ${failed} failed; ` +
      `${(mirrorBytes / 1e6).toFixed(0)} MB in the folder), wall time`,
    seconds,
    's',
    '< 300 s',
  );
  kit.figure('books:texts CPU time (user + sys, every thread)', cpu, 's');
  kit.figure('books:texts load average before / after', `${loadBefore} / ${loadAfter}`, '');
  kit.figure('books:texts throughput', (prepared / seconds).toFixed(1), 'texts/s');
  if (failed > 0) console.log(run.stdout.slice(run.stdout.indexOf('Failures')));

  // 3b. Cold start with those texts stored (after one start, as 3a).
  const again = await kit.startServer({ dataDir });
  await again.stop();
  const cold = await kit.startServer({ dataDir });
  await cold.stop();
  kit.figure(
    `cold start with ${withText} texts stored (before the bulk run), wall / CPU`,
    `${(before.readyMs / 1000).toFixed(2)} / ${before.readyCpuS.toFixed(2)}`,
    's',
  );
  kit.figure(
    `cold start with ${prepared + withText} texts stored, wall / CPU`,
    `${(cold.readyMs / 1000).toFixed(2)} / ${cold.readyCpuS.toFixed(2)}`,
    's',
    '< 5 s',
  );
  kit.figure('cold start load average', kit.loadAverage(), '');
}
