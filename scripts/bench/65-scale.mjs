// Issue 19: throughput with 1, 2 and 4 web processes (WEB_CONCURRENCY, Node cluster) on one
// PostgreSQL: a guest's books API read (answered from each process's catalogue cache) and a
// teacher's getusersmaterials (a session check and a query per request), side by side, with the
// factor over one process. PostgreSQL: BENCH_DATABASE_URL or TEST_DATABASE_URL, else the local
// server at postgres://postgres@127.0.0.1:5432/test; each run makes its own database and drops it.
// The load generator (autocannon, 20 connections) runs on the same machine: on 2 cores it takes
// one of them, so the factors show what this machine can give, not a limit of the server.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';

const require = createRequire(import.meta.url);
const fromServer = (name) =>
  require(
    require.resolve(name, { paths: [path.resolve(import.meta.dirname, '../../apps/server')] }),
  );
const autocannon = fromServer('autocannon');
const pg = fromServer('pg');

const SECRET = 'bench-secret-that-is-at-least-32-characters';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const COUNTS = [1, 2, 4];

async function load(url, headers = {}) {
  const result = await autocannon({ url, connections: 20, duration: SECONDS, headers });
  return { rps: result.requests.average, p50: result.latency.p50, non2xx: result.non2xx };
}

export default async function scale(kit) {
  const base =
    process.env.BENCH_DATABASE_URL ??
    process.env.TEST_DATABASE_URL ??
    'postgres://postgres@127.0.0.1:5432/test';
  const admin = new pg.Client({ connectionString: base });
  try {
    await admin.connect();
  } catch (error) {
    console.log(`  PostgreSQL not reachable at ${base} (${error.message}): skipped`);
    return;
  }
  const dbName = `cw_bench_scale_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE "${dbName}"`);
  const url = new URL(base);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();
  try {
    // First start: migrations and the sample catalogue (once, before anything is timed).
    const seeding = await kit.startServer({ env: { DATABASE_URL: databaseUrl } });
    kit.figure('first start on a new database (migrations + sample data)', seeding.readyMs, 'ms');
    await seeding.stop();
    // Fresh tables: statistics now, not from autovacuum in the middle of a measurement.
    const seeded = new pg.Client({ connectionString: databaseUrl });
    await seeded.connect();
    await seeded.query('VACUUM ANALYZE');
    await seeded.end();

    // A teacher with 100 materials (a page of 24 is listed).
    const dist = (p) => path.join(kit.root, 'apps/server/dist', p);
    const { openDatabase } = await import(dist('db/client.js'));
    const schema = await import(dist('db/schema/index.js'));
    const database = await openDatabase({ databaseUrl });
    const [user] = await database.db
      .insert(schema.users)
      .values({ username: 'bench', email: 'bench@example.org', passwordHash: 'x' })
      .returning();
    const document = { version: 1, title: 'Bench', type: 'Quiz', sections: [], vocabulary: [] };
    const output = { choices: [{ message: { role: 'assistant', content: 'Bench' } }], document };
    await database.db.insert(schema.generatedMaterials).values(
      Array.from({ length: 100 }, (_, i) => ({
        userId: user.id,
        name: `Material ${i + 1}`,
        grade: '8th Grade (Year 9)',
        subject: 'English',
        type: 'Quiz',
        referenceText: 'A short text.',
        status: 'finished',
        output,
        createdAt: new Date(Date.now() - i * 60_000),
      })),
    );
    await database.close();
    const token = await new SignJWT({ ver: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + 3600)
      .sign(new TextEncoder().encode(SECRET));

    // Rounds interleave the counts (1, 2, 4, 1, 2, 4…): other work on a shared machine hits
    // each count alike; the best round of each count is compared.
    const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
    const best = new Map();
    const load1 = os.loadavg()[0];
    for (let round = 1; round <= rounds; round++) {
      for (const count of COUNTS) {
        const server = await kit.startServer({
          env: {
            DATABASE_URL: databaseUrl,
            WEB_CONCURRENCY: String(count),
            SEED_ON_START: 'false',
            JOBS_ENABLED: 'false',
          },
        });
        // /readyz answers once one process listens: give the others time (and each its
        // background warm-up of the search index), then warm every one.
        await new Promise((r) => setTimeout(r, 8000 + count * 2000));
        const books = `${server.url}/api/v1/getgutenbergbooks?sort=download_count&limit=24`;
        const mine = `${server.url}/api/v1/materials/getusersmaterials`;
        const auth = { authorization: `Bearer ${token}` };
        const check = await fetch(mine, { headers: auth });
        if (!check.ok) throw new Error(`getusersmaterials answered ${check.status}`);
        await autocannon({ url: books, connections: 20, duration: 2 });
        await autocannon({ url: mine, connections: 20, duration: 2, headers: auth });
        const guest = await load(books);
        const teacher = await load(mine, auth);
        await server.stop();
        for (const [label, r] of [
          ['books API (guest)', guest],
          ['getusersmaterials (teacher)', teacher],
        ]) {
          kit.figure(
            `round ${round}, ${count} process${count > 1 ? 'es' : ''}: ${label} (p50 ms)`,
            `${r.rps.toFixed(0)} (${r.p50})`,
            'req/s',
          );
          if (r.non2xx) kit.figure(`  non-2xx answers`, r.non2xx, '');
        }
        const previous = best.get(count);
        best.set(count, {
          guest: !previous || guest.rps > previous.guest.rps ? guest : previous.guest,
          teacher: !previous || teacher.rps > previous.teacher.rps ? teacher : previous.teacher,
        });
      }
    }
    kit.figure(
      'load average at start / end (other work on this machine)',
      `${load1.toFixed(1)} / ${os.loadavg()[0].toFixed(1)}`,
      '',
    );

    const results = COUNTS.map((count) => ({ count, ...best.get(count) }));
    const one = results[0];
    for (const [label, key] of [
      ['books API (guest)', 'guest'],
      ['getusersmaterials (teacher)', 'teacher'],
    ]) {
      kit.figure(
        `${label}: best req/s with 1 / 2 / 4 processes`,
        results.map((r) => r[key].rps.toFixed(0)).join(' / '),
        'req/s',
      );
      kit.figure(
        `${label}: factor over 1 process (2 / 4)`,
        results
          .slice(1)
          .map((r) => (r[key].rps / one[key].rps).toFixed(2))
          .join(' / '),
        '×',
        '≈ cores the machine has left for the server',
      );
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => {});
    await admin.end();
  }
}
