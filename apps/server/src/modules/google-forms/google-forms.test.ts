import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numberedQuestions, type MaterialDocument, type Question } from '@chapterwise/shared';
import { generatedMaterials, googleAccounts } from '../../db/schema/index.js';
import { FakeGoogle } from '../../test/fake-google.js';
import { hostileDocument } from '../../test/material-fixtures.js';
import { createTestApp, createUser, type TestApp } from '../../test/helpers.js';
import { toOutput } from '../materials/materials.service.js';

type Auth = { authorization: string };
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read field by field
type Answer = Record<string, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the fake's stored items
type Item = Record<string, any>;

const fake = new FakeGoogle();
let t: TestApp;

beforeAll(async () => {
  await fake.start();
  t = await createTestApp({
    GOOGLE_CLIENT_ID: fake.clientId,
    GOOGLE_CLIENT_SECRET: fake.clientSecret,
    GOOGLE_API_BASE: fake.base,
  });
});
afterAll(async () => {
  await t?.close();
  await fake.stop();
});

async function insertMaterial(
  userId: string | null,
  document: MaterialDocument = hostileDocument(),
  status: 'finished' | 'pending' = 'finished',
) {
  const [row] = await t.app.db
    .insert(generatedMaterials)
    .values({
      userId,
      name: 'Letter 1 test',
      grade: document.grade,
      subject: document.subject,
      type: document.type,
      referenceText: '',
      status,
      output: status === 'finished' ? toOutput(document) : null,
      isPlatform: userId === null,
    })
    .returning();
  return row!;
}

async function send(auth: Auth, id: string, returnTo = '/dashboard?folder=7') {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v1/google/forms',
    headers: auth,
    payload: { id, returnTo },
  });
  return { status: response.statusCode, body: response.json() as Answer };
}

/** The browser's part: Google's consent page, then our callback; answers where we land. */
async function consent(authorizeUrl: string): Promise<URL> {
  const google = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(google.status).toBe(302);
  const back = new URL(google.headers.get('location')!);
  expect(`${back.origin}${back.pathname}`).toBe(
    'http://localhost:3000/api/v1/google/oauth/callback',
  );
  const callback = await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
  expect(callback.statusCode).toBe(303);
  return new URL(callback.headers.location as string, 'http://localhost:3000');
}

/** The questions as Google Forms holds them, read back from the form's items. */
function readBack(items: Item[]) {
  const out: Array<{
    kind: string;
    title: string;
    options?: string[];
    correct?: string[];
    graded: boolean;
    feedback?: string;
  }> = [];
  for (const item of items) {
    const question = item.questionItem?.question;
    if (!question) continue;
    const grading = question.grading;
    out.push({
      kind: question.choiceQuestion
        ? question.choiceQuestion.type
        : question.textQuestion.paragraph
          ? 'PARAGRAPH'
          : 'TEXT',
      title: item.title,
      options: question.choiceQuestion?.options.map((o: { value: string }) => o.value),
      correct: grading?.correctAnswers?.answers.map((a: { value: string }) => a.value),
      graded: Boolean(grading),
      feedback: grading?.whenRight?.text ?? grading?.generalFeedback?.text,
    });
  }
  return out;
}

const flat = (text: string) => text.replace(/\s+/g, ' ').trim();

/** What the material's document says each question should become in Forms. */
function expected(document: MaterialDocument) {
  return numberedQuestions(document).flatMap((q: Question) => {
    switch (q.kind) {
      case 'multiple_choice':
        return [
          {
            kind: 'RADIO',
            title: flat(q.prompt),
            options: q.choices.map(flat),
            correct: [flat(q.choices[q.answerIndex]!)],
            graded: true,
          },
        ];
      case 'true_false':
        return [
          {
            kind: 'RADIO',
            title: flat(`True or false: ${q.prompt}`),
            options: ['True', 'False'],
            correct: [q.answer ? 'True' : 'False'],
            graded: true,
          },
        ];
      case 'fill_blank':
        return [{ kind: 'TEXT', title: flat(q.prompt), correct: [flat(q.answer)], graded: true }];
      case 'short_answer':
      case 'discussion':
        return [{ kind: 'PARAGRAPH', title: flat(q.prompt), graded: false }];
      case 'matching': {
        const shown = q.order.map((i) => flat(q.pairs[i]!.right));
        return q.pairs.map((pair) => ({
          kind: 'DROP_DOWN',
          title: flat(pair.left),
          options: shown,
          correct: [flat(pair.right)],
          graded: true,
        }));
      }
    }
  });
}

