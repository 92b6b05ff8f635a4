// Book catalogue: chapter splitting, full catalogue import, cold start with the catalogue,
// search latency (PGlite and PostgreSQL), and the popular list against nginx.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';

const SHARED = path.resolve(process.env.GUTENBERG_DATA ?? '/work/shared/data/gutenberg');

export default async function books(kit) {
  const dist = path.join(kit.root, 'apps/server/dist/modules/books');
  const load = (file) => import(pathToFileURL(path.join(dist, file)).href);
  const { stripGutenbergText } = await load('text/gutenberg-text.js');
  const { splitChapters } = await load('text/chapters.js');
  const seedTexts = path.join(kit.root, 'apps/server/seed-data/books/texts');

  // 1. Chapter splitting of the 34 sample texts (stripping included).
  const raw = readdirSync(seedTexts).map((f) =>
    gunzipSync(readFileSync(path.join(seedTexts, f))).toString('utf8'),
  );
  const started = performance.now();
  let chapters = 0;
  for (const text of raw) chapters += splitChapters(stripGutenbergText(text)).length;
  kit.figure(
    `strip + split ${raw.length} texts (${chapters} chapters)`,
    (performance.now() - started) / 1000,
    's',
    '< 5 s',
  );

  // 2. Import of the full catalogue metadata (every language), with the CLI, on PGlite.
  const source = existsSync(path.join(SHARED, 'catalog'))
    ? SHARED
    : path.join(kit.root, 'apps/server/seed-data/books');
  const dataDir = kit.tmpDir();
  const importMs = runImport(kit, source, { DATA_DIR: dataDir });
  kit.figure('import full catalogue metadata + 34 texts (PGlite)', importMs / 1000, 's', '< 60 s');

  // 3. Cold start with the catalogue loaded, then search latency on PGlite. The first start
  // after the import still loads the other sample data (blog posts, ready-made materials);
  // the cold start is the next one, as after any restart.
  const first = await kit.startServer({ dataDir });
  kit.figure('first start after the import (other sample data)', first.readyMs / 1000, 's');
  await first.stop();
  const server = await kit.startServer({ dataDir });
  kit.figure('cold start with the catalogue loaded', server.readyMs / 1000, 's', '< 5 s');
  const count = (await (await fetch(`${server.url}/api/v1/getgutenbergbooks?limit=1`)).json())
    .count;
  kit.figure('books in the catalogue', count, 'books');
  const { SEARCH_CASES } = await load('search/cases.js');
  const cases = SEARCH_CASES.map((c) => c.query);
  const pglite = await searchLatency(server.url, kit, cases);
  kit.figure(
    'search p50 / p95 over 200 distinct terms, uncached, after warm-up (PGlite)',
    `${pglite.p50.toFixed(1)} / ${pglite.p95.toFixed(1)}`,
    'ms',
    'p95 < 50 ms',
  );

  // 4. The home grid's call against nginx serving the same bytes.
  await kit.compareWithNginx(
    'GET /getgutenbergbooks?sort=download_count&limit=24',
    `${server.url}/api/v1/getgutenbergbooks?sort=download_count&limit=24`,
    { seconds: 8, goalRatio: '>= 30%' },
  );
  await server.stop();

  // 5. The same on PostgreSQL, when one is reachable.
  const baseUrl =
    process.env.BENCH_DATABASE_URL ??
    process.env.TEST_DATABASE_URL ??
    'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `cw_bench_books_${process.pid}`;
  if (!psql(baseUrl, `CREATE DATABASE ${name}`)) {
    console.log('  PostgreSQL not reachable: PostgreSQL figures skipped');
    return;
  }
  try {
    const url = new URL(baseUrl);
    url.pathname = `/${name}`;
    const env = { DATABASE_URL: url.toString(), DATA_DIR: kit.tmpDir() };
    const pgImportMs = runImport(kit, source, env);
    kit.figure(
      'import full catalogue metadata + 34 texts (PostgreSQL)',
      pgImportMs / 1000,
      's',
      '< 60 s',
    );
    const pgServer = await kit.startServer({
      dataDir: env.DATA_DIR,
      env: { DATABASE_URL: env.DATABASE_URL, JOBS_ENABLED: 'false' },
    });
    const pg = await searchLatency(pgServer.url, kit, cases);
    kit.figure(
      'search p50 / p95 over 200 distinct terms, uncached, after warm-up (PostgreSQL)',
      `${pg.p50.toFixed(1)} / ${pg.p95.toFixed(1)}`,
      'ms',
      'p95 < 20 ms',
    );
    await pgServer.stop();
  } finally {
    psql(baseUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

function runImport(kit, source, env) {
  const started = performance.now();
  const out = spawnSync(
    process.execPath,
    ['apps/server/dist/modules/books/import/cli.js', '--source', source, '--languages', 'all'],
    {
      cwd: kit.root,
      env: { ...process.env, LOG_LEVEL: 'error', ...env },
      encoding: 'utf8',
    },
  );
  if (out.status !== 0) throw new Error(`import failed: ${out.stderr || out.stdout}`);
  return performance.now() - started;
}

function psql(url, statement) {
  return spawnSync('psql', [url, '-qc', statement], { encoding: 'utf8' }).status === 0;
}

/**
 * 200 distinct terms (nothing is served from the answer cache): title and author words, pairs,
 * prefixes, misspellings and the teachers' searches of search/cases.ts, as teachers type them.
 */
async function searchLatency(base, kit, cases) {
  const words = [
    'pride',
    'whale',
    'alice',
    'war',
    'peace',
    'twain',
    'dickens',
    'shakespeare',
    'history',
    'poems',
    'garden',
    'island',
    'letters',
    'science',
    'france',
    'love',
    'night',
    'king',
    'children',
    'stories',
    'journey',
    'life',
    'america',
    'london',
    'sea',
    'gold',
    'house',
    'women',
    'mystery',
    'christmas',
  ];
  const terms = [
    ...words,
    ...words.map((w, i) => `${w} ${words[(i + 7) % words.length]}`),
    ...words.map((w) => w.slice(0, 4)),
    'frankenstien',
    'sherlok holmes',
    'dracular',
    'shakspeare',
    'wutherng heights',
    'jane ayre',
    'moby dik',
    'huckleberry fin',
    'treasure iland',
    'tom sawier',
    'pride and prejudice',
    'a tale of two cities',
    'the adventures of tom sawyer',
    'mary shelley',
    'jane austen',
    'charles dickens',
    'mark twain',
    'arthur conan doyle',
    'bronte',
    'louisa may alcott',
    ...cases,
  ];
  const more = ['ocean', 'birds', 'empire', 'rome', 'greek', 'music', 'poetry', 'indian'];
  for (const w of [...more, ...words]) {
    if (new Set(terms).size >= 200) break;
    terms.push(`${w} ${more[(w.length * 7) % more.length]}`);
  }
  const distinct = [...new Set(terms)].slice(0, 200);
  if (distinct.length < 200) throw new Error(`only ${distinct.length} distinct search terms`);
  // Warm-up, not counted: a server that has just started opens its database connections and
  // warms the search table in the background; teachers meet a server that has been up.
  for (const term of [
    'tale',
    'poet',
    'river',
    'moon',
    'ship',
    'war and',
    'jungle',
    'letters from',
    'farm',
    'mountain',
  ]) {
    await (
      await fetch(
        `${base}/api/v1/getgutenbergbooks?searchTerm=${encodeURIComponent(term)}&limit=24`,
      )
    ).arrayBuffer();
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const times = [];
  for (const term of distinct) {
    const started = performance.now();
    const res = await fetch(
      `${base}/api/v1/getgutenbergbooks?searchTerm=${encodeURIComponent(term)}&limit=24`,
    );
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`search ${term}: ${res.status}`);
    times.push(performance.now() - started);
  }
  return kit.percentiles(times);
}
