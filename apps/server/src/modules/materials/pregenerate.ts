import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { z } from 'zod';
import {
  BooksQuerySchema,
  DEFAULT_MATERIAL_TYPES,
  GRADES,
  MaterialOutputSchema,
  type Grade,
} from '@chapterwise/shared';
import type { Seeder } from '../../db/seed.js';
import type { BooksService } from '../books/books.service.js';
import * as repo from './materials.repository.js';
import { toOutput, type MaterialsService } from './materials.service.js';

/** The platform's ready-made materials kept in the repository, loaded on first start. */
export const PLATFORM_MATERIALS_SEED = path.resolve(
  path.dirname(new URL(import.meta.url).pathname),
  '../../../seed-data/materials/platform-materials.json.gz',
);

/** Chapters shorter than this make thin materials: featured chapters are longer. */
const MIN_CHAPTER_WORDS = 400;

export interface PregenerateOptions {
  /** How many of the most downloaded books with a full text. */
  books: number;
  /** How many chapters of each book, from the first one long enough. */
  chapters: number;
  types: readonly string[];
}

export const DEFAULT_PREGENERATE: PregenerateOptions = {
  books: 8,
  chapters: 3,
  types: DEFAULT_MATERIAL_TYPES,
};

export interface FeaturedChapter {
  bookUrl: string;
  bookTitle: string;
  chapterUrl: string;
  chapterTitle: string;
  subject: string;
  grade: Grade;
  text: string;
}

/** Front matter by another hand (an editor's preface, a transcriber's note) is not featured. */
const FRONT_MATTER =
  /^(preface|introduction|foreword|contents|transcriber|editor|note\b|prefatory)/i;

/** "Frankenstein; or, the modern prometheus" → "Frankenstein"; "A Doll's House : a play" → "A Doll's House". */
export function shortTitle(title: string): string {
  const short = title.split(/\s*[;:]\s*|,\s+or,?\s+/i)[0]!.trim();
  return short.length >= 3 ? short : title.trim();
}

/** "Frankenstein, Letter 1"; a work that is one chapter is named once ("The Yellow Wallpaper"). */
function materialSource(chapter: FeaturedChapter): string {
  const book = shortTitle(chapter.bookTitle);
  return chapter.chapterTitle.toLowerCase() === book.toLowerCase()
    ? book
    : `${book}, ${chapter.chapterTitle}`;
}

/**
 * The grade a book's ready-made materials are written for: its Flesch–Kincaid level, between
 * 6th and 12th grade, where classics are taught. Plays score low (short speeches), so a
 * play is read from 9th grade up.
 */
export function gradeForBook(readingGrade: number | null, subject: string): Grade {
  const floor = /drama/i.test(subject) ? 9 : 6;
  const level = Math.min(12, Math.max(floor, Math.round(readingGrade ?? 8)));
  return GRADES[level]!;
}

/** The featured chapters: the first long-enough chapters of the most downloaded full texts. */
export async function selectFeaturedChapters(
  books: BooksService,
  options: Pick<PregenerateOptions, 'books' | 'chapters'>,
): Promise<FeaturedChapter[]> {
  const featured: FeaturedChapter[] = [];
  let bookCount = 0;
  for (let page = 1; page <= 50 && bookCount < options.books; page++) {
    const list = await books.listBooks(
      BooksQuerySchema.parse({ sort: 'download_count', limit: 100, page }),
    );
    if (list.data.length === 0) break;
    for (const book of list.data) {
      if (bookCount >= options.books) break;
      if (!book.wordCount) continue;
      const detail = await books.getBook(book.url);
      const chosen = detail.data.chapters
        .filter((c) => c.wordCount >= MIN_CHAPTER_WORDS && !FRONT_MATTER.test(c.title))
        .slice(0, options.chapters);
      if (chosen.length === 0) continue;
      bookCount += 1;
      for (const summary of chosen) {
        const { chapter } = (await books.getChapter(book.url, summary.url)).data;
        featured.push({
          bookUrl: book.url,
          bookTitle: book.title,
          chapterUrl: chapter.url,
          chapterTitle: chapter.title,
          subject: book.subject,
          grade: gradeForBook(book.readingGrade ?? null, book.subject),
          text: chapter.text,
        });
      }
    }
  }
  return featured;
}

