import { parse as parseCsv } from 'csv-parse/sync';
import { strFromU8, unzipSync } from 'fflate';
import { parse as parseGift } from 'gift-pegjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_FORMATS, EXPORT_NOTES_HEADER, type MaterialDocument } from '@chapterwise/shared';
import { generatedMaterials } from '../../../db/schema/index.js';
import { hostileDocument } from '../../../test/material-fixtures.js';
import { createTestApp, createUser, type TestApp } from '../../../test/helpers.js';
import { toOutput } from '../materials.service.js';
import { EXPORTERS } from './index.js';

const TYPES: Record<string, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  gift: 'text/plain; charset=utf-8',
  aiken: 'text/plain; charset=utf-8',
  quizlet: 'text/plain; charset=utf-8',
  blackboard: 'text/plain; charset=utf-8',
  qti: 'application/zip',
  kahoot: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  wayground: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  blooket: 'text/csv; charset=utf-8',
  gimkit: 'text/csv; charset=utf-8',
};

describe('export API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const get = (url: string, auth?: { authorization: string }) =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/materials/${url}`,
      ...(auth ? { headers: auth } : {}),
    });

  async function insertMaterial(
    userId: string,
    name: string,
    document: MaterialDocument = hostileDocument(),
    setId: string | null = null,
  ) {
    const [row] = await t.app.db
      .insert(generatedMaterials)
      .values({
        userId,
        name,
        grade: document.grade,
        subject: document.subject,
        type: document.type,
        referenceText: '',
        status: 'finished',
        output: toOutput(document),
        setId,
      })
      .returning();
    return row!.id;
  }

  it('downloads each format with its type, a safe file name and Content-Disposition', async () => {
    const { user, auth } = await createUser(t.app);
    const id = await insertMaterial(user.id, 'Frankenstein: Letter 1 </xml> Test');
    for (const format of EXPORT_FORMATS) {
      if (!EXPORTERS[format.id]) continue;
      const res = await get(`exportmaterial?id=${id}&format=${format.id}`, auth);
      expect(res.statusCode, format.id).toBe(200);
      expect(res.headers['content-type'], format.id).toBe(TYPES[format.id]);
      const disposition = String(res.headers['content-disposition']);
      expect(disposition).toMatch(
        new RegExp(
          `^attachment; filename="frankenstein-letter-1-xml-test[a-z-]*\\.${format.extension}"; filename\\*=UTF-8''`,
        ),
      );
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.rawPayload.length).toBeGreaterThan(0);
    }
    const kahoot = await get(`exportmaterial?id=${id}&format=kahoot`, auth);
    const notes = decodeURIComponent(String(kahoot.headers[EXPORT_NOTES_HEADER])).split('\n');
    expect(notes).toContain('Question 3: the question was shortened to 120 characters.');
    const gift = await get(`exportmaterial?id=${id}&format=gift`, auth);
    expect(parseGift(gift.body).length).toBeGreaterThan(5);
  });

  it('refuses an unknown format, another teacher’s material (404) and a folder of another teacher', async () => {
    const owner = await createUser(t.app);
    const stranger = await createUser(t.app);
    const id = await insertMaterial(owner.user.id, 'Mine');
    const bad = await get(`exportmaterial?id=${id}&format=xls`, owner.auth);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.message).toContain('format');
    expect((await get(`exportmaterial?id=${id}&format=gift`, stranger.auth)).statusCode).toBe(404);
    expect((await get(`exportmaterial?id=${id}&format=gift`)).statusCode).toBe(404);
    const set = await t.app.materials.createSet(owner.user, 'Unit 1');
    await insertMaterial(owner.user.id, 'In folder', hostileDocument(), set._id);
    expect((await get(`exportset?id=${set._id}&format=gift`, stranger.auth)).statusCode).toBe(404);
    expect((await get(`exportset?id=${set._id}&format=gift`)).statusCode).toBe(401);
    expect((await get(`exportset?id=not-an-id&format=gift`, owner.auth)).statusCode).toBe(400);
  });

  it('exports a folder as one file where the format holds several quizzes, a zip otherwise', async () => {
    const { user, auth } = await createUser(t.app);
    const set = await t.app.materials.createSet(user, 'Frankenstein unit');
    const empty = await get(`exportset?id=${set._id}&format=gift`, auth);
    expect(empty.statusCode).toBe(409);
    await insertMaterial(user.id, 'Letter 1', hostileDocument(), set._id);
    await insertMaterial(user.id, 'Letter 2', hostileDocument({ title: 'Letter 2' }), set._id);
    await insertMaterial(user.id, 'Not in the folder');

    const gift = await get(`exportset?id=${set._id}&format=gift`, auth);
    expect(gift.statusCode).toBe(200);
    expect(gift.headers['content-disposition']).toContain(
      'filename="frankenstein-unit-folder-moodle-gift.txt"',
    );
    const categories = parseGift(gift.body).filter((q) => q.type === 'Category');
    expect(categories.map((c) => c.title)).toEqual([
      '$course$/top/Letter 1',
      '$course$/top/Letter 2',
    ]);

    const quizlet = await get(`exportset?id=${set._id}&format=quizlet`, auth);
    expect(
      (parseCsv(quizlet.body, { delimiter: '\t', quote: false }) as string[][]).length,
    ).toBeGreaterThan(10);

    const kahoot = await get(`exportset?id=${set._id}&format=kahoot`, auth);
    expect(kahoot.headers['content-type']).toBe('application/zip');
    expect(kahoot.headers['content-disposition']).toContain(
      'filename="frankenstein-unit-folder-kahoot.zip"',
    );
    const files = unzipSync(new Uint8Array(kahoot.rawPayload));
    expect(Object.keys(files).sort()).toEqual([
      'letter-1-test-kahoot.xlsx',
      'letter-2-test-kahoot.xlsx',
    ]);
    const notes = decodeURIComponent(String(kahoot.headers[EXPORT_NOTES_HEADER]));
    expect(notes).toContain('Letter 1: Question 3: the question was shortened');

    const word = await get(`exportset?id=${set._id}&format=docx&copy=student`, auth);
    const names = Object.keys(unzipSync(new Uint8Array(word.rawPayload))).sort();
    expect(names).toEqual(['letter-1-test-student.docx', 'letter-2-test-student.docx']);
    const text = strFromU8(
      unzipSync(unzipSync(new Uint8Array(word.rawPayload))['letter-1-test-student.docx']!)[
        'word/document.xml'
      ]!,
    );
    expect(text).not.toContain('Answer Key');
  });
});
