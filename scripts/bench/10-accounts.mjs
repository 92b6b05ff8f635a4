// Accounts: the cost of argon2id on sign-up and login, and reading public profiles (API and page).
export default async function accounts(kit) {
  // Many sign-ups from one address: widen the per-IP budgets so the limits do not interfere.
  const server = await kit.startServer({
    env: { RATE_LIMIT_SCALE: '1000', SEED_ON_START: 'false' },
  });
  const post = (path, body) =>
    fetch(`${server.url}/api/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  const accounts = [];
  const registerMs = [];
  for (let i = 0; i < 10; i++) {
    const account = {
      username: `bench_${i}_${Date.now().toString(36)}`,
      firstName: 'Bench',
      lastName: 'Teacher',
      email: `bench${i}_${Date.now().toString(36)}@example.org`,
      password: 'a reasonably long passphrase',
    };
    const started = performance.now();
    const res = await post('/users/register', account);
    registerMs.push(performance.now() - started);
    if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
    accounts.push(account);
  }
  const reg = kit.percentiles(registerMs);
  kit.figure(
    'register (argon2id hash) p50 / p95',
    `${reg.p50.toFixed(0)} / ${reg.p95.toFixed(0)}`,
    'ms',
  );

  // Sequential logins (5 per account stays under the 10-per-email budget).
  const loginMs = [];
  for (const account of accounts) {
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const res = await post('/users/login', { email: account.email, password: account.password });
      loginMs.push(performance.now() - started);
      if (res.status !== 200) throw new Error(`login: ${res.status}`);
    }
  }
  const login = kit.percentiles(loginMs);
  kit.figure(
    'login, one at a time p50 / p95',
    `${login.p50.toFixed(0)} / ${login.p95.toFixed(0)}`,
    'ms',
    'p95 < 150 ms',
  );

  // Logins 8 at a time: argon2 runs on libuv's thread pool, so both cores work.
  const concurrentMs = [];
  const started = performance.now();
  for (let round = 0; round < 4; round++) {
    const batch = accounts.slice(0, 8).map(async (account) => {
      const t0 = performance.now();
      const res = await post('/users/login', { email: account.email, password: account.password });
      concurrentMs.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`login: ${res.status}`);
    });
    await Promise.all(batch);
  }
  const seconds = (performance.now() - started) / 1000;
  kit.figure('logins, 8 concurrent: throughput', concurrentMs.length / seconds, 'logins/s');

  const name = accounts[0].username;
  await kit.compareWithNginx(
    'GET public profile (API)',
    `${server.url}/api/v1/users/getuserinfobyusername/${name}`,
    {
      seconds: 8,
    },
  );
  if (kit.hasCommand('wrk')) {
    const page = kit.wrk(`${server.url}/profile/${name}`, { seconds: 8, connections: 20 });
    kit.figure('GET /profile/{username} (SSR page): throughput', page.rps, 'req/s');
    kit.figure(
      'GET /profile/{username}: latency p50 / p99',
      `${page.p50.toFixed(1)} / ${page.p99.toFixed(1)}`,
      'ms',
    );
  }
  await server.stop();
}
