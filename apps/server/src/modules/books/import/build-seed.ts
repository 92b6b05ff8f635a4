import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import sharp from 'sharp';
import { findSourceFile, readSourceBytes, readSourceText } from './sources.js';

/**
 * Makes the sample data kept in the repository (apps/server/seed-data/books) from the full
 * Gutenberg data folder: the same formats, gzipped, cut down to the English public-domain
 * books that have a text; the featured texts and RDF records as they are; public-domain
 * covers resized to at most 600 px wide. The seeder imports this folder on first start.
 *
 *   npm run books:seed-data -- /path/to/gutenberg [out-dir]
 */
async function main() {
  const [source, outArg] = process.argv.slice(2);
  if (!source) {
    console.error('usage: build-seed <gutenberg data folder> [out-dir]');
    process.exit(2);
  }
  const out = path.resolve(outArg ?? 'apps/server/seed-data/books');
  const catalog = path.join(source, 'catalog');
  mkdirSync(path.join(out, 'catalog'), { recursive: true });

  const keep = new Set<string>();
  const authors = new Set<string>();
  const metadata = filterCsv(path.join(catalog, 'gutenberg_metadata.csv'), (row) => {
    const ok =
      !/^Copyrighted/i.test(row.rights ?? '') &&
      (row.has_text ?? '').toUpperCase() === 'TRUE' &&
      (row.language ?? '').split('/').includes('en');
    if (ok) {
      keep.add(row.gutenberg_id!);
      if (row.gutenberg_author_id) authors.add(row.gutenberg_author_id);
    }
    return ok;
  });
  write(out, 'catalog/gutenberg_metadata.csv.gz', metadata);
  write(
    out,
    'catalog/gutenberg_authors.csv.gz',
    filterCsv(path.join(catalog, 'gutenberg_authors.csv'), (r) =>
      authors.has(r.gutenberg_author_id!),
    ),
  );
  for (const name of ['gutenberg_subjects.csv', 'gutenberg_languages.csv']) {
    write(
      out,
      `catalog/${name}.gz`,
      filterCsv(path.join(catalog, name), (r) => keep.has(r.gutenberg_id!)),
    );
  }
  const pgCatalog = findSourceFile(path.join(catalog, 'pg_catalog_first7660.csv'));
  if (pgCatalog) {
    write(
      out,
      'catalog/pg_catalog_first7660.csv.gz',
      filterCsv(pgCatalog, (r) => keep.has(r['Text#']!)),
    );
  }
  const gutendex = findSourceFile(path.join(catalog, 'gutendex_page1_2024-10.json'));
  if (gutendex) write(out, 'catalog/gutendex_page1_2024-10.json.gz', readSourceBytes(gutendex));

  for (const dir of ['rdf', 'texts']) {
    mkdirSync(path.join(out, dir), { recursive: true });
    for (const name of readdirSync(path.join(source, dir))) {
      write(
        out,
        `${dir}/${name.replace(/\.gz$/, '')}.gz`,
        readSourceBytes(path.join(source, dir, name)),
      );
    }
  }
  const covers = path.join(source, 'covers', 'public_domain');
  mkdirSync(path.join(out, 'covers', 'public_domain'), { recursive: true });
  for (const name of readdirSync(covers)) {
    const target = path.join(out, 'covers', 'public_domain', name);
    const image = sharp(path.join(covers, name));
    const meta = await image.metadata();
    if ((meta.width ?? 0) > 600) {
      await image.resize({ width: 600 }).jpeg({ quality: 82, mozjpeg: true }).toFile(target);
    } else {
      copyFileSync(path.join(covers, name), target);
    }
  }
  console.log(`kept ${keep.size} books; wrote ${out}`);
}

/** The header and the raw text of every record the predicate keeps (records may span lines). */
function filterCsv(file: string, predicate: (row: Record<string, string>) => boolean): Buffer {
  const text = readSourceText(file);
  const records = parse(text, {
    raw: true,
    skip_empty_lines: true,
    bom: true,
  }) as unknown as Array<{
    record: string[];
    raw: string;
  }>;
  const [header, ...rows] = records;
  const columns = header!.record;
  const kept = [header!.raw.replace(/\r?\n$/, '')];
  for (const { record, raw } of rows) {
    const row = Object.fromEntries(columns.map((c, i) => [c, record[i] ?? '']));
    if (predicate(row)) kept.push(raw.replace(/\r?\n$/, ''));
  }
  return Buffer.from(kept.join('\n') + '\n', 'utf8');
}

function write(out: string, name: string, bytes: Buffer) {
  writeFileSync(path.join(out, name), gzipSync(bytes, { level: 9 }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
