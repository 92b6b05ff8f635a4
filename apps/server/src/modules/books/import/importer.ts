import { createHash } from 'node:crypto';
import path from 'node:path';
import sharp from 'sharp';
import { formatAuthorName } from '@chapterwise/shared';
import type { Db } from '../../../db/client.js';
import type { NewBookRow } from '../../../db/schema/index.js';
import {
  analyzeBooks,
  bookExists,
  countBooks,
  dropSecondaryBookIndexes,
  ensureSecondaryBookIndexes,
  findFinishedImport,
  findRunningImport,
  finishImport,
  listExistingUrls,
  refreshBookWords,
  replaceChapters,
  saveImportProgress,
  startImport,
  upsertBooks,
  upsertCover,
} from '../books.repository.js';
import { prepareText } from '../text/prepare.js';
import { authorSlug, normalizeForSearch, titleKeys, titleSlug } from '../text/normalize.js';
import { mapSubjects, subjectSlug } from './subject-map.js';
import {
  findSourceFile,
  fingerprintFiles,
  listById,
  readGutenbergrTables,
  readGutendexDownloads,
  readPgCatalog,
  readRdfRecord,
  readSourceBytes,
  readSourceText,
  type CatalogueEntry,
} from './sources.js';
import type { SearchKeys } from '../books.repository.js';

export type ImportStage = 'read' | 'books' | 'texts' | 'covers';

export interface ImportOptions {
  /**
   * A folder laid out like the Gutenberg data folder: `catalog/` (gutenbergr CSVs,
   * pg_catalog.csv, a Gutendex JSON page), `rdf/`, `texts/`, `covers/public_domain/`.
   */
  source: string;
  /** Language codes to keep ('all' keeps every language). */
  languages: string[] | 'all';
  /** Only these ebook numbers (tests and small demos). */
  onlyIds?: ReadonlySet<number>;
  /** Import again even when these very sources were imported already. */
  force?: boolean;
  onProgress?: (stage: ImportStage, done: number, total: number) => void;
}

export interface SkipTally {
  count: number;
  examples: number[];
}

export interface ImportReport {
  status: 'imported' | 'unchanged';
  resumed: boolean;
  books: number;
  skipped: Record<string, SkipTally>;
  texts: { imported: number; chapters: number; skipped: Record<string, SkipTally> };
  covers: { imported: number; skipped: Record<string, SkipTally> };
  durationMs: number;
}

const BATCH = 1000;

/**
 * Imports a Project Gutenberg catalogue, its texts and its covers. Idempotent: every row is
 * an upsert keyed by the ebook number, chapters are replaced per book, and a second run of
 * the same sources does nothing unless forced. Resumable: progress is saved after every
 * batch in `book_imports`, and a run of the same sources continues where one stopped.
 */
