// Issue 19: two app processes and one worker on one new PostgreSQL database, driven alternately.
// Runs the built server (apps/server/dist, made here when missing) on TEST_DATABASE_URL's server.
// Payments are Stripe's (a fake Stripe API in this process), so webhooks can be delivered twice.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './db/client.js';
import { BOOKS_SEED_DIR } from './modules/books/books.seed.js';
import { importCatalogue } from './modules/books/import/importer.js';
import { chapter } from './test/chapters.js';
import { ensureWebBuild } from './test/helpers.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');
const BASE_URL = process.env.TEST_DATABASE_URL;
const PORT_BASE = 3400 + (process.pid % 20) * 2;
const SECRET = 'multi-instance-secret-that-is-at-least-32-chars';
const TEXT = chapter(84).text;

if (!BASE_URL) {
  console.log(
    'scale.multi-instance.test: skipped, it needs PostgreSQL (set TEST_DATABASE_URL, as CI does)',
  );
}

const WEBHOOK_SECRET = 'whsec_multi_instance_secret';

/** Answers the two Stripe calls a credit checkout makes, and keeps each session's form. */
function startFakeStripe() {
  const sessions: Array<Record<string, string>> = [];
  let n = 0;
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      n += 1;
      const form = Object.fromEntries(new URLSearchParams(body));
      const send = (status: number, answer: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_fake' });
        res.end(JSON.stringify(answer));
      };
      if (req.method === 'POST' && req.url === '/v1/customers') {
        return send(200, { id: `cus_multi${n}`, object: 'customer', email: form.email });
      }
      if (req.method === 'POST' && req.url === '/v1/checkout/sessions') {
        const id = `cs_test_multi${n}`;
        sessions.push({ ...form, id });
        return send(200, {
          id,
          object: 'checkout.session',
          mode: form.mode,
          url: `https://checkout.stripe.com/c/pay/${id}`,
        });
      }
      send(404, { error: { type: 'invalid_request_error', message: `No ${req.url}` } });
    });
  });
  return { server, sessions };
}

/** An OpenAI-compatible model that never answers: a generation sent to it is mid-way until killed. */
function startSilentModel() {
  const calls: string[] = [];
  const server: Server = createServer((req) => {
    calls.push(req.url ?? '');
  });
  return { server, calls };
}

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

const fakeStripe = startFakeStripe();
const silentModel = startSilentModel();
let stripeBase = '';
let modelBase = '';

const children: ChildProcess[] = [];
let databaseUrl = '';
let dbName = '';
let A = '';
let B = '';

function start(name: string, env: Record<string, string>, args: string[] = []): ChildProcess {
  const child = spawn(process.execPath, ['apps/server/dist/server.js', ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), `cw-multi-${name}-`)),
      DATABASE_URL: databaseUrl,
      JWT_SECRET: SECRET,
      PAYMENTS: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_multi_instance',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_PRICE_SUBSCRIPTION: 'price_sub',
      STRIPE_PRICE_MODEL_TRAINING_CREDIT: 'price_mtc',
      STRIPE_PRICE_IMAGE_CREDITS: 'price_img',
      STRIPE_API_BASE: stripeBase,
      LOG_LEVEL: 'warn',
      SEED_ON_START: 'false',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
}

async function ready(url: string, child: ChildProcess) {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${url} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} never became ready`);
}

const api = async (
  base: string,
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
) => {
  const res = await fetch(`${base}/api/v1${url}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null, text };
};

