import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../db/client.js';
import { BOOKS_SEED_DIR } from '../books.seed.js';
import { queryRows } from '../books.repository.js';
import { importCatalogue } from '../import/importer.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../../../../../..');
const CLI = path.join(import.meta.dirname, 'texts-cli.ts');
const work = mkdtempSync(path.join(tmpdir(), 'cw-texts-cli-'));
const dataDir = path.join(work, 'data');
const mirror = path.join(work, 'mirror');
// The shared package from source, as the tests use it (its dist/ may not be built yet).
const tsconfig = path.join(work, 'tsconfig.json');

/** Editions without a text in the sample data: the mirror folder has two of the three. */
const FRANKENSTEIN_1831 = 42324;
const FRANKENSTEIN_1818 = 41445;
const MISSING = 20038;

beforeAll(async () => {
  writeFileSync(
    tsconfig,
    JSON.stringify({
      compilerOptions: {
        paths: { '@chapterwise/shared': [path.join(ROOT, 'packages/shared/src/index.ts')] },
      },
    }),
  );
  const text = gunzipSync(readFileSync(path.join(BOOKS_SEED_DIR, 'texts', 'pg84.txt.gz')));
  for (const id of [FRANKENSTEIN_1831, FRANKENSTEIN_1818]) {
    mkdirSync(path.join(mirror, 'cache/epub', String(id)), { recursive: true });
    writeFileSync(path.join(mirror, 'cache/epub', String(id), `pg${id}.txt`), text);
  }
  // A catalogue of the three editions (the sample catalogue's rows, and Mary Shelley).
  const catalog = path.join(work, 'source', 'catalog');
  mkdirSync(catalog, { recursive: true });
  const ids = [FRANKENSTEIN_1831, FRANKENSTEIN_1818, MISSING];
  const rowsOf = (file: string, firstFields: number[]) => {
    const lines = gunzipSync(readFileSync(path.join(BOOKS_SEED_DIR, 'catalog', `${file}.gz`)))
      .toString('utf8')
      .split('\n');
    const kept = lines.filter(
      (l, i) => i === 0 || firstFields.some((id) => l.startsWith(`${id},`)),
    );
    writeFileSync(path.join(catalog, file), `${kept.join('\n')}\n`);
  };
  rowsOf('gutenberg_metadata.csv', ids);
  rowsOf('gutenberg_languages.csv', ids);
  rowsOf('gutenberg_subjects.csv', ids);
  rowsOf('gutenberg_authors.csv', [61]);
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
  await database.migrate();
  const report = await importCatalogue(database.db, {
    source: path.join(work, 'source'),
    languages: ['en'],
  });
  expect(report.status).toBe('imported');
  await database.close();
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs `npm run books:texts`'s program as an operator would, on its own embedded database. */
async function booksTexts(...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'error' };
  delete env.DATABASE_URL;
  delete env.GUTENBERG_MIRROR;
  try {
    const { stdout, stderr } = await run(
      path.join(ROOT, 'node_modules/.bin/tsx'),
      ['--tsconfig', tsconfig, CLI, ...args],
      { cwd: ROOT, env, timeout: 90_000 },
    );
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

async function chapterCounts(): Promise<Record<number, number>> {
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
  try {
    const rows = await queryRows<{ id: number; n: number }>(
      database.db,
      sql`SELECT b.id, count(c.book_id)::int AS n FROM books b
        LEFT JOIN book_chapters c ON c.book_id = b.id GROUP BY b.id`,
    );
    return Object.fromEntries(rows.map((r) => [Number(r.id), Number(r.n)]));
  } finally {
    await database.close();
  }
}

describe('npm run books:texts (a mirror folder, the embedded database, no server running)', () => {
  it('fetches and splits the chosen books, lists failures by reason, and resumes', async () => {
    const usage = await booksTexts('--mirror', mirror);
    expect(usage.code).toBe(2);
    expect(usage.out).toContain('--top N');

    const first = await booksTexts('--mirror', mirror, '--ids', `${FRANKENSTEIN_1831},${MISSING}`);
    expect(first.code, first.out).toBe(1);
    expect(first.out).toContain(`Fetching 2 texts from folder ${mirror}`);
    expect(first.out).toMatch(/Done in [\d.]+ s: 1 texts prepared \(28 chapters\), 1 failed\./);
    expect(first.out).toMatch(
      new RegExp(
        `1  not_found: Project Gutenberg has no plain text of this book\\. \\(e\\.g\\. ${MISSING}\\)`,
      ),
    );
    expect(await chapterCounts()).toEqual({
      [FRANKENSTEIN_1831]: 28,
      [FRANKENSTEIN_1818]: 0,
      [MISSING]: 0,
    });

    // Every book of the catalogue: the ones with chapters are skipped, the rest fetched.
    const all = await booksTexts('--mirror', mirror, '--all');
    expect(all.out).toContain('3 books chosen, 1 have chapters already (skipped).');
    expect(all.out).toMatch(/1 texts prepared \(28 chapters\), 1 failed\./);
    expect(await chapterCounts()).toMatchObject({ [FRANKENSTEIN_1818]: 28, [MISSING]: 0 });
  }, 240_000);
});