describe('Send to Google Forms', () => {
  it('connects with OAuth (PKCE), makes a quiz whose questions and answer keys read back as the material', async () => {
    const { user, auth } = await createUser(t.app);
    const document = hostileDocument();
    const material = await insertMaterial(user.id, document);

    const status = await t.app.inject({
      method: 'GET',
      url: '/api/v1/google/status',
      headers: auth,
    });
    expect(status.json()).toEqual({ configured: true, connected: false, email: null });

    const first = await send(auth, material.id);
    expect(first.status).toBe(200);
    expect(first.body.data.status).toBe('authorize');
    const authorize = new URL(first.body.data.authorizeUrl);
    expect(authorize.origin).toBe(fake.base);
    expect(authorize.searchParams.get('redirect_uri')).toBe(
      'http://localhost:3000/api/v1/google/oauth/callback',
    );

    const landed = await consent(first.body.data.authorizeUrl);
    expect(landed.pathname).toBe('/dashboard');
    expect(landed.searchParams.get('folder')).toBe('7');
    expect(landed.searchParams.get('googleForms')).toBe('created');
    const formId = landed.searchParams.get('formId')!;
    const form = fake.form(formId)!;
    expect(form).toBeDefined();
    expect(form.info.title).toBe('Frankenstein </xml> {Letter 1} Test');
    expect(form.info.documentTitle).toBe('Letter 1 test');
    expect(form.info.description).toContain('Answer every question. Use the text & cite it.');
    expect(form.settings.quizSettings).toEqual({ isQuiz: true });

    // Every question, in order, with its options and answer key, as the document has them.
    expect(readBack(form.items).map(({ feedback: _, ...rest }) => rest)).toEqual(
      expected(document).map((e) => ({ options: undefined, correct: undefined, ...e })),
    );
    expect(Number(landed.searchParams.get('questions'))).toBe(numberedQuestions(document).length);
    // The evidence is the feedback; a teacher's "quote not found" mark never reaches students.
    const feedback = readBack(form.items).map((q) => q.feedback ?? '');
    expect(feedback[0]).toBe('Evidence: “I write to you from St. Petersburgh.”');
    expect(feedback.join(' ')).not.toMatch(/not found/i);
    // Parts are headed, the matching prompt is a text item, the vocabulary is named as left out.
    const texts = form.items.filter((i: Item) => i.textItem).map((i: Item) => i.title);
    expect(texts).toContain('Part 1: Multiple choice');
    expect(texts).toContain('Match each place with what Walton says of it.');
    expect(texts).toContain('Exit ticket');
    const notes = landed.searchParams.get('notes') ?? '';
    expect(notes).toContain('The vocabulary list (2 words) was left out.');
    expect(notes).toContain('2 short-answer or discussion questions have no answer key');

    // The tokens are kept sealed: none of them is in the row in clear.
    const [row] = await t.app.db
      .select()
      .from(googleAccounts)
      .where(eq(googleAccounts.userId, user.id));
    const stored = JSON.stringify(row);
    for (const token of fake.issuedTokens()) expect(stored).not.toContain(token);
    expect(row!.refreshTokenSealed).toMatch(/^v1\./);

    const connected = await t.app.inject({
      method: 'GET',
      url: '/api/v1/google/status',
      headers: auth,
    });
    expect(connected.json()).toEqual({
      configured: true,
      connected: true,
      email: expect.stringMatching(/@school\.example$/),
    });

    // Connected: the next send makes the form at once.
    const again = await send(auth, material.id);
    expect(again.status).toBe(201);
    expect(again.body.data).toMatchObject({
      status: 'created',
      editUrl: `https://docs.google.com/forms/d/${again.body.data.formId}/edit`,
      questionCount: numberedQuestions(document).length,
    });
    expect(fake.form(again.body.data.formId)!.items).toHaveLength(form.items.length);
  });

  it('refreshes an expired access token, and asks to connect again when Google revoked the grant', async () => {
    const { user, auth } = await createUser(t.app);
    const material = await insertMaterial(user.id);
    const first = await send(auth, material.id);
    await consent(first.body.data.authorizeUrl);

    await t.app.db
      .update(googleAccounts)
      .set({ accessExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(googleAccounts.userId, user.id));
    const before = fake.calls.filter((c) => c === 'POST /token').length;
    const refreshed = await send(auth, material.id);
    expect(refreshed.status).toBe(201);
    expect(fake.calls.filter((c) => c === 'POST /token').length).toBe(before + 1);

    // The teacher removed Chapterwise from their Google account.
    for (const grant of fake.grants.values()) grant.revoked = true;
    await t.app.db
      .update(googleAccounts)
      .set({ accessExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(googleAccounts.userId, user.id));
    const revoked = await send(auth, material.id);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.status).toBe('authorize');
    expect(
      await t.app.db.select().from(googleAccounts).where(eq(googleAccounts.userId, user.id)),
    ).toHaveLength(0);
  });

  it('sends the teacher back with a clear reason when they refuse, leave out the scope, or reuse a sign-in', async () => {
    const { auth } = await createUser(t.app);
    const { user: owner } = await createUser(t.app);
    void owner;
    const material = await insertMaterial(null);

    fake.nextConsent = 'deny';
    const denied = await consent(
      (await send(auth, material.id, '/book/x/y')).body.data.authorizeUrl,
    );
    expect(`${denied.pathname}?${denied.searchParams}`).toBe(
      '/book/x/y?googleForms=error&reason=denied',
    );

    fake.nextConsent = 'no-forms-scope';
    const scope = await consent((await send(auth, material.id)).body.data.authorizeUrl);
    expect(scope.searchParams.get('reason')).toBe('scope');

    // A callback replayed, or with a state we never gave.
    const url = (await send(auth, material.id)).body.data.authorizeUrl;
    const google = await fetch(url, { redirect: 'manual' });
    const back = new URL(google.headers.get('location')!);
    const path = `${back.pathname}${back.search}`;
    expect((await t.app.inject({ method: 'GET', url: path })).headers.location).toMatch(
      /googleForms=created/,
    );
    expect((await t.app.inject({ method: 'GET', url: path })).headers.location).toBe(
      '/dashboard?googleForms=error&reason=expired',
    );
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/v1/google/oauth/callback?code=x&state=forged',
        })
      ).headers.location,
    ).toBe('/dashboard?googleForms=error&reason=expired');
  });

  it('checks the material and the return path; Google failing is a 503 with a clear message; disconnect revokes', async () => {
    const { user, auth } = await createUser(t.app);
    const other = await createUser(t.app);
    const mine = await insertMaterial(user.id);
    const theirs = await insertMaterial(other.user.id);
    const unfinished = await insertMaterial(user.id, hostileDocument(), 'pending');

    expect((await send(auth, theirs.id)).status).toBe(404);
    expect((await send(auth, unfinished.id)).status).toBe(409);
    const offsite = await send(auth, mine.id, '//evil.example/steal');
    expect(offsite.status).toBe(400);
    expect(offsite.body.errors.message).toMatch(/returnTo/);
    const guest = await t.app.inject({
      method: 'POST',
      url: '/api/v1/google/forms',
      payload: { id: mine.id },
    });
    expect(guest.statusCode).toBe(401);
    const vocabularyOnly = await insertMaterial(
      user.id,
      hostileDocument({
        sections: [{ title: 'Words', instructions: '', questions: [] }],
        lesson: undefined,
      }),
    );
    expect((await send(auth, vocabularyOnly.id)).status).toBe(409);

    await consent((await send(auth, mine.id)).body.data.authorizeUrl);
    fake.failNext = 2;
    const down = await send(auth, mine.id);
    expect(down.status).toBe(503);
    expect(down.body.errors.message).toBe(
      'Google Forms is having trouble right now. Try again in a moment.',
    );

    // Google refuses the questions: the empty form it made is deleted, the teacher is told.
    const formsBefore = fake.forms.size;
    fake.refuseNextBatch = true;
    const refused = await send(auth, mine.id);
    expect(refused.status).toBe(503);
    expect(refused.body.errors.message).toBe(
      'Google Forms refused the form (Invalid requests[3].createItem: the test refused it.).',
    );
    expect(fake.forms.size).toBe(formsBefore);
    expect(fake.calls.at(-1)).toMatch(/^DELETE \/drive\/v3\/files\/form-/);

    const grantsBefore = [...fake.grants.values()].filter((g) => g.revoked).length;
    const bye = await t.app.inject({
      method: 'POST',
      url: '/api/v1/google/disconnect',
      headers: auth,
    });
    expect(bye.statusCode).toBe(200);
    expect([...fake.grants.values()].filter((g) => g.revoked).length).toBe(grantsBefore + 1);
    const status = await t.app.inject({
      method: 'GET',
      url: '/api/v1/google/status',
      headers: auth,
    });
    expect(status.json().connected).toBe(false);
  });
});

describe('Send to Google Forms without GOOGLE_CLIENT_ID', () => {
  it('says it is not set up, so the menu hides the button', async () => {
    const plain = await createTestApp();
    try {
      const { auth } = await createUser(plain.app);
      const status = await plain.app.inject({
        method: 'GET',
        url: '/api/v1/google/status',
        headers: auth,
      });
      expect(status.json()).toEqual({ configured: false, connected: false, email: null });
      const sent = await plain.app.inject({
        method: 'POST',
        url: '/api/v1/google/forms',
        headers: auth,
        payload: { id: '00000000-0000-4000-8000-000000000000' },
      });
      expect(sent.statusCode).toBe(404);
      expect(sent.json().errors.message).toBe('Google Forms is not set up on this site.');
    } finally {
      await plain.close();
    }
  });
});
