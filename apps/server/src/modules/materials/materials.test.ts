import { eq } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { OfficeParser } from 'officeparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GRADES,
  MATERIAL_LIMITS,
  MaterialListCardSchema,
  MaterialOutputSchema,
  numberedQuestions,
} from '@chapterwise/shared';
import { generatedMaterials, users } from '../../db/schema/index.js';
import { chapter } from '../../test/chapters.js';
import { createTestApp, createUser, type TestApp } from '../../test/helpers.js';
import * as repo from './materials.repository.js';
import { MAX_ATTEMPTS, toOutput } from './materials.service.js';
import { questionShortfall, withNotCountedNote } from './materials.shortfall.js';

const TEXT = chapter(84).text;

/** A 167-word story: the built-in generator finds 3 checked quiz questions in it, not 10. */
const STORY = `The sun had not yet risen when Anna left the farmhouse. She carried a lantern in one hand and a basket of bread in the other, because the path to the mill was long and the morning was cold. Her brother Tomas had promised to meet her at the old bridge, but when she reached it the bridge was empty.

Anna waited beside the river for a long time. The water was high after three days of rain, and it roared under the wooden planks. At last she saw a light moving among the trees. It was Tomas, and he was running. He told her that the miller had fallen ill in the night and that the mill wheel had stopped.

Together they hurried along the bank. When they reached the mill, the miller's daughter was standing at the door with a candle. She thanked them for the bread and asked Anna to sit with her father while Tomas went to fetch the doctor from the village.`;

const NOT_COUNTED =
  /^This text supported (?:only \d+|none) of the \d+ questions? asked for, so this generation was not counted: your credit has been given back\.$/;

function form(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Frankenstein, chapter 6',
    subject: 'English',
    grade: '8th Grade (Year 9)',
    type: 'Quiz',
    referenceText: TEXT,
    descriptionText: '',
    ...overrides,
  };
}

/** The text of a Word file, read back by a real parser. */
async function docxText(bytes: Buffer): Promise<string> {
  return (await OfficeParser.parseOffice(bytes)).toText();
}

