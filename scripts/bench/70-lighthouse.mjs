// Issue 18: Lighthouse mobile performance of the public pages (home, directory, book, chapter,
// blog), offline, with Debian's Chromium. Lighthouse is not a dependency of the project (146
// packages): install it for a run with `npm i --no-save -E lighthouse@12.2.3` (12.2.3: newer
// ones need Node 22). Scores depend on the machine's spare CPU: Lighthouse's mobile profile
// multiplies measured main-thread time by 4, so a busy machine lowers them.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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
  for (const page of PAGES) {
    // Warm the render cache: the first visit of a page is rendered, later ones are not.
    await (await fetch(server.url + page)).arrayBuffer();
    const file = path.join(out, `${PAGES.indexOf(page)}.json`);
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
      console.log(`  ${page}: lighthouse failed: ${(run.stderr || run.error || '').slice(0, 300)}`);
      continue;
    }
    const report = JSON.parse(readFileSync(file, 'utf8'));
    const a = report.audits;
    kit.figure(
      `${page}: mobile performance`,
      String(Math.round(report.categories.performance.score * 100)),
      `(FCP ${a['first-contentful-paint'].displayValue}, LCP ${a['largest-contentful-paint'].displayValue}, TBT ${a['total-blocking-time'].displayValue}, CLS ${a['cumulative-layout-shift'].displayValue})`,
      '>= 98',
    );
  }
  await server.stop();
}