export async function importCatalogue(db: Db, options: ImportOptions): Promise<ImportReport> {
  const started = performance.now();
  const source = path.resolve(options.source);
  const files = sourceFiles(source);
  const fingerprint = createHash('sha256')
    .update(
      JSON.stringify({
        files: fingerprintFiles(files),
        languages: options.languages,
        only: options.onlyIds ? [...options.onlyIds].sort((a, b) => a - b) : null,
      }),
    )
    .digest('hex')
    .slice(0, 32);

  const empty = (): ImportReport => ({
    status: 'unchanged',
    resumed: false,
    books: 0,
    skipped: {},
    texts: { imported: 0, chapters: 0, skipped: {} },
    covers: { imported: 0, skipped: {} },
    durationMs: 0,
  });
  if (!options.force && (await findFinishedImport(db, fingerprint))) {
    return { ...empty(), durationMs: performance.now() - started };
  }

  const running = options.force ? undefined : await findRunningImport(db, fingerprint);
  const run = running ?? (await startImport(db, source, fingerprint));
  const report: ImportReport = { ...empty(), status: 'imported', resumed: Boolean(running) };
  const progress = options.onProgress ?? (() => {});
  const stages: ImportStage[] = ['books', 'texts', 'covers'];
  const resumeStage = stages.indexOf((running?.stage as ImportStage) ?? 'books');
  const resumeFrom = (stage: ImportStage) =>
    running && running.stage === stage ? running.position : 0;

  // 1. Read and filter the catalogue.
  progress('read', 0, 1);
  const catalogue = readCatalogue(source);
  progress('read', 1, 1);
  const kept: CatalogueEntry[] = [];
  for (const entry of [...catalogue.entries.values()].sort((a, b) => a.id - b.id)) {
    const reason = skipReason(entry, options);
    if (reason) tally(report.skipped, reason, entry.id);
    else kept.push(entry);
  }
  report.books = kept.length;

  // 2. Books, in batches of ids.
  if (resumeStage <= 0) {
    const urls = assignUrls(kept, catalogue.downloads, await listExistingUrls(db));
    const after = resumeFrom('books');
    const todo = kept.filter((e) => e.id > after);
    let done = kept.length - todo.length;
    progress('books', done, kept.length);
    const bulk = todo.length > 5000 && (await countBooks(db)) < todo.length / 2;
    if (bulk) await dropSecondaryBookIndexes(db);
    for (let i = 0; i < todo.length; i += BATCH) {
      const batch = todo.slice(i, i + BATCH);
      await upsertBooks(
        db,
        batch.map((e) => toBookRow(e, urls.get(e.id)!, catalogue)),
      );
      done += batch.length;
      progress('books', done, kept.length);
      await saveImportProgress(db, run.id, {
        stage: 'books',
        position: batch.at(-1)!.id,
        stats: { books: done },
      });
    }
    await ensureSecondaryBookIndexes(db);
    await refreshBookWords(db);
    await analyzeBooks(db);
  } else {
    await ensureSecondaryBookIndexes(db);
  }

  // 3. Texts: strip, split, measure.
  const texts = listById(path.join(source, 'texts'), /^pg(\d+)\.txt$/).filter(
    (t) => !options.onlyIds || options.onlyIds.has(t.id),
  );
  if (resumeStage <= 1) {
    const after = resumeFrom('texts');
    progress('texts', 0, texts.length);
    for (const [i, { id, file }] of texts.entries()) {
      if (id > after) {
        if (!(await bookExists(db, id))) {
          tally(report.texts.skipped, 'book not in the imported catalogue', id);
        } else {
          const chapters = await importText(db, id, file, catalogue.entries.get(id)?.title);
          if (chapters === 0) tally(report.texts.skipped, 'no text after removing the licence', id);
          else {
            report.texts.imported += 1;
            report.texts.chapters += chapters;
          }
        }
        await saveImportProgress(db, run.id, {
          stage: 'texts',
          position: id,
          stats: { books: report.books },
        });
      }
      progress('texts', i + 1, texts.length);
    }
  }

  // 4. Public-domain covers only (covers/public_domain/<ID>.jpg).
  const covers = listById(path.join(source, 'covers', 'public_domain'), /^(\d+)\.jpe?g$/).filter(
    (c) => !options.onlyIds || options.onlyIds.has(c.id),
  );
  const after = resumeFrom('covers');
  progress('covers', 0, covers.length);
  for (const [i, { id, file }] of covers.entries()) {
    if (id > after) {
      if (!(await bookExists(db, id))) {
        tally(report.covers.skipped, 'book not in the imported catalogue', id);
      } else {
        try {
          await upsertCover(db, await prepareCover(id, file));
          report.covers.imported += 1;
        } catch {
          tally(report.covers.skipped, 'not a readable image', id);
        }
      }
      await saveImportProgress(db, run.id, {
        stage: 'covers',
        position: id,
        stats: { books: report.books },
      });
    }
    progress('covers', i + 1, covers.length);
  }

  report.durationMs = performance.now() - started;
  await finishImport(db, run.id, {
    books: report.books,
    skipped: Object.fromEntries(Object.entries(report.skipped).map(([k, v]) => [k, v.count])),
    texts: report.texts.imported,
    chapters: report.texts.chapters,
    covers: report.covers.imported,
    durationMs: Math.round(report.durationMs),
  });
  return report;
}

/**
 * Gutendex-shaped download counts, oldest first (a newer count replaces an older one): one
 * page of Oct 2024 and the 937 most downloaded books of Jan–Feb 2026 (seed-data README).
 */
const GUTENDEX_FILES = ['gutendex_page1_2024-10.json', 'gutendex_top_2026-02.json'];

interface Catalogue {
  entries: Map<number, CatalogueEntry>;
  downloads: Map<number, number>;
  issued: Map<number, string>;
}

function sourceFiles(source: string): string[] {
  const catalog = path.join(source, 'catalog');
  const names = [
    'gutenberg_metadata.csv',
    'gutenberg_authors.csv',
    'gutenberg_subjects.csv',
    'gutenberg_languages.csv',
    'pg_catalog.csv',
    'pg_catalog_first7660.csv',
    ...GUTENDEX_FILES,
  ];
  const files = names
    .map((n) => findSourceFile(path.join(catalog, n)))
    .filter((f): f is string => Boolean(f));
  for (const dir of ['rdf', 'texts', path.join('covers', 'public_domain')]) {
    for (const { file } of listById(path.join(source, dir), /^(?:pg)?(\d+)\.\w+$/))
      files.push(file);
  }
  return files;
}

/**
 * Reads every catalogue format present. gutenbergr's tables are the main source; the official
 * pg_catalog.csv adds release dates (and any book the tables lack, or is the only source);
 * download counts come from Gutendex pages (newest first) or else from RDF records.
 */
