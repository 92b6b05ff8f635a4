import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';

/**
 * Readers for the Project Gutenberg catalogue formats the importer accepts. Every file may
 * also be gzipped (`name.gz`): the sample data in the repository is stored that way.
 *
 * - gutenbergr CSV tables (`gutenberg_metadata.csv` + authors, subjects, languages),
 * - PG's official `pg_catalog.csv`,
 * - PG RDF/XML records (`pg<ID>.rdf`: download counts and release dates),
 * - a Gutendex JSON page (download counts),
 * - plain-text books (`pg<ID>.txt`) and public-domain covers (`<ID>.jpg`).
 */

/** One ebook as the catalogue describes it, whatever format it came from. */
export interface CatalogueEntry {
  id: number;
  title: string;
  subtitle: string;
  authors: Array<{ name: string; birthYear: number | null; deathYear: number | null }>;
  languages: string[];
  bookshelves: string[];
  lcsh: string[];
  lcc: string[];
  /** False for rows marked "Copyrighted"; true when the format does not say. */
  publicDomain: boolean;
  /** False for audio and other non-text media. */
  hasText: boolean;
  issued: string | null;
}

/** `path` or `path.gz`, whichever exists. */
export function findSourceFile(file: string): string | undefined {
  if (existsSync(file)) return file;
  if (existsSync(`${file}.gz`)) return `${file}.gz`;
  return undefined;
}

export function readSourceBytes(file: string): Buffer {
  const bytes = readFileSync(file);
  return file.endsWith('.gz') ? gunzipSync(bytes) : bytes;
}

export function readSourceText(file: string): string {
  return readSourceBytes(file).toString('utf8');
}

/** Files in a folder whose names (without `.gz`) match, as { id, file }. */
export function listById(dir: string, pattern: RegExp): Array<{ id: number; file: string }> {
  if (!existsSync(dir)) return [];
  const out: Array<{ id: number; file: string }> = [];
  for (const name of readdirSync(dir)) {
    const m = pattern.exec(name.replace(/\.gz$/, ''));
    if (m) out.push({ id: Number(m[1]), file: path.join(dir, name) });
  }
  return out.sort((a, b) => a.id - b.id);
}

/** A cheap fingerprint of source files (names, sizes, modification times). */
export function fingerprintFiles(files: string[]): string {
  return files
    .filter((f) => existsSync(f))
    .map((f) => {
      const s = statSync(f);
      return `${path.basename(f)}:${s.size}:${Math.round(s.mtimeMs)}`;
    })
    .join('|');
}

function csv(text: string): Array<Record<string, string>> {
  return parse(text, {
    columns: true,
    skip_empty_lines: true,
    relax_column_count: true,
    bom: true,
  });
}

const splitList = (value: string | undefined, separator: string | RegExp) =>
  (value ?? '')
    .split(separator)
    .map((s) => s.trim())
    .filter(Boolean);

const toYear = (value: string | undefined): number | null => {
  if (!value) return null;
  const n = Number(value);
  return Number.isInteger(n) && Math.abs(n) < 3000 ? n : null;
};

/** Splits a title at its first line break: "Title\r\nSubtitle" (gutenbergr, pg_catalog). */
function splitTitle(raw: string): { title: string; subtitle: string } {
  const [first = '', ...rest] = raw.split(/\r?\n/);
  // Catalogue titles keep MARC subfield marks ("Peter Pan : $b [Peter and Wendy]").
  const clean = (text: string) =>
    text
      .replace(/\s*\$[a-z]\s*/g, ' ')
      .replace(/\s+([:;,])/g, '$1')
      .replace(/\s+/g, ' ')
      .trim();
  return { title: clean(first), subtitle: clean(rest.join(' ')) };
}

/**
 * The gutenbergr tables: metadata has one row per (book, author); authors, subjects and
 * languages join on `gutenberg_id` / `gutenberg_author_id`.
 */
