// Issue 19: two app processes and one worker on one new PostgreSQL database, driven alternately.
// Runs the built server (apps/server/dist, made here when missing) on TEST_DATABASE_URL's server.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
      PAYMENTS: 'local',
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
  }, 240_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 500));
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
});