async function waitFor<T>(check: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function credits(t: TestApp, id: string): Promise<number> {
  const [row] = await t.app.db
    .select({ n: users.generationCredits })
    .from(users)
    .where(eq(users.id, id));
  return row!.n;
}

describe('materials API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ JOBS_ENABLED: 'true' });
  });
  afterAll(() => t.close());

  const post = (url: string, payload: unknown, auth?: { authorization: string }) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/materials/${url}`,
      payload: payload as object,
      ...(auth ? { headers: auth } : {}),
    });
  const get = (url: string, auth?: { authorization: string }) =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/materials/${url}`,
      ...(auth ? { headers: auth } : {}),
    });

  async function generate(
    auth: { authorization: string },
    overrides: Record<string, unknown> = {},
  ) {
    const res = await post('generatematerial', form(overrides), auth);
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().materialId as string;
    const check = await waitFor(async () => {
      const c = await post('checkgeneration', { id }, auth);
      const body = c.json();
      return body.finished || body.status === 'failed' ? body : undefined;
    });
    return { id, check };
  }

  it('generates a quiz as a job: pending → finished, with the text and the structured document', async () => {
    const { user, auth } = await createUser(t.app);
    const { id, check } = await generate(auth);
    expect(check).toEqual({ finished: true, status: 'finished' });
    expect(await credits(t, user.id)).toBe(4);

    const list = await get('getusersmaterials', auth);
    expect(list.statusCode).toBe(200);
    const { data, count } = list.json().generatedMaterials;
    expect(count).toBe(1);
    const material = data[0];
    expect(material).toMatchObject({
      _id: id,
      name: 'Frankenstein, chapter 6',
      grade: '8th Grade (Year 9)',
      type: 'Quiz',
      status: 'finished',
      setId: null,
    });
    const output = MaterialOutputSchema.parse(material.output);
    const content = output.choices[0]!.message.content;
    expect(content).toContain('1. ');
    expect(content).toMatch(/\n {3}A\. /);
    expect(content.indexOf('ANSWER KEY')).toBeGreaterThan(content.indexOf('1. '));
    const questions = output.document.sections.flatMap((s) => s.questions);
    expect(questions.length).toBe(10);
  });

  it('makes a Test from a pasted chapter that mixes question kinds and forms (issue 13)', async () => {
    const { auth } = await createUser(t.app);
    const { id, check } = await generate(auth, { type: 'Test' });
    expect(check).toEqual({ finished: true, status: 'finished' });
    const list = await get('getusersmaterials', auth);
    const material = list.json().generatedMaterials.data.find((m: { _id: string }) => m._id === id);
    const questions = numberedQuestions(MaterialOutputSchema.parse(material.output).document);
    // Kinds a teacher sees (multiple choice, true/false, short answer, …) and what the
    // multiple-choice stems ask (why, who/when/where, supported statement, cloze, …).
    expect(new Set(questions.map((q) => q.kind)).size).toBeGreaterThanOrEqual(3);
    const stems = new Set(questions.filter((q) => q.kind === 'multiple_choice').map((q) => q.form));
    expect(stems.size).toBeGreaterThanOrEqual(3);
    const cloze = questions.filter((q) => q.form === 'cloze').length;
    expect(cloze / questions.length).toBeLessThanOrEqual(0.4);
  });

  it('requires each form field and names it', async () => {
    const { auth } = await createUser(t.app);
    for (const field of ['name', 'subject', 'grade', 'type']) {
      const body = form();
      delete (body as Record<string, unknown>)[field];
      const res = await post('generatematerial', body, auth);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().errors.message).toContain(field);
    }
    const blank = await post('generatematerial', form({ name: '   ' }), auth);
    expect(blank.statusCode).toBe(400);
    expect(blank.json().errors.message).toContain('name');
  });

  it('rejects an unknown type or grade, and a text too short to work from', async () => {
    const { user, auth } = await createUser(t.app);
    const type = await post('generatematerial', form({ type: 'Crossword' }), auth);
    expect(type.statusCode).toBe(400);
    expect(type.json().errors.message).toMatch(/type.*Quiz, Test, Lesson, Worksheet/);
    const grade = await post('generatematerial', form({ grade: '13th Grade' }), auth);
    expect(grade.statusCode).toBe(400);
    expect(grade.json().errors.message).toContain('grade');
    const short = await post(
      'generatematerial',
      form({ referenceText: 'Too short to quiz.' }),
      auth,
    );
    expect(short.statusCode).toBe(400);
    expect(short.json().errors.message).toContain('referenceText');
    // Nothing was charged for refused forms.
    expect(await credits(t, user.id)).toBe(5);
  });

  it('answers 413 with a clear message for an oversized reference text', async () => {
    const { user, auth } = await createUser(t.app);
    const huge = 'word '.repeat(Math.ceil(MATERIAL_LIMITS.referenceTextChars / 5) + 10);
    const res = await post('generatematerial', form({ referenceText: huge }), auth);
    expect(res.statusCode).toBe(413);
    expect(res.json().errors).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(res.json().errors.message).toMatch(/reference text is too long.*200,000/);
    expect(await credits(t, user.id)).toBe(5);
  });

  it('answers 402 without credits, and never charges a subscriber', async () => {
    const broke = await createUser(t.app, { generationCredits: 0 });
    const res = await post('generatematerial', form(), broke.auth);
    expect(res.statusCode).toBe(402);
    expect(res.json().errors).toEqual({
      code: 'PAYMENT_REQUIRED',
      message: 'You need a subscription to keep making materials.',
    });

    const subscriber = await createUser(t.app, { generationCredits: 0, isSubscribed: true });
    const ok = await post('generatematerial', form(), subscriber.auth);
    expect(ok.statusCode).toBe(201);
    expect(await credits(t, subscriber.user.id)).toBe(0);
  });

  describe('a generation far below the questions asked for (decision 025)', () => {
    const documentOf = async (id: string, auth: { authorization: string }) =>
      MaterialOutputSchema.parse((await get(`getmaterial?id=${id}`, auth)).json().data.output)
        .document;
    const sectionQuestions = (document: { sections: Array<{ questions: unknown[] }> }) =>
      document.sections.reduce((n, s) => n + s.questions.length, 0);

    it('is not charged for, and its notes say so first', async () => {
      const { user, auth } = await createUser(t.app, { generationCredits: 1 });
      const { id, check } = await generate(auth, { referenceText: STORY });
      expect(check).toEqual({ finished: true, status: 'finished' });
      expect(await credits(t, user.id)).toBe(1);
      const document = await documentOf(id, auth);
      const made = sectionQuestions(document);
      expect(made).toBeGreaterThan(0);
      expect(made * 2).toBeLessThan(10);
      expect(document.generator).toMatchObject({ questionsAskedFor: 10, typicalQuestions: 10 });
      expect(document.generator.notes[0]).toMatch(NOT_COUNTED);
      expect(document.generator.notes[0]).toContain(`only ${made} of the 10 questions asked for`);
      // The refund is stored with the material: `charged` is clear, so deleting it refunds nothing.
      const [row] = await t.app.db
        .select({ charged: generatedMaterials.charged })
        .from(generatedMaterials)
        .where(eq(generatedMaterials.id, id));
      expect(row!.charged).toBe(false);
      expect((await post('deletegeneratedmaterial', { id }, auth)).statusCode).toBe(200);
      expect(await credits(t, user.id)).toBe(1);
    });

    it('is charged for when the text supports at least half, with no such note', async () => {
      const { user, auth } = await createUser(t.app, { generationCredits: 1 });
      const { id, check } = await generate(auth);
      expect(check.status).toBe('finished');
      expect(await credits(t, user.id)).toBe(0);
      const document = await documentOf(id, auth);
      expect(sectionQuestions(document)).toBe(10);
      expect(document.generator.notes.some((n) => NOT_COUNTED.test(n))).toBe(false);
    });

    it('is charged for when far more than the type holds was asked for and half of a standard one came', async () => {
      const { user, auth } = await createUser(t.app, { generationCredits: 1 });
      // The chapter's first 500 words hold 14 checked questions, not 50.
      const opening = TEXT.split(/(?<=\s)/)
        .slice(0, 500)
        .join('');
      const { id } = await generate(auth, {
        referenceText: opening,
        descriptionText: '50 questions',
      });
      const document = await documentOf(id, auth);
      expect(document.generator).toMatchObject({ questionsAskedFor: 50, typicalQuestions: 10 });
      const made = sectionQuestions(document);
      // Fewer than half of the 50 asked for, but a full quiz's worth: asking big is no way round paying.
      expect(made * 2).toBeLessThan(50);
      expect(made).toBeGreaterThanOrEqual(5);
      expect(await credits(t, user.id)).toBe(0);
    });

    it('still needs a credit to start: a user with none gets 402 for a short text too', async () => {
      const broke = await createUser(t.app, { generationCredits: 0 });
      const res = await post('generatematerial', form({ referenceText: STORY }), broke.auth);
      expect(res.statusCode).toBe(402);
      expect(await credits(t, broke.user.id)).toBe(0);
      const list = (await get('getusersmaterials', broke.auth)).json().generatedMaterials;
      expect(list.count).toBe(0);
    });

    it("leaves a subscriber's balance alone and adds no note (nothing was charged)", async () => {
      const { user, auth } = await createUser(t.app, { generationCredits: 2, isSubscribed: true });
      const { id } = await generate(auth, { referenceText: STORY });
      expect(await credits(t, user.id)).toBe(2);
      const document = await documentOf(id, auth);
      expect(document.generator.notes.some((n) => NOT_COUNTED.test(n))).toBe(false);
    });

    it('gives the credit back once, in the transaction that stores the material', async () => {
      const { user, auth } = await createUser(t.app, { generationCredits: 3 });
      const [row] = await t.app.db
        .insert(generatedMaterials)
        .values({
          userId: user.id,
          name: 'Finished twice',
          grade: GRADES[8],
          subject: 'English',
          type: 'Quiz',
          referenceText: STORY,
          status: 'running',
          attempts: 1,
          charged: true,
        })
        .returning();
      const document = await t.app.materials.preview({
        type: 'Quiz',
        grade: GRADES[8],
        referenceText: STORY,
        descriptionText: '',
      });
      const shortfall = questionShortfall(document);
      expect(shortfall).toMatchObject({ askedFor: 10 });
      const free = toOutput(withNotCountedNote(document, shortfall!));
      // Two workers (an expired lease taken over) finishing at once: one stores, one refund.
      const results = await Promise.all([
        repo.finishGeneration(t.app.db, row!.id, toOutput(document), free),
        repo.finishGeneration(t.app.db, row!.id, toOutput(document), free),
      ]);
      expect(results.filter((r) => r?.refunded)).toHaveLength(1);
      expect(results.filter((r) => r === null)).toHaveLength(1);
      expect(await credits(t, user.id)).toBe(4);
      expect((await documentOf(row!.id, auth)).generator.notes[0]).toMatch(NOT_COUNTED);
    });
  });

  it('accepts exactly 5 of 20 parallel starts with 5 credits, and the balance never goes below 0', async () => {
    const { user, auth } = await createUser(t.app, { generationCredits: 5 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post('generatematerial', form(), auth)),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(5);
    expect(codes.filter((c) => c === 402)).toHaveLength(15);
    expect(await credits(t, user.id)).toBe(0);
    const list = await get('getusersmaterials', auth);
    expect(list.json().generatedMaterials.count).toBe(5);
  });

  it('needs a session', async () => {
    expect((await post('generatematerial', form())).statusCode).toBe(401);
    expect((await get('getusersmaterials')).statusCode).toBe(401);
    expect((await get('getusersmaterialsets')).statusCode).toBe(401);
  });

  it('keeps folders: create, list with counts, move a material, filter, delete (materials kept)', async () => {
    const { auth } = await createUser(t.app);
    const created = await post('createset', { name: 'Gothic novels' }, auth);
    expect(created.statusCode).toBe(201);
    const set = created.json().data;
    expect(set).toMatchObject({ name: 'Gothic novels', materialCount: 0 });
    expect((await post('createset', { name: '' }, auth)).statusCode).toBe(400);

    const { id } = await generate(auth, { setId: set._id });
    const other = await generate(auth);
    const sets = (await get('getusersmaterialsets', auth)).json().materialSets;
    expect(sets).toMatchObject({ count: 1, data: [{ _id: set._id, materialCount: 1 }] });

    const inSet = (await get(`getusersmaterials?setId=${set._id}`, auth)).json().generatedMaterials;
    expect(inSet.data.map((m: { _id: string }) => m._id)).toEqual([id]);

    const moved = await post('movegeneratedmaterial', { id: other.id, setId: set._id }, auth);
    expect(moved.statusCode).toBe(200);
    expect(moved.json().data.setId).toBe(set._id);
    expect(
      (await get(`getusersmaterials?setId=${set._id}`, auth)).json().generatedMaterials.count,
    ).toBe(2);
    const out = await post('movegeneratedmaterial', { id: other.id, setId: null }, auth);
    expect(out.json().data.setId).toBeNull();

    expect((await get(`getmaterialset?id=${set._id}`, auth)).json().data).toMatchObject({
      name: 'Gothic novels',
      materialCount: 1,
    });
    const deleted = await post('deletematerialset', { _id: set._id }, auth);
    expect(deleted.json()).toEqual({ wasSuccessful: true });
    const all = (await get('getusersmaterials', auth)).json().generatedMaterials;
    expect(all.count).toBe(2);
    expect(all.data.every((m: { setId: string | null }) => m.setId === null)).toBe(true);
    expect((await get(`getmaterialset?id=${set._id}`, auth)).statusCode).toBe(404);
  });

  it('lists the cards only with view=card: no texts, the document, paged and by folder (decision 026)', async () => {
    const { user, auth } = await createUser(t.app);
    const set = (await post('createset', { name: 'Cards' }, auth)).json().data;
    const { id } = await generate(auth, { setId: set._id, descriptionText: '8 questions' });
    const [pending] = await t.app.db
      .insert(generatedMaterials)
      .values({
        userId: user.id,
        name: 'Still writing',
        grade: GRADES[8],
        subject: 'English',
        type: 'Quiz',
        referenceText: TEXT,
        status: 'pending',
      })
      .returning();

    const full = (await get('getusersmaterials', auth)).json().generatedMaterials;
    const cards = (await get('getusersmaterials?view=card', auth)).json().generatedMaterials;
    expect(cards.count).toBe(2);
    expect(cards.data.map((m: { _id: string }) => m._id)).toEqual(
      full.data.map((m: { _id: string }) => m._id),
    );
    const [waiting, finished] = cards.data;
    expect(waiting).toEqual({
      _id: pending!.id,
      name: 'Still writing',
      grade: GRADES[8],
      subject: 'English',
      type: 'Quiz',
      setId: null,
      bookUrl: null,
      chapterUrl: null,
      createdAt: pending!.createdAt.toISOString(),
      status: 'pending',
    });
    const whole = full.data[1];
    expect(whole.referenceText).toBe(TEXT);
    expect(Object.keys(finished).sort()).toEqual(
      Object.keys(whole)
        .filter((k) => k !== 'referenceText' && k !== 'descriptionText')
        .sort(),
    );
    expect(finished).toMatchObject({ _id: id, setId: set._id, status: 'finished' });
    expect(finished.output).toEqual({ document: whole.output.document });
    expect(MaterialListCardSchema.parse(finished)).toEqual(finished);
    // A whole page of cards is a small fraction of the whole materials.
    expect(JSON.stringify(cards).length * 4).toBeLessThan(JSON.stringify(full).length);

    const inSet = (await get(`getusersmaterials?view=card&setId=${set._id}`, auth)).json()
      .generatedMaterials;
    expect(inSet).toMatchObject({ count: 1, data: [{ _id: id }] });
    const second = (await get('getusersmaterials?view=card&limit=1&page=2', auth)).json()
      .generatedMaterials;
    expect(second).toMatchObject({ count: 2, data: [{ _id: id }] });
    expect((await get('getusersmaterials?view=cards', auth)).statusCode).toBe(400);
    const stranger = await createUser(t.app);
    expect((await get('getusersmaterials?view=card', stranger.auth)).json()).toEqual({
      generatedMaterials: { data: [], count: 0 },
    });
    expect(
      (await get(`getusersmaterials?view=card&setId=${set._id}`, stranger.auth)).statusCode,
    ).toBe(404);
  });

  it("answers 404 for another user's materials and folders, on reads and writes", async () => {
    const owner = await createUser(t.app);
    const stranger = await createUser(t.app);
    const set = (await post('createset', { name: 'Mine' }, owner.auth)).json().data;
    const { id } = await generate(owner.auth);
    const attempts = [
      post('checkgeneration', { id }, stranger.auth),
      post('deletegeneratedmaterial', { id }, stranger.auth),
      post('movegeneratedmaterial', { id, setId: null }, stranger.auth),
      get(`getmaterial?id=${id}`, stranger.auth),
      get(`exportmaterial?id=${id}&format=txt`, stranger.auth),
      get(`exportmaterial?id=${id}&format=docx`),
      get(`getusersmaterials?setId=${set._id}`, stranger.auth),
      get(`getmaterialset?id=${set._id}`, stranger.auth),
      post('deletematerialset', { _id: set._id }, stranger.auth),
      post('generatematerial', form({ setId: set._id }), stranger.auth),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().errors.code).toBe('NOT_FOUND');
    }
    // A stranger's material cannot be moved into my folder either.
    const theirs = await generate(stranger.auth);
    expect(
      (await post('movegeneratedmaterial', { id: theirs.id, setId: set._id }, stranger.auth))
        .statusCode,
    ).toBe(404);
    // Nothing of the owner's changed.
    expect((await post('checkgeneration', { id }, owner.auth)).json().finished).toBe(true);
    expect((await get('getusersmaterialsets', owner.auth)).json().materialSets.count).toBe(1);
  });

  it('rejects ids that are not ids with a 400 naming the field', async () => {
    const { auth } = await createUser(t.app);
    const res = await post('checkgeneration', { id: 'not-an-id' }, auth);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.message).toContain('id');
  });

  it('deletes a material; deleting one that never finished gives its credit back', async () => {
    const { user, auth } = await createUser(t.app);
    const { id } = await generate(auth);
    expect(await credits(t, user.id)).toBe(4);
    expect((await post('deletegeneratedmaterial', { id }, auth)).json()).toEqual({
      wasSuccessful: true,
    });
    expect(await credits(t, user.id)).toBe(4);
    expect((await post('checkgeneration', { id }, auth)).statusCode).toBe(404);
    expect((await post('deletegeneratedmaterial', { id }, auth)).statusCode).toBe(404);

    // A pending material (inserted as a job would find it) refunds when deleted.
    const [pending] = await t.app.db
      .insert(generatedMaterials)
      .values({
        userId: user.id,
        name: 'x',
        grade: GRADES[3],
        subject: 'English',
        type: 'Quiz',
        referenceText: TEXT,
        status: 'failed',
        charged: false,
      })
      .returning();
    await t.app.db.update(users).set({ generationCredits: 3 }).where(eq(users.id, user.id));
    await t.app.db
      .update(generatedMaterials)
      .set({ status: 'pending', charged: true })
      .where(eq(generatedMaterials.id, pending!.id));
    await post('deletegeneratedmaterial', { id: pending!.id }, auth);
    expect(await credits(t, user.id)).toBe(4);
  });

  it('exports Word with numbered questions and the answer key on its own page, and raw text', async () => {
    const { auth } = await createUser(t.app);
    const { id } = await generate(auth, { type: 'Test' });
    const docx = await get(`exportmaterial?id=${id}&format=docx`, auth);
    expect(docx.statusCode).toBe(200);
    expect(docx.headers['content-type']).toContain('wordprocessingml');
    expect(docx.headers['content-disposition']).toContain(
      'filename="frankenstein-chapter-6-test.docx"',
    );
    const text = await docxText(docx.rawPayload);
    expect(text).toContain('Frankenstein, chapter 6');
    expect(text).toContain('Instructions:');
    expect(text).toContain('1. ');
    expect(text).toMatch(/Part 1: Multiple choice/);
    expect(text).toContain('Answer Key');
    expect(docx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    // The answer key starts a new page.
    const xml = strFromU8(unzipSync(new Uint8Array(docx.rawPayload))['word/document.xml']!);
    const key = xml.indexOf('Answer Key');
    expect(xml.lastIndexOf('<w:pageBreakBefore', key)).toBeGreaterThan(
      xml.lastIndexOf('</w:p>', key - 1) - 1,
    );
    expect(xml.slice(xml.lastIndexOf('<w:p>', key), key)).toContain('pageBreakBefore');

    const student = await get(`exportmaterial?id=${id}&format=docx&copy=student`, auth);
    const studentText = await docxText(student.rawPayload);
    expect(studentText).toContain('Name:');
    expect(studentText).not.toContain('Answer Key');

    const txt = await get(`exportmaterial?id=${id}&format=txt`, auth);
    expect(txt.headers['content-type']).toContain('text/plain');
    expect(txt.headers['content-disposition']).toContain('.txt');
    expect(txt.body).toContain('ANSWER KEY');
    const bad = await get(`exportmaterial?id=${id}&format=xls`, auth);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.message).toContain('format');
  });

  it('lists the material types, and the platform-made materials of a chapter', async () => {
    const types = await get('getavailablematerialtypes');
    expect(types.json()).toEqual(['Quiz', 'Test', 'Lesson', 'Worksheet']);

    const made = await t.app.materials.createPlatformMaterial({
      bookUrl: 'frankenstein',
      chapterUrl: 'chapter-6',
      name: 'Frankenstein: Chapter 6',
      subject: 'British Literature',
      grade: '9th Grade (Year 10)',
      type: 'Quiz',
      referenceText: TEXT,
    });
    const list = await get(
      'getavailablechaptermaterials?bookUrl=frankenstein&chapterUrl=chapter-6',
    );
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({
      count: 1,
      data: [{ _id: made._id, status: 'finished', bookUrl: 'frankenstein' }],
    });
    // The list carries cards only: the chapter page sends the text once (issue 18).
    const card = list.json().data[0];
    expect(card).not.toHaveProperty('referenceText');
    expect(card).not.toHaveProperty('output');
    expect(card.questionCount).toBeGreaterThan(0);
    const full = (await get(`getmaterial?id=${made._id}`)).json().data;
    expect(full.output.choices[0].message.content).toContain('ANSWER KEY');
    expect(card.questionCount).toBe(numberedQuestions(full.output.document).length);
    expect(card.hasLesson).toBe(Boolean(full.output.document.lesson));
    expect(
      (await get('getavailablechaptermaterials?bookUrl=frankenstein&chapterUrl=chapter-7')).json()
        .count,
    ).toBe(0);
    expect((await get('getavailablechaptermaterials?bookUrl=frankenstein')).statusCode).toBe(400);
    // Anyone may read and export a platform material.
    expect((await get(`getmaterial?id=${made._id}`)).statusCode).toBe(200);
    expect((await get(`exportmaterial?id=${made._id}&format=txt`)).statusCode).toBe(200);
  });

  it("keeps a chapter's cards until its book's materials change, on this or another instance", async () => {
    const list = async () =>
      (await get('getavailablechaptermaterials?bookUrl=dracula&chapterUrl=chapter-2')).json();
    const make = (type: string) =>
      t.app.materials.createPlatformMaterial({
        bookUrl: 'dracula',
        chapterUrl: 'chapter-2',
        name: `Dracula: Chapter 2 ${type}`,
        subject: 'British Literature',
        grade: '9th Grade (Year 10)',
        type,
        referenceText: TEXT,
      });
    expect((await list()).count).toBe(0);
    // Made here: the change drops the kept (empty) answer at once.
    const quiz = await make('Quiz');
    expect((await list()).data.map((m: { _id: string }) => m._id)).toEqual([quiz._id]);
    // Written by another instance: unseen until its change arrives (as `pg_notify` delivers it).
    const [other] = await t.app.db
      .insert(generatedMaterials)
      .values({
        ...(await t.app.db
          .select()
          .from(generatedMaterials)
          .where(eq(generatedMaterials.id, quiz._id))
          .then(([row]) => ({ ...row!, id: undefined, type: 'Test' }))),
      })
      .returning();
    expect((await list()).count).toBe(1);
    t.app.changes.publishLocal('book:frankenstein');
    expect((await list()).count).toBe(1);
    t.app.changes.publishLocal('book:dracula');
    expect((await list()).count).toBe(2);
    await t.app.db.delete(generatedMaterials).where(eq(generatedMaterials.id, other!.id));
    t.app.changes.publishLocal('*');
    expect((await list()).count).toBe(1);
  });

  it('remembers the book and chapter a material came from', async () => {
    const { auth } = await createUser(t.app);
    const { id } = await generate(auth, { bookUrl: 'frankenstein', chapterUrl: 'chapter-6' });
    const material = (await get(`getmaterial?id=${id}`, auth)).json().data;
    expect(material).toMatchObject({ bookUrl: 'frankenstein', chapterUrl: 'chapter-6' });
  });

  it('picks up a generation left running by a crash, and fails (refunding) one out of attempts', async () => {
    const { user, auth } = await createUser(t.app, { generationCredits: 2 });
    const base = {
      userId: user.id,
      name: 'Left behind',
      grade: GRADES[5],
      subject: 'English',
      type: 'Quiz',
      referenceText: TEXT,
      charged: true,
    };
    const [crashed] = await t.app.db
      .insert(generatedMaterials)
      .values({
        ...base,
        status: 'running',
        attempts: 1,
        leaseUntil: new Date(Date.now() - 60_000),
      })
      .returning();
    const [exhausted] = await t.app.db
      .insert(generatedMaterials)
      .values({
        ...base,
        status: 'running',
        attempts: MAX_ATTEMPTS,
        leaseUntil: new Date(Date.now() - 60_000),
      })
      .returning();
    await t.app.materials.recoverStalled();
    const done = await waitFor(async () => {
      const c = (await post('checkgeneration', { id: crashed!.id }, auth)).json();
      return c.finished ? c : undefined;
    });
    expect(done.status).toBe('finished');
    const failed = (await post('checkgeneration', { id: exhausted!.id }, auth)).json();
    expect(failed).toMatchObject({ finished: false, status: 'failed' });
    expect(failed.error).toContain('interrupted');
    expect(failed.error).toContain('credit has been given back');
    expect(await credits(t, user.id)).toBe(3);
  });

  it('does not run a material twice when two workers claim it', async () => {
    const { auth } = await createUser(t.app);
    const { id } = await generate(auth);
    const [before] = await t.app.db
      .select()
      .from(generatedMaterials)
      .where(eq(generatedMaterials.id, id));
    await Promise.all([t.app.materials.runGeneration(id), t.app.materials.runGeneration(id)]);
    const [after] = await t.app.db
      .select()
      .from(generatedMaterials)
      .where(eq(generatedMaterials.id, id));
    expect(after!.attempts).toBe(before!.attempts);
    expect(after!.finishedAt?.getTime()).toBe(before!.finishedAt?.getTime());
  });
});
