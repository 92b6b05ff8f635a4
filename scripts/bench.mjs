#!/usr/bin/env node
// `npm run bench`: runs every scripts/bench/*.mjs in name order and prints its figures.
// Each bench module default-exports `async (kit) => void`; kit (scripts/bench/kit.mjs) starts
// servers, runs wrk against us and against nginx serving the same bytes, and prints results.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { run } from './lib.mjs';
import * as kit from './bench/kit.mjs';

const root = path.resolve(import.meta.dirname, '..');
if (
  !existsSync(path.join(root, 'apps/server/dist/server.js')) ||
  process.argv.includes('--build')
) {
  run('npm', ['run', 'build', '--silent'], { cwd: root });
}

const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const dir = path.join(import.meta.dirname, 'bench');
const files = readdirSync(dir)
  .filter((f) => /^\d.*\.mjs$/.test(f))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

for (const file of files) {
  kit.heading(file.replace(/^\d+-|\.mjs$/g, ''));
  try {
    const mod = await import(pathToFileURL(path.join(dir, file)).href);
    await mod.default(kit);
  } catch (error) {
    console.error(`  ✖ ${file} failed:`, error);
    process.exitCode = 1;
  } finally {
    await kit.stopAll();
  }
}