export function readCatalogue(source: string): Catalogue {
  const catalogDir = path.join(source, 'catalog');
  const entries = readGutenbergrTables(catalogDir);
  const issued = new Map<number, string>();
  for (const name of ['pg_catalog.csv', 'pg_catalog_first7660.csv']) {
    const file = findSourceFile(path.join(catalogDir, name));
    if (!file) continue;
    for (const [id, entry] of readPgCatalog(file)) {
      if (entry.issued) issued.set(id, entry.issued);
      if (!entries.has(id)) entries.set(id, entry);
    }
  }
  const downloads = new Map<number, number>();
  for (const { file } of listById(path.join(source, 'rdf'), /^pg(\d+)\.rdf$/)) {
    const record = readRdfRecord(file);
    if (!record) continue;
    if (record.downloads !== null) downloads.set(record.id, record.downloads);
    if (record.issued && !issued.has(record.id)) issued.set(record.id, record.issued);
  }
  for (const name of GUTENDEX_FILES) {
    const gutendex = findSourceFile(path.join(catalogDir, name));
    if (gutendex)
      for (const [id, count] of readGutendexDownloads(gutendex)) downloads.set(id, count);
  }
  return { entries, downloads, issued };
}

function skipReason(entry: CatalogueEntry, options: ImportOptions): string | null {
  if (options.onlyIds && !options.onlyIds.has(entry.id)) return 'not selected (--ids)';
  if (!entry.publicDomain) return 'copyrighted in the USA';
  if (!entry.hasText) return 'no text (audio or other media)';
  if (!entry.title) return 'no title';
  if (options.languages !== 'all') {
    const wanted = options.languages;
    if (!entry.languages.some((l) => wanted.includes(l))) return 'language not selected';
  }
  return null;
}

function tally(tallies: Record<string, SkipTally>, reason: string, id: number) {
  const t = (tallies[reason] ??= { count: 0, examples: [] });
  t.count += 1;
  if (t.examples.length < 5) t.examples.push(id);
}

/**
 * Unique, readable urls from titles. A book keeps the url it already has; new books are
 * given theirs most popular first, so the best-known edition gets the plain title and the
 * others add the author's last name, then the ebook number.
 */
function assignUrls(
  entries: CatalogueEntry[],
  downloads: Map<number, number>,
  existing: Map<number, string>,
): Map<number, string> {
  const taken = new Set(existing.values());
  const urls = new Map<number, string>();
  const ordered = [...entries].sort(
    (a, b) => (downloads.get(b.id) ?? 0) - (downloads.get(a.id) ?? 0) || a.id - b.id,
  );
  for (const entry of ordered) {
    const known = existing.get(entry.id);
    if (known) {
      urls.set(entry.id, known);
      continue;
    }
    const base = titleSlug(entry.title) || `book-${entry.id}`;
    const last = entry.authors[0] ? authorSlug(entry.authors[0].name).split('-').at(-1) : '';
    const options = [base, last ? `${base}-${last}` : '', `${base}-${entry.id}`].filter(Boolean);
    const url = options.find((u) => !taken.has(u)) ?? `book-${entry.id}`;
    taken.add(url);
    urls.set(entry.id, url);
  }
  return urls;
}

function toBookRow(
  entry: CatalogueEntry,
  url: string,
  catalogue: Catalogue,
): NewBookRow & SearchKeys {
  const subjects = mapSubjects({
    bookshelves: entry.bookshelves,
    lcsh: entry.lcsh,
    lcc: entry.lcc,
  });
  const authors = entry.authors.map((a) => ({ ...a, slug: authorSlug(a.name) }));
  const keys = titleKeys(entry.title);
  return {
    id: entry.id,
    url,
    title: entry.title.slice(0, 500),
    subtitle: entry.subtitle.slice(0, 500),
    authors,
    authorSlugs: [...new Set(authors.map((a) => a.slug).filter(Boolean))],
    subject: subjects[0]!,
    subjectSlugs: subjects.map(subjectSlug),
    lcsh: entry.lcsh,
    lcc: entry.lcc,
    bookshelves: entry.bookshelves,
    languages: entry.languages,
    downloadCount: catalogue.downloads.get(entry.id) ?? 0,
    issued: catalogue.issued.get(entry.id) ?? entry.issued ?? null,
    searchTitle: normalizeForSearch(`${entry.title} ${entry.subtitle}`),
    searchAuthors: normalizeForSearch(
      authors.map((a) => `${a.name} ${formatAuthorName(a.name)}`).join(' '),
    ),
    ...keys,
    workKey: `${keys.shortKey}|${authors[0]?.slug ?? ''}`,
  };
}

/** Strips, splits and measures one text; returns the number of chapters stored. */
async function importText(
  db: Db,
  id: number,
  file: string,
  title: string | undefined,
): Promise<number> {
  const { chapters, totals } = prepareText(readSourceText(file), title ?? 'Full text');
  if (chapters.length === 0) return 0;
  await replaceChapters(db, id, chapters, totals);
  return chapters.length;
}

/** Covers are stored at most 600 px wide, as progressive JPEG. */
async function prepareCover(id: number, file: string) {
  const { data, info } = await sharp(readSourceBytes(file))
    .rotate()
    .resize({ width: 600, withoutEnlargement: true })
    .jpeg({ quality: 82, progressive: true, mozjpeg: true })
    .toBuffer({ resolveWithObject: true });
  return {
    bookId: id,
    jpeg: data,
    width: info.width,
    height: info.height,
    etag: createHash('sha1').update(data).digest('hex').slice(0, 12),
    licence: 'public domain',
  };
}