async function sql<T = Record<string, unknown>>(text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

describe.skipIf(!BASE_URL)('two app instances and a worker on one PostgreSQL', () => {
  beforeAll(async () => {
    if (!existsSync(path.join(ROOT, 'apps/server/dist/server.js'))) {
      execFileSync('npm', ['run', 'build', '-w', '@chapterwise/shared', '--silent'], {
        cwd: ROOT,
      });
      execFileSync('npx', ['tsc', '-b', 'apps/server'], { cwd: ROOT });
    }
    ensureWebBuild();
    stripeBase = await listen(fakeStripe.server);
    modelBase = await listen(silentModel.server);
    dbName = `cw_multi_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: BASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${dbName}"`);
    await admin.end();
    const url = new URL(BASE_URL!);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();

    A = `http://127.0.0.1:${PORT_BASE}`;
    B = `http://127.0.0.1:${PORT_BASE + 1}`;
    // Both web instances start at once on the empty database: they race the migrations.
    const a = start('a', { PORT: String(PORT_BASE), PUBLIC_URL: A, JOBS_ENABLED: 'false' });
    const b = start('b', { PORT: String(PORT_BASE + 1), PUBLIC_URL: B, JOBS_ENABLED: 'false' });
    await Promise.all([ready(A, a), ready(B, b)]);
    start('worker', { PUBLIC_URL: A }, ['--worker']);
    // One book (Frankenstein, with its text) for the chapter pages; the instances see a new
    // catalogue version within 15 s.
    const database = await openDatabase({ databaseUrl });
    await importCatalogue(database.db, {
      source: BOOKS_SEED_DIR,
      languages: ['en'],
      onlyIds: new Set([84]),
    });
    await database.close();
  }, 240_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 500));
    fakeStripe.server.close();
    silentModel.server.closeAllConnections();
    silentModel.server.close();
    if (dbName) {
      const admin = new pg.Client({ connectionString: BASE_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
      await admin.end();
    }
  });

  it('migrations raced by both instances were applied once', async () => {
    const journal = JSON.parse(
      readFileSync(path.join(ROOT, 'apps/server/src/db/migrations/meta/_journal.json'), 'utf8'),
    ) as { entries: unknown[] };
    const rows = await sql<{ n: string }>('SELECT count(*) AS n FROM drizzle.__drizzle_migrations');
    expect(Number(rows[0]!.n)).toBe(journal.entries.length);
  });

  it('register on A, log in on B', async () => {
    const registered = await api(A, 'POST', '/users/register', {
      username: 'multi_teacher',
      firstName: 'Multi',
      lastName: 'Teacher',
      email: 'multi@example.org',
      password: 'password123',
    });
    expect(registered.status, registered.text).toBe(201);
    const login = await api(B, 'POST', '/users/login', {
      email: 'multi@example.org',
      password: 'password123',
    });
    expect(login.status, login.text).toBe(200);
    const me = await api(A, 'GET', '/users/me', undefined, {
      authorization: `Bearer ${login.json.token}`,
    });
    expect(me.status).toBe(200);
  });

  it('the login rate limit counts attempts spread over both instances', async () => {
    await api(A, 'POST', '/users/register', {
      username: 'multi_target',
      firstName: 'T',
      lastName: 'T',
      email: 'target@example.org',
      password: 'password123',
    });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await api(i % 2 ? B : A, 'POST', '/users/login', {
        email: 'target@example.org',
        password: 'wrong-password',
      });
      statuses.push(res.status);
    }
    // 10 per email per 15 minutes, whichever instance answers.
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('20 parallel generations over A and B with 5 credits: exactly 5 accepted, all finish on the worker', async () => {
    const login = await api(A, 'POST', '/users/login', {
      email: 'multi@example.org',
      password: 'password123',
    });
    const auth = { authorization: `Bearer ${login.json.token}` };
    await sql("UPDATE users SET generation_credits = 5 WHERE email = 'multi@example.org'");
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api(
          i % 2 ? B : A,
          'POST',
          '/materials/generatematerial',
          {
            name: `Parallel ${i}`,
            subject: 'English',
            grade: '8th Grade (Year 9)',
            type: 'Quiz',
            referenceText: TEXT,
            descriptionText: '',
          },
          auth,
        ),
      ),
    );
    const accepted = answers.filter((a) => a.status === 201);
    expect(accepted).toHaveLength(5);
    expect(answers.filter((a) => a.status === 402)).toHaveLength(15);
    const [{ credits }] = (await sql<{ credits: number }>(
      "SELECT generation_credits AS credits FROM users WHERE email = 'multi@example.org'",
    )) as [{ credits: number }];
    expect(credits).toBe(0);
    // The web instances only queue the jobs: the worker runs them.
    for (const answer of accepted) {
      let status = '';
      for (let i = 0; i < 240 && status !== 'finished' && status !== 'failed'; i++) {
        const check = await api(
          B,
          'POST',
          '/materials/checkgeneration',
          {
            id: answer.json.materialId,
          },
          auth,
        );
        status = check.json.status;
        if (status !== 'finished') await new Promise((r) => setTimeout(r, 250));
      }
      expect(status).toBe('finished');
    }
  }, 120_000);

  it("a blog post published on A is on B's cached /blog within 1 s", async () => {
    await sql("UPDATE users SET role = 'admin' WHERE email = 'multi@example.org'");
    const login = await api(B, 'POST', '/users/login', {
      email: 'multi@example.org',
      password: 'password123',
    });
    const auth = { authorization: `Bearer ${login.json.token}` };
    // B has /blog cached.
    await fetch(`${B}/blog`);
    expect((await fetch(`${B}/blog`)).headers.get('x-page-cache')).toBe('hit');
    const post = await api(
      A,
      'POST',
      '/blog/admin/posts',
      {
        title: 'Published on instance A',
        markdown: 'Seen on instance B.',
        categories: ['Teaching Tips'],
        tags: ['scale'],
        status: 'published',
        authorFirstName: 'Multi',
        authorLastName: 'Teacher',
      },
      auth,
    );
    expect(post.status, post.text).toBe(201);
    const published = Date.now();
    let seen = false;
    while (!seen && Date.now() - published < 1000) {
      seen = (await (await fetch(`${B}/blog`)).text()).includes('Published on instance A');
      if (!seen) await new Promise((r) => setTimeout(r, 50));
    }
    expect(seen).toBe(true);
  });

  it('a payment webhook delivered to A and B at once, and replayed to B, is applied once', async () => {
    const buyer = await api(A, 'POST', '/users/register', {
      username: 'multi_buyer',
      firstName: 'Multi',
      lastName: 'Buyer',
      email: 'buyer@example.org',
      password: 'password123',
    });
    expect(buyer.status, buyer.text).toBe(201);
    const login = await api(A, 'POST', '/users/login', {
      email: 'buyer@example.org',
      password: 'password123',
    });
    const auth = { authorization: `Bearer ${login.json.token}` };
    const checkout = await api(
      B,
      'POST',
      '/payment/create-credit-checkout-session',
      { product: 'modelTrainingCredit' },
      auth,
    );
    expect(checkout.status, checkout.text).toBe(200);
    const session = fakeStripe.sessions.at(-1)!;
    const payload = JSON.stringify({
      id: `evt_multi_${Date.now()}`,
      object: 'event',
      type: 'checkout.session.completed',
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: session.id,
          object: 'checkout.session',
          mode: 'payment',
          payment_status: 'paid',
          amount_total: 1000,
          currency: 'usd',
          customer: session.customer,
          payment_intent: 'pi_multi',
          metadata: { orderId: session['metadata[orderId]'] },
        },
      },
    });
    const signature = new Stripe('sk_test_signer').webhooks.generateTestHeaderString({
      payload,
      secret: WEBHOOK_SECRET,
    });
    const deliver = async (base: string) => {
      const res = await fetch(`${base}/api/v1/payment/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { outcome: string }).outcome;
    };
    // Stripe retries a delivery it thinks failed: the two may race on two instances.
    const outcomes = await Promise.all([deliver(A), deliver(B)]);
    expect(outcomes.sort()).toEqual(['applied', 'duplicate']);
    expect(await deliver(B)).toBe('duplicate');
    const [row] = await sql<{ credits: number }>(
      "SELECT model_training_credits AS credits FROM users WHERE email = 'buyer@example.org'",
    );
    expect(row!.credits).toBe(1);
  });

  it("npm run materials:pregenerate (another process) changes A's cached chapter page within 1 s", async () => {
    const bookUrl = 'frankenstein-or-the-modern-prometheus';
    const page = `${A}/book/${bookUrl}/letter-1`;
    // A sees the imported book once its catalogue check runs (every 15 s).
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = (await api(A, 'GET', `/getgutenbergbook?url=${bookUrl}`)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(200);
    const before = await (await fetch(page)).text();
    expect((await fetch(page)).headers.get('x-page-cache')).toBe('hit');

    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        'apps/server/dist/modules/materials/pregenerate-cli.js',
        '--books',
        '1',
        '--chapters',
        '1',
        '--types',
        'Quiz',
      ],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          NODE_ENV: 'production',
          DATA_DIR: mkdtempSync(path.join(tmpdir(), 'cw-multi-cli-')),
          DATABASE_URL: databaseUrl,
          JWT_SECRET: SECRET,
          PAYMENTS: 'local',
          SEED_ON_START: 'false',
          LOG_LEVEL: 'warn',
        },
      },
    );
    expect(stdout).toContain('Made 1 materials for 1 chapters.');
    const done = Date.now();
    const [made] = await sql<{ name: string; chapter: string }>(
      'SELECT name, chapter_url AS chapter FROM generated_materials WHERE is_platform AND book_url = $1',
      [bookUrl],
    );
    expect(made!.chapter).toBe('letter-1');
    expect(before).not.toContain(made!.name);
    let seen = false;
    while (!seen && Date.now() - done < 1000) {
      seen = (await (await fetch(page)).text()).includes(made!.name);
      if (!seen) await new Promise((r) => setTimeout(r, 50));
    }
    expect(seen).toBe(true);
  }, 120_000);

  it('a worker killed (kill -9) mid-generation: another worker finishes the job, once', async () => {
    // The first worker stops; the only one left asks a model that never answers, so the
    // generation is surely running there when it is killed.
    const first = children.find((c) => c.spawnargs.includes('--worker'))!;
    first.kill('SIGTERM');
    if (first.exitCode === null) await new Promise((r) => first.once('exit', r));
    const doomed = start(
      'doomed',
      {
        PUBLIC_URL: A,
        LLM_PROVIDER: 'openai',
        LLM_BASE_URL: `${modelBase}/v1`,
        LLM_MODEL: 'never-answers',
        // The claim's lease: 4 × 2 s + 30 s; then the material may be taken over.
        LLM_TIMEOUT: '2',
      },
      ['--worker'],
    );
    const login = await api(A, 'POST', '/users/login', {
      email: 'multi@example.org',
      password: 'password123',
    });
    const auth = { authorization: `Bearer ${login.json.token}` };
    await sql("UPDATE users SET generation_credits = 1 WHERE email = 'multi@example.org'");
    const made = await api(
      A,
      'POST',
      '/materials/generatematerial',
      {
        name: 'Survives a crash',
        subject: 'English',
        grade: '8th Grade (Year 9)',
        type: 'Quiz',
        referenceText: TEXT,
        descriptionText: '',
      },
      auth,
    );
    expect(made.status, made.text).toBe(201);
    const id = made.json.materialId as string;
    for (let i = 0; i < 600 && silentModel.calls.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(silentModel.calls.length).toBeGreaterThan(0);
    doomed.kill('SIGKILL');
    await new Promise((r) => doomed.once('exit', r));
    const [running] = await sql<{ status: string; attempts: number }>(
      'SELECT status, attempts FROM generated_materials WHERE id = $1',
      [id],
    );
    expect(running).toEqual({ status: 'running', attempts: 1 });

    start('rescuer', { PUBLIC_URL: A }, ['--worker']);
    let status = '';
    for (let i = 0; i < 600 && status !== 'finished' && status !== 'failed'; i++) {
      status = (await api(B, 'POST', '/materials/checkgeneration', { id }, auth)).json.status;
      if (status !== 'finished') await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe('finished');
    const [row] = await sql<{ attempts: number; credits: number; questions: number }>(
      `SELECT m.attempts, u.generation_credits AS credits
         FROM generated_materials m JOIN users u ON u.id = m.user_id WHERE m.id = $1`,
      [id],
    );
    // Run twice (the killed attempt and the finished one), its one credit taken once.
    expect(row).toMatchObject({ attempts: 2, credits: 0 });
    const material = await api(B, 'GET', `/materials/getmaterial?id=${id}`, undefined, auth);
    expect(material.json.data.output.document.sections.length).toBeGreaterThan(0);
    expect(silentModel.calls.length).toBe(1);
  }, 240_000);
});
