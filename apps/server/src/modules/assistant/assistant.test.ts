import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  splitParagraphs,
  type AssistantConversation,
  type AssistantStreamEvent,
  type ConversationAnswer,
} from '@chapterwise/shared';
import { eq, sql } from 'drizzle-orm';
import { assistantMessages, users } from '../../db/schema/index.js';
import { createTestApp, createUser, TEST_JWT_SECRET, type TestApp } from '../../test/helpers.js';
import { BOOKS_SEED_DIR } from '../books/books.seed.js';
import { importCatalogue } from '../books/import/importer.js';

/** Frankenstein and Moby-Dick, with their texts. */
const IDS = new Set([84, 2701]);
const secret = new TextEncoder().encode(TEST_JWT_SECRET);

let t: TestApp;
let base = '';
beforeAll(async () => {
  t = await createTestApp({ ASSISTANT_MESSAGES_PER_HOUR: '12' });
  await importCatalogue(t.app.db, { source: BOOKS_SEED_DIR, languages: ['en'], onlyIds: IDS });
  await t.app.books.refreshVersion();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 180_000);
afterAll(() => t?.close());

const chatToken = async (auth: { authorization: string }) => {
  const res = await t.app.inject({ url: '/api/v1/chat/getnewchatauthtoken', headers: auth });
  expect(res.statusCode).toBe(200);
  return res.json<{ chatAuthToken: string }>().chatAuthToken;
};

const exchange = (token: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/assistant/session', payload: { token } });

/** A teacher with a chat session: the cookie header to send. */
async function chatTeacher(overrides: Parameters<typeof createUser>[1] = {}) {
  const teacher = await createUser(t.app, overrides);
  const res = await exchange(await chatToken(teacher.auth));
  expect(res.statusCode).toBe(200);
  const cookie = res.cookies.find((c) => c.name === 'cw_assistant');
  expect(cookie?.value).toBeTruthy();
  return { ...teacher, cookie: { cookie: `cw_assistant=${cookie!.value}` } };
}

const api = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  headers: Record<string, string>,
  payload?: unknown,
) =>
  t.app.inject({
    method,
    url: `/api/v1/assistant${url}`,
    headers,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

/** Posts a message over real HTTP and reads the event stream to its end. */
async function ask(
  conversationId: string,
  headers: Record<string, string>,
  body: { content?: string; retry?: boolean },
): Promise<{ status: number; events: AssistantStreamEvent[]; json?: unknown }> {
  const res = await fetch(`${base}/api/v1/assistant/conversations/${conversationId}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
    return { status: res.status, events: [], json: await res.json() };
  }
  const text = await res.text();
  const events = text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => JSON.parse(block.slice(6)) as AssistantStreamEvent);
  return { status: res.status, events };
}

async function newConversation(headers: Record<string, string>, body: object = {}) {
  const res = await api('POST', '/conversations', headers, body);
  expect(res.statusCode).toBe(201);
  return res.json<AssistantConversation>();
}

describe('chat token exchange', () => {
  it('a fresh chat token opens a chat session once; the session is not an API session', async () => {
    const teacher = await createUser(t.app, { firstName: 'Mary' });
    const token = await chatToken(teacher.auth);
    const first = await exchange(token);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ user: { firstName: 'Mary' }, engine: 'local' });
    const cookie = first.cookies.find((c) => c.name === 'cw_assistant')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/v1/assistant' });
    const session = { cookie: `cw_assistant=${cookie.value}` };
    expect((await api('GET', '/session', session)).statusCode).toBe(200);

    const again = await exchange(token);
    expect(again.statusCode).toBe(401);
    expect(again.json().errors.message).toMatch(
      /already used.*Open the assistant from your dashboard/,
    );

    // The chat session cookie opens nothing else, and is no bearer token either.
    expect((await t.app.inject({ url: '/api/v1/users/me', headers: session })).statusCode).toBe(
      401,
    );
    expect(
      (
        await t.app.inject({
          url: '/api/v1/users/me',
          headers: { authorization: `Bearer ${cookie.value}` },
        })
      ).statusCode,
    ).toBe(401);
  });

  it('refuses expired tokens, other audiences, API session tokens and forged tokens', async () => {
    const teacher = await createUser(t.app);
    const sign = (aud: string | undefined, exp: number) => {
      const jwt = new SignJWT({ ver: teacher.user.tokenVersion })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(teacher.user.id)
        .setJti(crypto.randomUUID())
        .setIssuedAt(exp - 600)
        .setExpirationTime(exp);
      return (aud ? jwt.setAudience(aud) : jwt).sign(secret);
    };
    const now = Math.floor(Date.now() / 1000);
    const expired = await exchange(await sign('chat', now - 5));
    expect(expired.statusCode).toBe(401);
    expect(expired.json().errors.message).toMatch(/expired/);
    expect((await exchange(await sign('chapterwise:operator', now + 300))).statusCode).toBe(401);
    // A normal session token (no audience) is not a chat token.
    expect((await exchange(teacher.token)).statusCode).toBe(401);
    expect((await exchange('not.a.token')).statusCode).toBe(401);
    // The API session cannot reach the assistant's calls.
    expect((await api('GET', '/conversations', teacher.auth)).statusCode).toBe(401);
    expect((await api('GET', '/session', {})).statusCode).toBe(401);
  });

  it('a logout ends the chat session and voids unused chat tokens', async () => {
    const teacher = await chatTeacher();
    const unused = await chatToken(teacher.auth);
    await t.app.db
      .update(users)
      .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.id, teacher.user.id));
    expect((await api('GET', '/conversations', teacher.cookie)).statusCode).toBe(401);
    expect((await exchange(unused)).statusCode).toBe(401);
  });
});

describe('conversations', () => {
  it('create, list, rename, re-point and delete; other teachers get 404', async () => {
    const mine = await chatTeacher();
    const other = await chatTeacher();
    const created = await newConversation(mine.cookie, {
      context: {
        kind: 'chapter',
        bookUrl: 'frankenstein-or-the-modern-prometheus',
        chapterUrl: 'letter-1',
      },
    });
    expect(created).toMatchObject({
      title: 'New conversation',
      context: { kind: 'chapter', chapterTitle: 'Letter 1' },
    });
    const renamed = await api('PATCH', `/conversations/${created.id}`, mine.cookie, {
      title: 'Walton’s letters',
    });
    expect(renamed.json()).toMatchObject({ title: 'Walton’s letters' });
    const pasted = await api('PATCH', `/conversations/${created.id}`, mine.cookie, {
      context: { kind: 'text', label: 'My handout', text: 'One two three four five.' },
    });
    expect(pasted.json().context).toMatchObject({ kind: 'text', label: 'My handout', words: 5 });
    const list = await api('GET', '/conversations', mine.cookie);
    expect(list.json().data.map((c: AssistantConversation) => c.id)).toEqual([created.id]);
    expect(list.json().data[0].context.text).toBeUndefined();

    for (const [method, url, body] of [
      ['GET', `/conversations/${created.id}`, undefined],
      ['PATCH', `/conversations/${created.id}`, { title: 'Mine now' }],
      ['DELETE', `/conversations/${created.id}`, undefined],
      ['POST', `/conversations/${created.id}/materials`, { type: 'Quiz' }],
    ] as const) {
      const res = await api(method, url, other.cookie, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await ask(created.id, other.cookie, { content: 'hello' })).status).toBe(404);
    expect((await api('GET', '/conversations', other.cookie)).json().data).toEqual([]);

    expect((await api('DELETE', `/conversations/${created.id}`, mine.cookie)).statusCode).toBe(204);
    expect((await api('GET', `/conversations/${created.id}`, mine.cookie)).statusCode).toBe(404);
  });

  it('refuses unknown books and chapters, bad ids and oversized texts with 400s', async () => {
    const mine = await chatTeacher();
    const bad = await api('POST', '/conversations', mine.cookie, {
      context: {
        kind: 'chapter',
        bookUrl: 'frankenstein-or-the-modern-prometheus',
        chapterUrl: 'no-such',
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.message).toMatch(/could not find that chapter/);
    expect((await api('GET', '/conversations/not-an-id', mine.cookie)).statusCode).toBe(400);
    const huge = await api('POST', '/conversations', mine.cookie, {
      context: { kind: 'text', text: 'word '.repeat(50_000) },
    });
    expect(huge.statusCode).toBe(400);
  });
});

describe('answers (local engine)', () => {
  it('discussion questions about Letter 1 of Frankenstein quote it and link to its paragraphs', async () => {
    const mine = await chatTeacher();
    const conversation = await newConversation(mine.cookie);
    const { status, events } = await ask(conversation.id, mine.cookie, {
      content: 'Give me three discussion questions about Letter 1 of Frankenstein',
    });
    expect(status).toBe(200);
    expect(events[0]).toMatchObject({ type: 'start', userMessage: { role: 'user' } });
    expect(events.filter((e) => e.type === 'delta').length).toBeGreaterThan(2);
    const done = events.at(-1)!;
    if (done.type !== 'done') throw new Error(`last event: ${JSON.stringify(done)}`);
    const answer = done.message;
    expect(answer).toMatchObject({ role: 'assistant', status: 'complete', engine: 'local' });
    expect(answer.content).toMatch(
      /three discussion questions about \*\*Letter 1\*\* of \*Frankenstein\*/,
    );
    expect(answer.content.match(/^\d\. \*\*/gm)).toHaveLength(3);
    expect(done.conversation).toMatchObject({
      title: 'Give me three discussion questions about Letter 1 of…',
      context: { kind: 'chapter', chapterUrl: 'letter-1' },
    });

    // Every citation is a paragraph of Letter 1 that holds the quote, linked by its anchor.
    const chapter = (
      await t.app.inject({
        url: '/api/v1/getgutenbergbookchapter?url=frankenstein-or-the-modern-prometheus&chapterUrl=letter-1',
      })
    ).json().data.chapter;
    const paragraphs = splitParagraphs(chapter.text).map((p) => p.replace(/\s+/g, ' '));
    expect(answer.citations.length).toBeGreaterThanOrEqual(3);
    for (const c of answer.citations) {
      expect(c.href).toBe(`/book/frankenstein-or-the-modern-prometheus/letter-1#p-${c.paragraph}`);
      expect(paragraphs[c.paragraph - 1]).toContain(c.quote.replace(/\s+/g, ' '));
    }
    expect(events.filter((e) => e.type === 'citation')).toHaveLength(answer.citations.length);
    expect(answer.quoteChecks.length).toBeGreaterThanOrEqual(3);
    expect(answer.quoteChecks.every((q) => q.found)).toBe(true);

    // Saved: the conversation reads back with both messages.
    const saved = (
      await api('GET', `/conversations/${conversation.id}`, mine.cookie)
    ).json<ConversationAnswer>();
    expect(saved.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(saved.messages[1]!.content).toBe(answer.content);
  });

  it('understands the other teacher requests and says plainly what it cannot do', async () => {
    const mine = await chatTeacher({ isSubscribed: true });
    const conversation = await newConversation(mine.cookie, {
      context: {
        kind: 'chapter',
        bookUrl: 'frankenstein-or-the-modern-prometheus',
        chapterUrl: 'letter-1',
      },
    });
    const answerTo = async (content: string) => {
      const { events } = await ask(conversation.id, mine.cookie, { content });
      const done = events.at(-1)!;
      if (done.type !== 'done') throw new Error(JSON.stringify(events.at(-1)));
      expect(
        done.message.quoteChecks.every((q) => q.found),
        content,
      ).toBe(true);
      return done.message;
    };
    expect((await answerTo('Summarise this chapter')).content).toMatch(
      /own, from beginning to end/,
    );
    expect((await answerTo('Who are the characters?')).content).toMatch(
      /\*\*Margaret\*\*|\*\*Saville\*\*/,
    );
    const vocabulary = await answerTo('A vocabulary list of 5 words please');
    expect(
      vocabulary.content.match(/^- \*\*/gm)?.length,
      vocabulary.content,
    ).toBeGreaterThanOrEqual(3);
    expect((await answerTo('What is the reading level?')).content).toMatch(
      /Flesch–Kincaid grade \*\*\d/,
    );
    expect((await answerTo('Key passages')).citations.length).toBeGreaterThanOrEqual(3);
    expect((await answerTo('Adapt this passage to grade 5')).content).toMatch(
      /cannot rewrite the author’s words.*5th Grade/s,
    );
    expect((await answerTo('Make a quiz from this')).content).toMatch(/Make a quiz from this/);
    const beyond = await answerTo('What is the theme of ambition here? Explain it.');
    expect(beyond.content).toMatch(/cannot interpret, explain or write new text/);
    const books = await answerTo('Find books about whales');
    expect(books.content).toMatch(/\[Moby/);
  });

  it('retry replaces the last answer; delete removes every message', async () => {
    const mine = await chatTeacher();
    const conversation = await newConversation(mine.cookie, {
      context: {
        kind: 'chapter',
        bookUrl: 'frankenstein-or-the-modern-prometheus',
        chapterUrl: 'letter-1',
      },
    });
    await ask(conversation.id, mine.cookie, { content: 'Summarise it' });
    const retried = await ask(conversation.id, mine.cookie, { retry: true });
    expect(retried.events[0]).toMatchObject({ type: 'start', userMessage: null });
    const saved = (
      await api('GET', `/conversations/${conversation.id}`, mine.cookie)
    ).json<ConversationAnswer>();
    expect(saved.messages.map((m) => m.role)).toEqual(['user', 'assistant']);

    await api('DELETE', `/conversations/${conversation.id}`, mine.cookie);
    const left = await t.app.db
      .select({ id: assistantMessages.id })
      .from(assistantMessages)
      .where(eq(assistantMessages.conversationId, conversation.id));
    expect(left).toEqual([]);
  });
});

describe('limits', () => {
  it('caps the size of a message and the messages per hour of a teacher', async () => {
    const mine = await chatTeacher();
    const conversation = await newConversation(mine.cookie);
    const long = await ask(conversation.id, mine.cookie, { content: 'x'.repeat(4001) });
    expect(long.status).toBe(400);
    const empty = await ask(conversation.id, mine.cookie, { content: '   ' });
    expect(empty.status).toBe(400);
    // ASSISTANT_MESSAGES_PER_HOUR=12 in this file; the empty message counted, the long one
    // was refused before it was read.
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await ask(conversation.id, mine.cookie, { content: 'hello' })).status);
    expect(statuses).toEqual([...Array(11).fill(200)]);
    const limited = await ask(conversation.id, mine.cookie, { content: 'hello' });
    expect(limited.status).toBe(429);
    expect((limited.json as { errors: { message: string } }).errors.message).toMatch(/wait/);
  });
});

