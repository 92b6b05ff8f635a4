import { OfficeParser } from 'officeparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EVIDENCE_NOT_FOUND_MESSAGE,
  MATERIAL_LIMITS,
  MaterialOutputSchema,
  numberedQuestions,
  type Material,
  type MaterialDocument,
  type MultipleChoiceQuestion,
  type Question,
} from '@chapterwise/shared';
import { generatedMaterials } from '../../db/schema/index.js';
import { chapter } from '../../test/chapters.js';
import { createTestApp, createUser, type TestApp } from '../../test/helpers.js';

const TEXT = chapter(84).text;
const BOOK = 'frankenstein';
const CHAPTER = 'chapter-6';
/** A quote no chapter of Frankenstein holds. */
const NOT_IN_TEXT = 'The moon was made of green cheese that night, and the whole village ate it.';

type Auth = { authorization: string };

async function docxText(bytes: Buffer): Promise<string> {
  return (await OfficeParser.parseOffice(bytes)).toText();
}

const clone = <T>(value: T): T => structuredClone(value);

describe('editing a material', () => {
  let t: TestApp;
  let quiz: Material;
  let lesson: Material;

  beforeAll(async () => {
    t = await createTestApp();
    // Ready-made chapter materials (made by the real generator and its gate), which teachers
    // get their own copies of: the same path as a bought chapter pack.
    const base = {
      bookUrl: BOOK,
      chapterUrl: CHAPTER,
      subject: 'English',
      grade: '8th Grade (Year 9)',
      referenceText: TEXT,
    };
    quiz = await t.app.materials.createPlatformMaterial({ ...base, name: 'Quiz 6', type: 'Quiz' });
    lesson = await t.app.materials.createPlatformMaterial({
      ...base,
      name: 'Lesson 6',
      type: 'Lesson',
    });
  }, 120_000);
  afterAll(() => t.close());

  const post = (url: string, payload: unknown, auth?: Auth) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/materials/${url}`,
      ...(typeof payload === 'string'
        ? { payload, headers: { 'content-type': 'application/json', ...auth } }
        : { payload: payload as object, ...(auth ? { headers: auth } : {}) }),
    });
  const get = (url: string, auth?: Auth) =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/materials/${url}`,
      ...(auth ? { headers: auth } : {}),
    });

  /** A teacher with their own copies of the chapter's quiz and lesson. */
  async function teacher() {
    const { user, auth } = await createUser(t.app);
    await t.app.materials.copyChapterMaterials(user.id, BOOK, CHAPTER);
    const list = (await get('getusersmaterials', auth)).json().generatedMaterials
      .data as Material[];
    const own = (type: string) => list.find((m) => m.type === type)!;
    return { user, auth, quiz: own('Quiz'), lesson: own('Lesson') };
  }

  const documentOf = (material: Material): MaterialDocument =>
    clone(MaterialOutputSchema.parse(material.output).document);

  const update = (auth: Auth, id: string, document: unknown, name?: string) =>
    post('updatematerial', { id, document, ...(name !== undefined ? { name } : {}) }, auth);

  /** Sends the material's document changed by `change`, and expects a 400 with `message`. */
  async function expectRefused(
    auth: Auth,
    material: Material,
    change: (document: MaterialDocument) => void,
    message: string | RegExp,
  ) {
    const document = documentOf(material);
    change(document);
    const res = await update(auth, material._id, document);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors.code).toBe('BAD_REQUEST');
    if (typeof message === 'string') expect(res.json().errors.message).toBe(message);
    else expect(res.json().errors.message).toMatch(message);
  }

  const mcOf = (document: MaterialDocument) =>
    document.sections.find((s) => s.questions[0]?.kind === 'multiple_choice')!
      .questions as MultipleChoiceQuestion[];
  const tfSection = (document: MaterialDocument) =>
    document.sections.find((s) => s.questions[0]?.kind === 'true_false')!;

  it('lets the owner rename, reword, change choices and the key, reorder, delete and add questions', async () => {
    const { auth, quiz: mine } = await teacher();
    const document = documentOf(mine);
    const before = numberedQuestions(document);
    const mc = mcOf(document);
    expect(mc.length).toBeGreaterThanOrEqual(3);

    document.title = 'Chapter 6, checked by Ms Rivera';
    document.instructions = 'Answer in pencil.';
    mc[0]!.prompt = 'Which of these does the text say?';
    mc[0]!.choices = [...mc[0]!.choices.slice(0, 2), 'None of these'];
    mc[0]!.answerIndex = 2;
    const [first, second] = [mc[1]!, mc[2]!];
    mc[1] = second;
    mc[2] = first;
    const deleted = mc.pop()!;
    const added: Question = {
      id: 'new-1',
      kind: 'short_answer',
      prompt: 'Who wrote the letter that Victor reads in this chapter?',
      answer: 'Elizabeth wrote it.',
      evidence: before[0]!.kind === 'matching' ? '' : before[0]!.evidence,
    };
    document.sections.push({ title: 'Short answer', instructions: '', questions: [added] });

    const res = await update(auth, mine._id, document, 'Frankenstein 6 (edited)');
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json().data as Material;
    expect(saved.name).toBe('Frankenstein 6 (edited)');
    expect(saved.editedAt).toEqual(expect.any(String));
    const out = MaterialOutputSchema.parse(saved.output);
    const doc = out.document;
    expect(doc.title).toBe('Chapter 6, checked by Ms Rivera');
    expect(doc.instructions).toBe('Answer in pencil.');
    const savedMc = mcOf(doc);
    expect(savedMc[0]).toMatchObject({
      prompt: 'Which of these does the text say?',
      answerIndex: 2,
      choices: [...mc[0]!.choices],
    });
    expect(savedMc[1]!.prompt).toBe(second.prompt);
    expect(savedMc[2]!.prompt).toBe(first.prompt);
    const all = numberedQuestions(doc);
    expect(all.map((q) => q.prompt)).not.toContain(deleted.prompt);
    expect(all.at(-1)).toMatchObject({ kind: 'short_answer', prompt: added.prompt });
    expect(all.length).toBe(before.length);
    // Numbered again, in order; no client id survives.
    expect(all.map((q) => q.id)).toEqual(all.map((_, i) => `q${i + 1}`));

    // The text teachers read is made again from the document.
    const content = out.choices[0]!.message.content;
    expect(content).toContain('Chapter 6, checked by Ms Rivera');
    expect(content).toContain('1. Which of these does the text say?');
    expect(content).toContain('   C. None of these');
    expect(content).toMatch(/ANSWER KEY\n\n1\. C\. None of these/);
    expect(content).not.toContain(deleted.prompt);

    // Reading it back gives the same material.
    const read = (await get(`getmaterial?id=${mine._id}`, auth)).json().data;
    expect(read.output).toEqual(saved.output);
    expect(read.name).toBe('Frankenstein 6 (edited)');
  });

  it('refuses each broken rule with a 400 naming the question', async () => {
    const { auth, quiz: mine } = await teacher();
    /** The number of the first true/false question (they follow the multiple-choice part). */
    const tfNumber = mcOf(documentOf(mine)).length + 1;

    await expectRefused(
      auth,
      mine,
      (d) => (mcOf(d)[2]!.choices[1] = mcOf(d)[2]!.choices[0]!.toUpperCase()),
      'Question 3: the choices must be different.',
    );
    await expectRefused(
      auth,
      mine,
      (d) => (mcOf(d)[0]!.choices[1] = '   '),
      'Question 1: choice B is empty.',
    );
    await expectRefused(
      auth,
      mine,
      (d) => (mcOf(d)[0]!.choices[1] = '?!'),
      'Question 1: choice B needs a word or a number.',
    );
    await expectRefused(
      auth,
      mine,
      (d) => {
        mcOf(d)[1]!.choices = ['Only one'];
        mcOf(d)[1]!.answerIndex = 0;
      },
      'Question 2: there must be at least 2 choices.',
    );
    await expectRefused(
      auth,
      mine,
      (d) => (mcOf(d)[1]!.choices = ['a', 'b', 'c', 'd', 'e', 'f', 'g']),
      'Question 2: there can be at most 6 choices.',
    );
    await expectRefused(
      auth,
      mine,
      (d) => (mcOf(d)[0]!.answerIndex = mcOf(d)[0]!.choices.length),
      'Question 1: the correct answer must be one of the choices.',
    );
    await expectRefused(
      auth,
      mine,
      (d) => delete (tfSection(d).questions[0] as { answer?: boolean }).answer,
      `Question ${tfNumber}: choose whether the statement is true or false.`,
    );
    await expectRefused(
      auth,
      mine,
      (d) => (tfSection(d).questions[1]!.prompt = ` ${tfSection(d).questions[0]!.prompt}  `),
      `Question ${tfNumber + 1}: it is the same as question ${tfNumber}.`,
    );
    await expectRefused(
      auth,
      mine,
      (d) => (mcOf(d)[0]!.prompt = 'x'.repeat(4001)),
      'Question 1: the prompt must be at most 4000 characters.',
    );
    await expectRefused(
      auth,
      mine,
      (d) => (mcOf(d)[0]!.prompt = ''),
      'Question 1: the prompt is required.',
    );
    await expectRefused(
      auth,
      mine,
      (d) => (mcOf(d)[0]!.evidence = ' '),
      'Question 1: the evidence quote is required.',
    );
    await expectRefused(
      auth,
      mine,
      (d) =>
        d.sections.push({
          title: 'Matching',
          instructions: '',
          questions: [
            {
              id: 'm',
              kind: 'matching',
              prompt: 'Match the people.',
              pairs: [
                { left: 'Victor', right: 'the student', evidence: NOT_IN_TEXT },
                { left: 'victor ', right: 'the friend', evidence: NOT_IN_TEXT },
              ],
              order: [1, 0],
            },
          ],
        }),
      `Question ${numberedQuestions(documentOf(mine)).length + 1}: the items to match must be different.`,
    );
    await expectRefused(
      auth,
      mine,
      (d) =>
        d.sections.push({
          title: 'Fill in the blank',
          instructions: '',
          questions: [
            {
              id: 'f',
              kind: 'fill_blank',
              prompt: 'Victor was ill.',
              answer: 'ill',
              evidence: NOT_IN_TEXT,
            },
          ],
        }),
      `Question ${numberedQuestions(documentOf(mine)).length + 1}: the prompt needs a blank (___) where the answer goes.`,
    );
    await expectRefused(
      auth,
      mine,
      (d) => (mcOf(d)[0] = { ...mcOf(d)[0]!, kind: 'essay' } as unknown as MultipleChoiceQuestion),
      /^Question 1: the kind of question must be one of multiple_choice, true_false/,
    );
    await expectRefused(
      auth,
      mine,
      (d) => {
        const q = mcOf(d)[0]!;
        d.sections = [
          {
            title: 'Many',
            instructions: '',
            questions: Array.from({ length: MATERIAL_LIMITS.questions + 1 }, (_, i) => ({
              ...q,
              prompt: `Question number ${i}?`,
            })),
          },
        ];
      },
      `Part 1: there can be at most ${MATERIAL_LIMITS.questions} questions in a part.`,
    );
    await expectRefused(
      auth,
      mine,
      (d) => {
        const q = mcOf(d)[0]!;
        d.sections = [0, 1].map((s) => ({
          title: `Part ${s}`,
          instructions: '',
          questions: Array.from({ length: 31 }, (_, i) => ({ ...q, prompt: `Q ${s}-${i}?` })),
        }));
      },
      `A material can have at most ${MATERIAL_LIMITS.questions} questions, and this one has 62.`,
    );
    await expectRefused(
      auth,
      mine,
      (d) => (d.sections = []),
      'A material needs at least one question.',
    );
    await expectRefused(auth, mine, (d) => (d.title = ''), 'The title is required.');
    await expectRefused(
      auth,
      mine,
      (d) => (d.instructions = 'i'.repeat(2001)),
      'The instructions must be at most 2000 characters.',
    );
    const name = await post(
      'updatematerial',
      { id: mine._id, name: ' ', document: documentOf(mine) },
      auth,
    );
    expect(name.statusCode).toBe(400);
    expect(name.json().errors.message).toContain('name');

    // Nothing was stored by the refused edits.
    const read = (await get(`getmaterial?id=${mine._id}`, auth)).json().data;
    expect(read.output).toEqual(mine.output);
    expect(read.editedAt).toBeUndefined();
  });

  it('checks the lesson: vocabulary, activities, objectives and exit ticket, with its length recomputed', async () => {
    const { auth, lesson: mine } = await teacher();
    const stored = documentOf(mine);
    expect(stored.lesson).toBeDefined();
    expect(stored.vocabulary.length).toBeGreaterThanOrEqual(2);

    await expectRefused(
      auth,
      mine,
      (d) => (d.vocabulary[1]!.term = d.vocabulary[0]!.term),
      `Vocabulary word 2: “${stored.vocabulary[0]!.term}” is already word 1.`,
    );
    await expectRefused(
      auth,
      mine,
      (d) => (d.vocabulary[0]!.definition = ''),
      'Vocabulary word 1: the definition is required.',
    );
    await expectRefused(
      auth,
      mine,
      (d) => (d.lesson!.activities[1]!.minutes = 0),
      'Activity 2: the minutes must be at least 1.',
    );
    await expectRefused(
      auth,
      mine,
      (d) => (d.lesson!.activities[0]!.minutes = 2.5),
      'Activity 1: the minutes must be a whole number.',
    );
    await expectRefused(
      auth,
      mine,
      (d) => (d.lesson!.objectives[0] = ''),
      'Objective 1: the objective is empty.',
    );
    await expectRefused(
      auth,
      mine,
      (d) => d.lesson!.activities.forEach((a) => (a.minutes = 200)),
      /^The lesson's activities take \d+ minutes in all; a lesson takes 10 to 240 minutes\.$/,
    );
    await expectRefused(
      auth,
      mine,
      (d) => (d.lesson!.exitTicket = []),
      'The lesson plan: there must be at least 1 exit-ticket question.',
    );
    await expectRefused(
      auth,
      mine,
      (d) => delete d.lesson,
      'The lesson plan cannot be removed; edit or delete its parts instead.',
    );

    // A good edit: new minutes (the length follows), a reworded objective and exit question;
    // what the client may not change is kept from the stored document.
    const document = documentOf(mine);
    document.lesson!.activities[0]!.minutes += 5;
    document.lesson!.activities[0]!.title = 'Warm-up with a picture';
    document.lesson!.objectives[0] = 'retell what Victor learns from the letter';
    document.lesson!.exitTicket[0]!.prompt = 'Exit: what did the letter say?';
    document.lesson!.durationMinutes = 11;
    document.lesson!.keyPassages = ['A passage I made up and that is not a quote at all.'];
    document.type = 'Quiz';
    document.grade = 'Collegiate';
    document.subject = 'Chemistry';
    document.generator = { engine: 'human', droppedQuestions: 0, unverified: true, notes: [] };
    const res = await update(auth, mine._id, document);
    expect(res.statusCode, res.body).toBe(200);
    const saved = MaterialOutputSchema.parse(res.json().data.output).document;
    expect(saved.lesson!.durationMinutes).toBe(stored.lesson!.durationMinutes + 5);
    expect(saved.lesson!.activities[0]!.title).toBe('Warm-up with a picture');
    expect(saved.lesson!.objectives[0]).toBe('retell what Victor learns from the letter');
    expect(saved.lesson!.exitTicket[0]!.prompt).toBe('Exit: what did the letter say?');
    expect(saved.lesson!.keyPassages).toEqual(stored.lesson!.keyPassages);
    expect(saved).toMatchObject({
      type: stored.type,
      grade: stored.grade,
      subject: stored.subject,
      generator: stored.generator,
    });
    expect(res.json().data.output.choices[0].message.content).toContain(
      `LESSON PLAN (${stored.lesson!.durationMinutes + 5} minutes)`,
    );
  });

  it('refuses to add a lesson plan to a quiz', async () => {
    const { auth, quiz: mine, lesson: theirLesson } = await teacher();
    const document = documentOf(mine);
    document.lesson = documentOf(theirLesson).lesson;
    const res = await update(auth, mine._id, document);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.message).toBe(
      'This material has no lesson plan, and one cannot be added by editing.',
    );
  });

  it('marks an edited quote the text does not hold, and clears the mark once it is fixed', async () => {
    const { auth, quiz: mine } = await teacher();
    const document = documentOf(mine);
    const original = mcOf(document)[1]!.evidence;
    mcOf(document)[1]!.evidence = NOT_IN_TEXT;
    // What a client says about the evidence is not believed, either way.
    (mcOf(document)[0] as { evidenceFound?: boolean }).evidenceFound = false;
    (tfSection(document).questions[0] as { evidenceFound?: boolean }).evidenceFound = true;
    (tfSection(document).questions[0] as { evidence: string }).evidence = `${NOT_IN_TEXT} Again.`;
    const added: Question = {
      id: 'new',
      kind: 'true_false',
      prompt: 'Victor and Henry walked for a fortnight.',
      answer: true,
      // A quote reworded with different quotation marks and spacing still counts (gate rules).
      evidence: original.replace(/\s+/g, '  ').replace(/"/g, '“'),
    };
    tfSection(document).questions.push(added);

    const res = await update(auth, mine._id, document);
    expect(res.statusCode, res.body).toBe(200);
    const saved = MaterialOutputSchema.parse(res.json().data.output).document;
    const marks = numberedQuestions(saved).map((q) => q.evidenceFound);
    const tfStart = mcOf(saved).length;
    const expected: Array<boolean | undefined> = marks.map(() => undefined);
    expected[1] = false;
    expected[tfStart] = false;
    expect(marks).toEqual(expected);
    const content = res.json().data.output.choices[0].message.content as string;
    expect(content.split(`Warning: ${EVIDENCE_NOT_FOUND_MESSAGE}`)).toHaveLength(3);
    expect(content).toMatch(
      new RegExp(`\\n2\\. [^\\n]+\\n {3}Evidence: [^\\n]+green cheese[^\\n]+\\n {3}Warning: `),
    );

    // Fixed: the quote is the text's again, and the mark goes.
    const fixed = clone(saved);
    mcOf(fixed)[1]!.evidence = original;
    const again = await update(auth, mine._id, fixed);
    expect(again.statusCode, again.body).toBe(200);
    const after = MaterialOutputSchema.parse(again.json().data.output).document;
    expect(numberedQuestions(after).map((q) => q.evidenceFound)).toEqual(
      expected.map((v, i) => (i === 1 ? undefined : v)),
    );
    const fixedContent = again.json().data.output.choices[0].message.content as string;
    expect(fixedContent.split(`Warning: ${EVIDENCE_NOT_FOUND_MESSAGE}`)).toHaveLength(2);
    expect(fixedContent).toContain(`${NOT_IN_TEXT} Again.`);
  });

  it('checks vocabulary examples the same way', async () => {
    const { auth, lesson: mine } = await teacher();
    const document = documentOf(mine);
    document.vocabulary[0]!.context = NOT_IN_TEXT;
    const res = await update(auth, mine._id, document);
    expect(res.statusCode, res.body).toBe(200);
    const saved = MaterialOutputSchema.parse(res.json().data.output).document;
    expect(saved.vocabulary.map((v) => v.evidenceFound)).toEqual(
      saved.vocabulary.map((_, i) => (i === 0 ? false : undefined)),
    );
    expect(res.json().data.output.choices[0].message.content).toContain(
      `In the text: “${NOT_IN_TEXT}”\n   Warning: ${EVIDENCE_NOT_FOUND_MESSAGE}`,
    );
  });

  it('gives a matching question whose pairs changed a new order in which no item stays by its term', async () => {
    const { auth, quiz: mine } = await teacher();
    const document = documentOf(mine);
    const quotes = [
      ...new Set(
        numberedQuestions(document).flatMap((q) => (q.kind === 'matching' ? [] : [q.evidence])),
      ),
    ];
    document.sections.push({
      title: 'Matching',
      instructions: 'Match them.',
      questions: [
        {
          id: 'm',
          kind: 'matching',
          prompt: 'Match each quote to its number.',
          pairs: quotes.slice(0, 4).map((evidence, i) => ({
            left: `Quote ${i + 1}`,
            right: evidence.slice(0, 40),
            evidence,
          })),
          order: [0, 1],
        },
      ],
    });
    const res = await update(auth, mine._id, document);
    expect(res.statusCode, res.body).toBe(200);
    const saved = MaterialOutputSchema.parse(res.json().data.output).document;
    const matching = numberedQuestions(saved).find((q) => q.kind === 'matching')!;
    if (matching.kind !== 'matching') throw new Error('no matching question');
    expect([...matching.order].sort()).toEqual([0, 1, 2, 3]);
    matching.order.forEach((pairIndex, shownAt) => expect(pairIndex).not.toBe(shownAt));
    // "Quote 1" is a term the gate would not find in its evidence; the edit check is only
    // about the quote, which is the text's.
    expect(matching.evidenceFound).toBeUndefined();
  });

  it("answers 404 for another teacher's material and for platform materials, 409 before it has finished", async () => {
    const owner = await teacher();
    const stranger = await teacher();
    const document = documentOf(owner.quiz);
    for (const res of await Promise.all([
      update(stranger.auth, owner.quiz._id, document),
      update(owner.auth, quiz._id, documentOf(quiz)),
      update(owner.auth, lesson._id, documentOf(lesson)),
      update(owner.auth, '00000000-0000-4000-8000-000000000000', document),
    ])) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json().errors).toEqual({ code: 'NOT_FOUND', message: 'Material not found.' });
    }
    expect((await get(`getmaterial?id=${owner.quiz._id}`, owner.auth)).json().data.output).toEqual(
      owner.quiz.output,
    );
    expect((await get(`getmaterial?id=${quiz._id}`)).json().data.output).toEqual(quiz.output);

    const values = {
      userId: owner.user.id,
      name: 'Unfinished',
      grade: '8th Grade (Year 9)',
      subject: 'English',
      type: 'Quiz',
      referenceText: TEXT,
    };
    const [pending] = await t.app.db
      .insert(generatedMaterials)
      .values({ ...values, status: 'running' })
      .returning();
    const [failed] = await t.app.db
      .insert(generatedMaterials)
      .values({ ...values, status: 'failed', error: 'The generator failed.' })
      .returning();
    const running = await update(owner.auth, pending!.id, document);
    expect(running.statusCode).toBe(409);
    expect(running.json().errors).toEqual({
      code: 'CONFLICT',
      message: 'This material is still generating. You can edit it once it has finished.',
    });
    const broken = await update(owner.auth, failed!.id, document);
    expect(broken.statusCode).toBe(409);
    expect(broken.json().errors.message).toMatch(/did not finish generating/);
    expect((await post('updatematerial', { id: owner.quiz._id, document })).statusCode).toBe(401);
  });

  it('answers malformed bodies with a 400, never a 500', async () => {
    const { auth, quiz: mine } = await teacher();
    const good = documentOf(mine);
    const q = mcOf(good)[0]!;
    const withQuestion = (question: unknown) => ({
      ...good,
      sections: [{ title: 'x', instructions: '', questions: [question] }],
    });
    const bodies: unknown[] = [
      {},
      { id: mine._id },
      { id: 'not-an-id', document: good },
      { id: mine._id, document: null },
      { id: mine._id, document: 'a quiz' },
      { id: mine._id, document: [good] },
      { id: mine._id, document: {} },
      { id: mine._id, document: { ...good, sections: 'x' } },
      { id: mine._id, document: { ...good, sections: [null] } },
      { id: mine._id, document: { ...good, sections: [{ title: 'x', questions: 'y' }] } },
      { id: mine._id, document: { ...good, vocabulary: [{ term: 7 }] } },
      { id: mine._id, document: { ...good, lesson: 'yes' } },
      { id: mine._id, document: withQuestion(null) },
      { id: mine._id, document: withQuestion([]) },
      { id: mine._id, document: withQuestion({ ...q, choices: [1, 2] }) },
      { id: mine._id, document: withQuestion({ ...q, choices: 'A, B' }) },
      { id: mine._id, document: withQuestion({ ...q, answerIndex: '1' }) },
      { id: mine._id, document: withQuestion({ ...q, answerIndex: 1.5 }) },
      { id: mine._id, document: withQuestion({ ...q, answerIndex: -1 }) },
      { id: mine._id, document: withQuestion({ ...q, kind: undefined }) },
      { id: mine._id, document: withQuestion({ ...q, prompt: { text: 'x' } }) },
      { id: mine._id, document: withQuestion({ ...q, id: '' }) },
      {
        id: mine._id,
        document: withQuestion({
          id: 'm',
          kind: 'matching',
          prompt: 'M',
          pairs: [null, 3],
          order: 'x',
        }),
      },
      { id: mine._id, document: good, name: 'n'.repeat(MATERIAL_LIMITS.name + 1) },
      { id: mine._id, document: good, name: 42 },
      '{"id": "',
      '[]',
      'null',
    ];
    for (const body of bodies) {
      const res = await post('updatematerial', body, auth);
      expect(res.statusCode, `${JSON.stringify(body).slice(0, 200)} → ${res.body}`).toBe(400);
      expect(res.json().errors.code).toBe('BAD_REQUEST');
      expect(res.json().errors.message.length).toBeGreaterThan(5);
    }
    const messages = await Promise.all(
      [withQuestion(null), withQuestion({ ...q, answerIndex: '1' })].map(
        async (document) => (await update(auth, mine._id, document)).json().errors.message,
      ),
    );
    expect(messages).toEqual([
      'Question 1: the question must be an object.',
      'Question 1: the correct choice must be a number.',
    ]);
    const text = await t.app.inject({
      method: 'POST',
      url: '/api/v1/materials/updatematerial',
      headers: { ...auth, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    // Fastify reads text/plain as a string: not an object, so a 400 too.
    expect(text.statusCode).toBe(400);
  });

  it('exports the edit and the warning: Word (read back) and text, teacher and student copies', async () => {
    const { auth, quiz: mine } = await teacher();
    const document = documentOf(mine);
    mcOf(document)[0]!.prompt = 'Which friend nursed Victor through the winter?';
    mcOf(document)[1]!.evidence = NOT_IN_TEXT;
    const res = await update(auth, mine._id, document, 'Edited quiz');
    expect(res.statusCode, res.body).toBe(200);

    const docx = await get(`exportmaterial?id=${mine._id}&format=docx`, auth);
    expect(docx.statusCode).toBe(200);
    expect(docx.headers['content-disposition']).toContain('filename="edited-quiz.docx"');
    const teacherText = await docxText(docx.rawPayload);
    expect(teacherText).toContain('Which friend nursed Victor through the winter?');
    expect(teacherText).toContain(`Warning: ${EVIDENCE_NOT_FOUND_MESSAGE}`);
    expect(teacherText.split(EVIDENCE_NOT_FOUND_MESSAGE)).toHaveLength(2);
    expect(teacherText.indexOf(EVIDENCE_NOT_FOUND_MESSAGE)).toBeGreaterThan(
      teacherText.indexOf('Answer Key'),
    );

    const student = await docxText(
      (await get(`exportmaterial?id=${mine._id}&format=docx&copy=student`, auth)).rawPayload,
    );
    expect(student).toContain('Which friend nursed Victor through the winter?');
    expect(student).not.toContain(EVIDENCE_NOT_FOUND_MESSAGE);
    expect(student).not.toContain('green cheese');

    const txt = await get(`exportmaterial?id=${mine._id}&format=txt`, auth);
    expect(txt.body).toBe(res.json().data.output.choices[0].message.content);
    expect(txt.body).toContain('1. Which friend nursed Victor through the winter?');
    expect(txt.body).toContain(`   Warning: ${EVIDENCE_NOT_FOUND_MESSAGE}`);
    const studentTxt = await get(`exportmaterial?id=${mine._id}&format=txt&copy=student`, auth);
    expect(studentTxt.body).not.toContain('Warning');
  });

  it('leaves a material without a reference text unverified, with no marks', async () => {
    const { user, auth } = await createUser(t.app);
    const document = documentOf(quiz);
    document.generator = { ...document.generator, unverified: true };
    const [row] = await t.app.db
      .insert(generatedMaterials)
      .values({
        userId: user.id,
        name: 'From memory',
        grade: '8th Grade (Year 9)',
        subject: 'English',
        type: 'Quiz',
        referenceText: '',
        status: 'finished',
        output: { choices: [{ message: { role: 'assistant', content: 'x' } }], document },
      })
      .returning();
    const edited = clone(document);
    mcOf(edited)[0]!.evidence = NOT_IN_TEXT;
    const res = await update(auth, row!.id, edited);
    expect(res.statusCode, res.body).toBe(200);
    const saved = MaterialOutputSchema.parse(res.json().data.output).document;
    expect(numberedQuestions(saved).every((q) => q.evidenceFound === undefined)).toBe(true);
    expect(saved.generator.unverified).toBe(true);
    const content = res.json().data.output.choices[0].message.content;
    expect(content).not.toContain('Warning');
    expect(content).toContain('no reference text was given');
  });
});
