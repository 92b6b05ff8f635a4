// Issue 18: Lighthouse mobile performance of the public pages (home, directory, book, chapter,
// blog), offline, with Debian's Chromium. Lighthouse is not a dependency of the project (146
// packages): install it for a run with `npm i --no-save -E lighthouse@12.2.3` (12.2.3: newer
// ones need Node 22). Scores depend on the machine's spare CPU: Lighthouse's mobile profile
// multiplies measured main-thread time by 4, so a busy machine lowers them: each page is
// measured LIGHTHOUSE_RUNS times (default 3) and the median is printed with the load average.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { findChromium } from '../lib.mjs';

const PAGES = [
  '/',
  '/books',
  '/book/frankenstein-or-the-modern-prometheus',
  '/book/frankenstein-or-the-modern-prometheus/letter-1',
  '/blog',
];

export default async function lighthouse(kit) {
  let cli;
  try {
    const require = createRequire(path.join(kit.root, 'package.json'));
    cli = path.join(path.dirname(require.resolve('lighthouse/package.json')), 'cli/index.js');
  } catch {
    console.log('  lighthouse is not installed (npm i --no-save -E lighthouse@12.2.3): skipped');
    return;
  }
  const chromium = findChromium();
  if (!chromium) {
    console.log('  Chromium not found (apt-get install chromium, or CHROMIUM_PATH): skipped');
    return;
  }
  const server = await kit.startServer();
  const out = kit.tmpDir('cw-lighthouse-');
  const runs = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));
  for (const page of PAGES) {
    // Warm the render cache: the first visit of a page is rendered, later ones are not.
    await (await fetch(server.url + page)).arrayBuffer();
    const results = [];
    for (let i = 0; i < runs; i++) {
      const file = path.join(out, `${PAGES.indexOf(page)}-${i}.json`);
      const load = loadavg()[0];
      const run = spawnSync(
        process.execPath,
        [
          cli,
          server.url + page,
          '--only-categories=performance',
          '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
          '--output=json',
          `--output-path=${file}`,
          '--quiet',
        ],
        { env: { ...process.env, CHROME_PATH: chromium }, encoding: 'utf8', timeout: 180_000 },
      );
      if (run.status !== 0) {
        console.log(
          `  ${page}: lighthouse failed: ${(run.stderr || run.error || '').slice(0, 300)}`,
        );
        continue;
      }
      const report = JSON.parse(readFileSync(file, 'utf8'));
      const a = report.audits;
      results.push({
        score: Math.round(report.categories.performance.score * 100),
        load,
        detail: `FCP ${a['first-contentful-paint'].displayValue}, LCP ${a['largest-contentful-paint'].displayValue}, TBT ${a['total-blocking-time'].displayValue}, CLS ${a['cumulative-layout-shift'].displayValue}`,
      });
    }
    if (results.length === 0) continue;
    results.sort((x, y) => x.score - y.score);
    const median = results[Math.floor(results.length / 2)];
    kit.figure(
      `${page}: mobile performance (median of ${results.length})`,
      String(median.score),
      `(${median.detail}; runs ${results.map((r) => r.score).join('/')}, load ${results.map((r) => r.load.toFixed(1)).join('/')})`,
      '>= 98',
    );
  }
  await server.stop();
}