describe('making materials from the chat', () => {
  it('takes a credit like the generator, links the material, and refuses without credits', async () => {
    const mine = await chatTeacher({ generationCredits: 1 });
    const conversation = await newConversation(mine.cookie, {
      context: {
        kind: 'chapter',
        bookUrl: 'frankenstein-or-the-modern-prometheus',
        chapterUrl: 'letter-1',
      },
    });
    const { events } = await ask(conversation.id, mine.cookie, { content: 'Key passages' });
    const done = events.at(-1)!;
    if (done.type !== 'done') throw new Error('no answer');
    const made = await api('POST', `/conversations/${conversation.id}/materials`, mine.cookie, {
      type: 'Quiz',
      messageId: done.message.id,
    });
    expect(made.statusCode).toBe(201);
    expect(made.json()).toMatchObject({ type: 'Quiz', name: 'Quiz: Letter 1, Frankenstein' });
    const [user] = await t.app.db.select().from(users).where(eq(users.id, mine.user.id));
    expect(user!.generationCredits).toBe(0);
    const status = await api('GET', `/materials/${made.json().materialId}`, mine.cookie);
    expect(status.statusCode).toBe(200);
    const saved = (
      await api('GET', `/conversations/${conversation.id}`, mine.cookie)
    ).json<ConversationAnswer>();
    expect(saved.messages[1]!.materials).toEqual([
      { id: made.json().materialId, name: 'Quiz: Letter 1, Frankenstein', type: 'Quiz' },
    ]);

    const broke = await api('POST', `/conversations/${conversation.id}/materials`, mine.cookie, {
      type: 'Lesson',
    });
    expect(broke.statusCode).toBe(402);
    const stranger = await chatTeacher();
    expect(
      (await api('GET', `/materials/${made.json().materialId}`, stranger.cookie)).statusCode,
    ).toBe(404);
  });

  it('asks for a text when the conversation has none', async () => {
    const mine = await chatTeacher();
    const conversation = await newConversation(mine.cookie);
    const res = await api('POST', `/conversations/${conversation.id}/materials`, mine.cookie, {
      type: 'Worksheet',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.message).toMatch(/Choose a chapter or paste a text/);
  });
});

describe('the paragraph index', () => {
  it('numbers paragraphs as the chapter page does, for every chapter', async () => {
    const rows = await t.app.db.execute(sql`
      SELECT c.text, coalesce(json_agg(json_build_array(p.n, p.text) ORDER BY p.n) FILTER (WHERE p.n IS NOT NULL), '[]') AS paragraphs
      FROM book_chapters c LEFT JOIN chapter_paragraphs p ON p.book_id = c.book_id AND p.chapter_index = c.index
      WHERE c.book_id = 84 GROUP BY c.book_id, c.index`);
    const chapters = (rows as unknown as { rows: Array<{ text: string; paragraphs: unknown }> })
      .rows;
    expect(chapters.length).toBeGreaterThan(20);
    for (const c of chapters) {
      const paragraphs = (
        typeof c.paragraphs === 'string' ? JSON.parse(c.paragraphs) : c.paragraphs
      ) as Array<[number, string]>;
      const expected = splitParagraphs(c.text)
        .map((text, i) => [i + 1, text] as [number, string])
        .filter(([, text]) => text.trim());
      expect(paragraphs).toEqual(expected);
    }
  });
});