/** One ready-made material as the seed file keeps it (the chapter's text included). */
const SeedMaterialSchema = z.object({
  bookUrl: z.string().min(1),
  chapterUrl: z.string().min(1),
  name: z.string().min(1),
  subject: z.string(),
  grade: z.string(),
  type: z.string().min(1),
  referenceText: z.string(),
  descriptionText: z.string(),
  output: MaterialOutputSchema,
});
type SeedMaterial = z.infer<typeof SeedMaterialSchema>;
const SeedFileSchema = z.object({ version: z.literal(1), materials: z.array(SeedMaterialSchema) });

export interface PregenerateReport {
  chapters: number;
  made: number;
  failed: Array<{ bookUrl: string; chapterUrl: string; type: string; error: string }>;
  materials: SeedMaterial[];
}

/**
 * Makes the platform's ready-made materials for the featured chapters, one of each type,
 * replacing earlier ones. A material the generator cannot make is reported, not fatal.
 */
export async function pregenerateChapterMaterials(
  books: BooksService,
  materials: MaterialsService,
  options: PregenerateOptions,
  onProgress?: (done: number, total: number, label: string) => void,
): Promise<PregenerateReport> {
  const chapters = await selectFeaturedChapters(books, options);
  const total = chapters.length * options.types.length;
  const report: PregenerateReport = {
    chapters: chapters.length,
    made: 0,
    failed: [],
    materials: [],
  };
  let done = 0;
  for (const chapter of chapters) {
    for (const type of options.types) {
      const label = `${chapter.bookTitle} · ${chapter.chapterTitle} · ${type}`;
      onProgress?.(done, total, label);
      const input = {
        bookUrl: chapter.bookUrl,
        chapterUrl: chapter.chapterUrl,
        // The book's name too: a copy in a teacher's own list must say where it is from.
        name: `${materialSource(chapter)} ${type}`,
        subject: chapter.subject,
        grade: chapter.grade,
        type,
        referenceText: chapter.text,
        descriptionText: '',
      };
      try {
        const made = await materials.createPlatformMaterial(input);
        report.made += 1;
        report.materials.push({ ...input, output: MaterialOutputSchema.parse(made.output) });
      } catch (error) {
        report.failed.push({
          bookUrl: chapter.bookUrl,
          chapterUrl: chapter.chapterUrl,
          type,
          error: error instanceof Error ? error.message : String(error),
        });
      }
      done += 1;
    }
  }
  onProgress?.(done, total, 'done');
  return report;
}

/** Writes the made materials as the repository's seed file (gzipped JSON). */
export function writePlatformSeed(file: string, materials: SeedMaterial[]): void {
  const json = JSON.stringify({ version: 1, materials });
  writeFileSync(file, gzipSync(json, { level: 9 }));
}

/** Reads and checks a seed file written by `writePlatformSeed`. */
export function readPlatformSeed(file: string): SeedMaterial[] {
  return SeedFileSchema.parse(JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')))
    .materials;
}

/**
 * First start: the ready-made chapter materials from the repository, so featured chapter
 * pages offer them at once. Later starts, or after `npm run materials:pregenerate`: nothing.
 */
export const platformMaterialsSeeder: Seeder = {
  name: 'platform-materials',
  async run(database, log) {
    if (await repo.hasPlatformMaterials(database.db)) return;
    if (!existsSync(PLATFORM_MATERIALS_SEED)) {
      log.warn({ file: PLATFORM_MATERIALS_SEED }, 'no ready-made chapter materials to load');
      return;
    }
    const materials = readPlatformSeed(PLATFORM_MATERIALS_SEED);
    await database.db.transaction(async (tx) => {
      for (const m of materials) {
        const { output, ...rest } = m;
        await repo.insertPlatformMaterial(tx, {
          ...rest,
          setId: null,
          output: toOutput(output.document),
        });
      }
    });
    log.info({ materials: materials.length }, 'ready-made chapter materials loaded');
  },
};
