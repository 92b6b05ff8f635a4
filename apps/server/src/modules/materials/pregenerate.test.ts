import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  evidenceOf,
  numberedQuestions,
  type ChapterMaterialCard,
  type Material,
} from '@chapterwise/shared';
import { createTestApp, type TestApp } from '../../test/helpers.js';
import { BOOKS_SEED_DIR } from '../books/books.seed.js';
import { importCatalogue } from '../books/import/importer.js';
import {
  gradeForBook,
  shortTitle,
  platformMaterialsSeeder,
  pregenerateChapterMaterials,
  readPlatformSeed,
  PLATFORM_MATERIALS_SEED,
} from './pregenerate.js';

/** Frankenstein, Pride and Prejudice, Alice, and a play (Romeo and Juliet). */
const IDS = new Set([84, 1342, 11, 1513]);

/** How text reads once quotes, dashes, whitespace and case are evened out. */
const plain = (s: string) =>
  s
    .replace(/[“”«»"]/g, '"')
    .replace(/[‘’']/g, "'")
    .replace(/[—–-]+/g, '-')
    .replace(/_/g, '')
    .replace(/\s+/g, ' ')
    .toLowerCase()
    .trim();

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await importCatalogue(t.app.db, { source: BOOKS_SEED_DIR, languages: ['en'], onlyIds: IDS });
  await t.app.books.refreshVersion();
}, 120_000);
afterAll(() => t?.close());

const available = async (bookUrl: string, chapterUrl: string) => {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/v1/materials/getavailablechaptermaterials?bookUrl=${bookUrl}&chapterUrl=${chapterUrl}`,
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: ChapterMaterialCard[]; count: number }>();
};

describe('ready-made chapter materials', () => {
  it('names materials with the short title of their book', () => {
    expect(shortTitle('Frankenstein; or, the modern prometheus')).toBe('Frankenstein');
    expect(shortTitle("A Doll's House : a play")).toBe("A Doll's House");
    expect(shortTitle('Moby Dick, or, The Whale')).toBe('Moby Dick');
    expect(shortTitle('Pride and Prejudice')).toBe('Pride and Prejudice');
  });

  it('grades books by reading level between 6th and 12th grade, plays from 9th', () => {
    expect(gradeForBook(2, 'Children’s Literature')).toBe('6th Grade (Year 7)');
    expect(gradeForBook(10.4, 'Horror')).toBe('10th Grade (Year 11)');
    expect(gradeForBook(19, 'Romance')).toBe('12th Grade (Year 13)');
    expect(gradeForBook(4, 'Drama')).toBe('9th Grade (Year 10)');
    expect(gradeForBook(null, 'History')).toBe('8th Grade (Year 9)');
  });

  it('pregenerates one material of each type for the first chapters of the most downloaded books', async () => {
    // Pages showing a chapter's materials are cached: each book changed is told to every cache.
    const told: string[] = [];
    const unsubscribe = t.app.changes.subscribe((topic) => told.push(topic));
    const report = await pregenerateChapterMaterials(t.app.books, t.app.materials, {
      books: 2,
      chapters: 2,
      types: ['Quiz', 'Lesson'],
    });
    expect(report.failed).toEqual([]);
    expect(report.chapters).toBe(4);
    expect(report.made).toBe(8);
    unsubscribe();
    expect(new Set(told)).toEqual(new Set(report.materials.map((m) => `book:${m.bookUrl}`)));
    const chapters = [...new Set(report.materials.map((m) => `${m.bookUrl}/${m.chapterUrl}`))];
    expect(chapters).toHaveLength(4);
    // Editors' prefaces are not featured.
    expect(chapters.some((c) => /preface|introduction/i.test(c))).toBe(false);

    const [bookUrl, chapterUrl] = chapters[0]!.split('/') as [string, string];
    const list = await available(bookUrl, chapterUrl);
    expect(list.data.map((m) => m.type).sort()).toEqual(['Lesson', 'Quiz']);
    const chapterText = plain(
      (await t.app.books.getChapter(bookUrl, chapterUrl)).data.chapter.text,
    );
    for (const card of list.data) {
      expect(card.status).toBe('finished');
      const material = (
        await t.app.inject({ method: 'GET', url: `/api/v1/materials/getmaterial?id=${card._id}` })
      ).json<{ data: Material }>().data;
      const questions = numberedQuestions(material.output!.document);
      expect(card.questionCount).toBe(questions.length);
      expect(questions.length).toBeGreaterThan(3);
      // Every answer's evidence is the chapter's own words.
      for (const q of questions) {
        for (const quote of evidenceOf(q)) {
          for (const part of quote.split(/\s*…\s*/).filter((p) => p.length > 12)) {
            expect(chapterText).toContain(plain(part));
          }
        }
      }
    }

    // Running it again replaces them rather than adding copies.
    await pregenerateChapterMaterials(t.app.books, t.app.materials, {
      books: 2,
      chapters: 2,
      types: ['Quiz', 'Lesson'],
    });
    expect((await available(bookUrl, chapterUrl)).count).toBe(2);
  }, 120_000);

  it('the seed file in the repository holds checked materials, and loads once on first start', async () => {
    const seed = readPlatformSeed(PLATFORM_MATERIALS_SEED);
    expect(seed.length).toBeGreaterThanOrEqual(40);
    expect(new Set(seed.map((m) => m.type))).toEqual(
      new Set(['Quiz', 'Test', 'Lesson', 'Worksheet']),
    );
    const fresh = await createTestApp();
    try {
      const context = { storage: fresh.app.storage, publicUrl: fresh.config.publicUrl };
      await platformMaterialsSeeder.run(fresh.database, fresh.app.log, context);
      await platformMaterialsSeeder.run(fresh.database, fresh.app.log, context);
      const first = seed[0]!;
      const res = await fresh.app.inject({
        method: 'GET',
        url: `/api/v1/materials/getavailablechaptermaterials?bookUrl=${first.bookUrl}&chapterUrl=${first.chapterUrl}`,
      });
      const list = res.json<{ data: ChapterMaterialCard[] }>();
      const expected = seed.filter(
        (m) => m.bookUrl === first.bookUrl && m.chapterUrl === first.chapterUrl,
      ).length;
      expect(list.data).toHaveLength(expected);
      // Anyone can export one, without an account.
      const docx = await fresh.app.inject({
        method: 'GET',
        url: `/api/v1/materials/exportmaterial?id=${list.data[0]!._id}&format=txt`,
      });
      expect(docx.statusCode).toBe(200);
      expect(docx.body).toContain('ANSWER KEY');
    } finally {
      await fresh.close();
    }
  }, 60_000);
});
