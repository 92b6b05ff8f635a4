// Texts on demand (decision 014): fetch + clean + split of a 1 MB text from a local mirror,
// `books:texts --top 1000` from a local mirror folder, and the cold start with those texts.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
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

  // 2. `books:texts --top 1000` from a mirror folder. The folder holds a text (one of the 71
  // real ones, in turn) for every English ebook of the sample catalogue with the lowest
  // numbers and the most downloaded ones: what --top 1000 picks.
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
  const csv = gunzipSync(
    readFileSync(
      path.join(kit.root, 'apps/server/seed-data/books/catalog/gutenberg_metadata.csv.gz'),
    ),
  ).toString('utf8');
  const ids = [];
  for (const line of csv.split('\n')) {
    const m = /^(\d+),/.exec(line);
    if (m && line.includes(',"en",')) ids.push(Number(m[1]));
    if (ids.length >= 1500) break;
  }
  const mirror = kit.tmpDir('cw-mirror-');
  const all = new Set([...ids, ...readdirSync(dirs[0]).map((f) => Number(f.replace(/\D/g, '')))]);
  let n = 0;
  for (const id of all) {
    const dir = path.join(mirror, 'cache/epub', String(id));
    mkdirSync(dir, { recursive: true });
    symlinkSync(files[n++ % files.length], path.join(dir, `pg${id}.txt`));
  }
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    [
      path.join(kit.root, 'node_modules/tsx/dist/cli.mjs'),
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
    },
  );
  const seconds = (performance.now() - started) / 1000;
  const summary = /Done in [^\n]*/.exec(run.stdout)?.[0] ?? run.stdout.slice(-400);
  kit.figure(`books:texts --top 1000 from a mirror folder (${summary})`, seconds, 's', '< 300 s');

  // 3. Cold start with those texts stored.
  const first = await kit.startServer({ dataDir });
  await first.stop();
  const cold = await kit.startServer({ dataDir });
  kit.figure('cold start with 1,000+ texts stored', cold.readyMs / 1000, 's', '< 5 s');
  await cold.stop();
}