export function readGutenbergrTables(dir: string): Map<number, CatalogueEntry> {
  const metadataFile = findSourceFile(path.join(dir, 'gutenberg_metadata.csv'));
  if (!metadataFile) return new Map();
  const authorsFile = findSourceFile(path.join(dir, 'gutenberg_authors.csv'));
  const subjectsFile = findSourceFile(path.join(dir, 'gutenberg_subjects.csv'));
  const languagesFile = findSourceFile(path.join(dir, 'gutenberg_languages.csv'));

  const authorYears = new Map<string, { birthYear: number | null; deathYear: number | null }>();
  if (authorsFile) {
    for (const row of csv(readSourceText(authorsFile))) {
      authorYears.set(row.gutenberg_author_id ?? '', {
        birthYear: toYear(row.birthdate),
        deathYear: toYear(row.deathdate),
      });
    }
  }

  const entries = new Map<number, CatalogueEntry>();
  for (const row of csv(readSourceText(metadataFile))) {
    const id = Number(row.gutenberg_id);
    if (!Number.isInteger(id) || id <= 0) continue;
    let entry = entries.get(id);
    if (!entry) {
      const { title, subtitle } = splitTitle(row.title ?? '');
      entry = {
        id,
        title,
        subtitle,
        authors: [],
        languages: splitList(row.language, '/'),
        bookshelves: splitList(row.gutenberg_bookshelf, '/').map((s) =>
          s.replace(/^Category:\s*/, ''),
        ),
        lcsh: [],
        lcc: [],
        publicDomain: !/^Copyrighted/i.test(row.rights ?? ''),
        hasText: (row.has_text ?? 'TRUE').toUpperCase() !== 'FALSE',
        issued: null,
      };
      entries.set(id, entry);
    }
    const name = (row.author ?? '').trim();
    if (name && !entry.authors.some((a) => a.name === name)) {
      const years = authorYears.get(row.gutenberg_author_id ?? '');
      entry.authors.push({
        name,
        birthYear: years?.birthYear ?? null,
        deathYear: years?.deathYear ?? null,
      });
    }
  }

  if (subjectsFile) {
    for (const row of csv(readSourceText(subjectsFile))) {
      const entry = entries.get(Number(row.gutenberg_id));
      const subject = (row.subject ?? '').trim();
      if (!entry || !subject) continue;
      if (row.subject_type === 'lcc') entry.lcc.push(subject);
      else entry.lcsh.push(subject);
    }
  }
  if (languagesFile) {
    const languages = new Map<number, string[]>();
    for (const row of csv(readSourceText(languagesFile))) {
      const id = Number(row.gutenberg_id);
      const list = languages.get(id) ?? [];
      if (row.language) list.push(row.language);
      languages.set(id, list);
    }
    for (const [id, list] of languages) {
      const entry = entries.get(id);
      if (entry && list.length) entry.languages = [...new Set(list)];
    }
  }
  return entries;
}

/**
 * PG's official `pg_catalog.csv`: `Text#, Type, Issued, Title, Language, Authors, Subjects,
 * LoCC, Bookshelves`, lists joined with "; ", authors with their years ("Austen, Jane, 1775-1817").
 */
export function readPgCatalog(file: string): Map<number, CatalogueEntry> {
  const entries = new Map<number, CatalogueEntry>();
  for (const row of csv(readSourceText(file))) {
    const id = Number(row['Text#']);
    if (!Number.isInteger(id) || id <= 0) continue;
    const { title, subtitle } = splitTitle(row.Title ?? '');
    entries.set(id, {
      id,
      title,
      subtitle,
      authors: pgCatalogAuthors(row.Authors),
      languages: splitList(row.Language, /;\s*/),
      bookshelves: splitList(row.Bookshelves, /;\s*/).map((s) =>
        s.replace(/^(Category|Browsing):\s*/, ''),
      ),
      lcsh: splitList(row.Subjects, /;\s*/),
      lcc: splitList(row.LoCC, /;\s*/),
      publicDomain: true,
      hasText: (row.Type ?? 'Text') === 'Text',
      issued: /^\d{4}-\d{2}-\d{2}$/.test(row.Issued ?? '') ? row.Issued! : null,
    });
  }
  return entries;
}

/** Authors of a pg_catalog row; translators, editors and illustrators only when no author is named. */
function pgCatalogAuthors(value: string | undefined): CatalogueEntry['authors'] {
  const all = splitList(value, /;\s*/);
  const authors = all.filter((a) => !/\[(?!Author\])[^\]]+\]\s*$/.test(a));
  return (authors.length ? authors : all).map(parsePgCatalogAuthor);
}

/** "Austen, Jane, 1775-1817" → name and years; "Homer, 751? BCE-651? BCE" too. */
export function parsePgCatalogAuthor(raw: string): CatalogueEntry['authors'][number] {
  const text = raw.replace(/\s*\[[^\]]*\]\s*$/, '').trim();
  const m = /^(.*?),\s*(-?\d{1,4})?\??\s*(BCE)?\s*-\s*(-?\d{1,4})?\??\s*(BCE)?$/.exec(text);
  if (!m || (!m[2] && !m[4])) return { name: text, birthYear: null, deathYear: null };
  const year = (v: string | undefined, bce: string | undefined) =>
    v ? (bce ? -Number(v) : Number(v)) : null;
  return { name: m[1]!.trim(), birthYear: year(m[2], m[3]), deathYear: year(m[4], m[5]) };
}

/** Download counts and release dates from PG RDF/XML records. */
export function readRdfRecord(file: string): {
  id: number;
  downloads: number | null;
  issued: string | null;
} | null {
  const xml = readSourceText(file);
  const about = /<pgterms:ebook rdf:about="ebooks\/(\d+)"/.exec(xml);
  if (!about) return null;
  const downloads = /<pgterms:downloads[^>]*>(\d+)<\/pgterms:downloads>/.exec(xml);
  const issued = /<dcterms:issued[^>]*>(\d{4}-\d{2}-\d{2})<\/dcterms:issued>/.exec(xml);
  return {
    id: Number(about[1]),
    downloads: downloads ? Number(downloads[1]) : null,
    issued: issued ? issued[1]! : null,
  };
}

/** `{ results: [{ id, download_count }] }` from a Gutendex page. */
export function readGutendexDownloads(file: string): Map<number, number> {
  const counts = new Map<number, number>();
  const json = JSON.parse(readSourceText(file)) as {
    results?: Array<{ id?: unknown; download_count?: unknown }>;
  };
  for (const book of json.results ?? []) {
    if (typeof book.id === 'number' && typeof book.download_count === 'number') {
      counts.set(book.id, book.download_count);
    }
  }
  return counts;
}
