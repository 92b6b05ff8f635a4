// The AI Teaching Assistant: the local engine's first streamed piece and full answer on a
// 10,000-word text through the API (real HTTP, Server-Sent Events), and retrieval over the
// paragraphs of every stored chapter (the sample catalogue's 34 books).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

function tenThousandWords(root) {
  const chapters = JSON.parse(
    gunzipSync(
      readFileSync(path.join(root, 'apps/server/src/test/fixtures/chapters.json.gz')),
    ).toString('utf8'),
  );
  const order = [98, 1400, 46, 84, 1342, 2701];
  const text = order.map((id) => chapters.find((c) => c.id === id).text).join('\n\n');
  // Cut after the 10,000th word, keeping the paragraphs.
  const end = [...text.matchAll(/\S+/g)][9_999];
  return text.slice(0, end.index + end[0].length);
}

/** Posts a message and times the first `delta` event and the `done` event. */
async function timedAnswer(url, cookie, content) {
  const started = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ content }),
  });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  let first = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
    if (!first && text.includes('"type":"delta"')) first = performance.now() - started;
  }
  if (!text.includes('"type":"done"')) throw new Error(`no answer: ${text.slice(0, 300)}`);
  return { first, total: performance.now() - started };
}

export default async function assistant(kit) {
  const dataDir = kit.tmpDir();
  const server = await kit.startServer({
    dataDir,
    env: { ASSISTANT_MESSAGES_PER_HOUR: '100000' },
  });
  kit.figure('first start with the sample catalogue (ready)', server.readyMs, 'ms');
  const { openDatabase } = await import(path.join(kit.root, 'apps/server/dist/db/client.js'));

  // A teacher with a chat session, through the API as the web app makes one.
  const register = await fetch(`${server.url}/api/v1/users/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      firstName: 'Bench',
      lastName: 'Teacher',
      username: 'bench_teacher',
      email: 'bench@example.org',
      password: 'correct horse battery staple',
      passwordConfirmation: 'correct horse battery staple',
    }),
  });
  if (!register.ok) throw new Error(`register: ${register.status}`);
  const login = await (
    await fetch(`${server.url}/api/v1/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'bench@example.org',
        password: 'correct horse battery staple',
      }),
    })
  ).json();
  const auth = { authorization: `Bearer ${login.token}` };
  const { chatAuthToken } = await (
    await fetch(`${server.url}/api/v1/chat/getnewchatauthtoken`, { headers: auth })
  ).json();
  const session = await fetch(`${server.url}/api/v1/assistant/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: chatAuthToken }),
  });
  const cookie = session.headers.get('set-cookie').split(';')[0];
  const text = tenThousandWords(kit.root);
  const conversation = await (
    await fetch(`${server.url}/api/v1/assistant/conversations`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ context: { kind: 'text', label: 'Bench', text } }),
    })
  ).json();
  const url = `${server.url}/api/v1/assistant/conversations/${conversation.id}/messages`;
  // Let the generator's warm-up finish, then one untimed answer loads what the first one would.
  await new Promise((r) => setTimeout(r, 2500));
  await timedAnswer(url, cookie, 'Give me three discussion questions');

  const requests = [
    'Give me three discussion questions',
    'Summarise this text',
    'Vocabulary list',
    'Who are the characters?',
    'Key passages',
  ];
  const firsts = [];
  const totals = [];
  for (let round = 0; round < 3; round++) {
    for (const content of requests) {
      const { first, total } = await timedAnswer(url, cookie, content);
      firsts.push(first);
      totals.push(total);
    }
  }
  const f = kit.percentiles(firsts);
  const t = kit.percentiles(totals);
  kit.figure(
    `local engine, first streamed piece, ${text.split(/\s+/).length} words (p50)`,
    f.p50,
    'ms',
  );
  kit.figure(
    'local engine, first streamed piece (slowest of 15)',
    Math.max(...firsts),
    'ms',
    '< 300 ms',
  );
  kit.figure('local engine, full answer (p50)', t.p50, 'ms');
  kit.figure('local engine, full answer (slowest of 15)', Math.max(...totals), 'ms', '< 2000 ms');
  await server.stop();

  // Retrieval over every stored chapter's paragraphs, in process on the same database.
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
  const { searchParagraphs } = await import(
    path.join(kit.root, 'apps/server/dist/modules/assistant/assistant.repository.js')
  );
  const { sql } = await import('drizzle-orm');
  const [{ chapters, paragraphs }] = (
    await database.db.execute(
      sql`SELECT (SELECT count(*) FROM book_chapters)::int AS chapters, (SELECT count(*) FROM chapter_paragraphs)::int AS paragraphs`,
    )
  ).rows;
  const queries = [
    'whale & ship',
    'storm & sea',
    'letter & sister',
    'love & marriage',
    'garden & secret',
    'war | battle',
    'monster | creature',
    'school | teacher',
    'river & boat',
    'king | queen | prince',
    'money & debt',
    'night & dark & cold',
    'mother | father | child',
    'rabbit & hole',
    'treasure & island',
    'ice | snow | frost',
  ];
  const times = [];
  for (let round = 0; round < 8; round++) {
    for (const q of queries) {
      const started = performance.now();
      await searchParagraphs(database.db, q, {}, 6);
      times.push(performance.now() - started);
    }
  }
  await database.close();
  const r = kit.percentiles(times);
  kit.figure(`retrieval over ${paragraphs} paragraphs of ${chapters} chapters (p50)`, r.p50, 'ms');
  kit.figure('retrieval (p95)', r.p95, 'ms', '< 50 ms');
}
