#!/usr/bin/env node
// `npm run cluster`: compose.yaml's topology with plain processes, for machines without Docker.
// N web instances (JOBS_ENABLED=false) + 1 worker on one PostgreSQL (DATABASE_URL), behind a
// small round-robin reverse proxy on PORT that skips an instance whose /readyz fails.
//
//   DATABASE_URL=postgres://… npm run cluster -- --web 2 --port 3000
//
// Instances listen on PORT+1…PORT+N (127.0.0.1); the worker has no HTTP. Every process gets the
// same DATA_DIR, JWT_SECRET and PUBLIC_URL (http://localhost:PORT unless set). A process that
// dies is started again after a second; Ctrl-C / SIGTERM drains them all (SIGTERM each).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { run } from './lib.mjs';

const root = path.resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    web: { type: 'string', default: '2' },
    port: { type: 'string', default: process.env.PORT ?? '3000' },
    workers: { type: 'string', default: '1' },
    help: { type: 'boolean', default: false },
  },
});
if (args.help) {
  console.log(`npm run cluster -- [--web N] [--workers N] [--port PORT]
  Starts N web instances and N workers (default 2 and 1) of the built server on DATABASE_URL,
  behind a reverse proxy on PORT (default $PORT or 3000). Needs PostgreSQL: the embedded
  database is held by one process.`);
  process.exit(0);
}
const webCount = Number(args.web);
const workerCount = Number(args.workers);
const port = Number(args.port);
if (!Number.isInteger(webCount) || webCount < 1 || webCount > 32) fail('--web: 1 to 32');
if (!Number.isInteger(workerCount) || workerCount < 0 || workerCount > 8) fail('--workers: 0 to 8');
if (!Number.isInteger(port) || port < 1 || port + webCount > 65535) fail('--port: a TCP port');
if (!process.env.DATABASE_URL) {
  fail('DATABASE_URL is required: several processes share one PostgreSQL (see README).');
}

function fail(message) {
  console.error(`cluster: ${message}`);
  process.exit(1);
}

if (!existsSync(path.join(root, 'apps/server/dist/server.js'))) {
  run('npm', ['run', 'build', '--silent'], { cwd: root });
}

// One secret for every process (the server would otherwise make one per process in DATA_DIR).
const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(root, 'data'));
function sharedSecret() {
  if (process.env.JWT_SECRET) return process.env.JWT_SECRET;
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file) && readFileSync(file, 'utf8').trim().length >= 32) {
    return readFileSync(file, 'utf8').trim();
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
const baseEnv = {
  ...process.env,
  DATA_DIR: dataDir,
  JWT_SECRET: sharedSecret(),
  PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${port}`,
  TRUST_PROXY: 'true',
  WEB_CONCURRENCY: '1',
};

let stopping = false;
const processes = [];

/** Starts (and restarts) one server process; its output lines carry its name. */
function supervise(name, env, argv = []) {
  const entry = { name, child: null };
  const launch = () => {
    const child = spawn(process.execPath, ['apps/server/dist/server.js', ...argv], {
      cwd: root,
      env: { ...baseEnv, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    entry.child = child;
    for (const stream of [child.stdout, child.stderr]) {
      let rest = '';
      stream.on('data', (chunk) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop();
        for (const line of lines) process.stdout.write(`${name.padEnd(8)}| ${line}\n`);
      });
    }
    child.on('exit', (code, signal) => {
      if (stopping) return;
      console.log(`${name.padEnd(8)}| ended (${signal ?? code}); starting it again in 1 s`);
      setTimeout(launch, 1000);
    });
  };
  launch();
  processes.push(entry);
  return entry;
}

const upstreams = [];
for (let i = 1; i <= webCount; i++) {
  const upstreamPort = port + i;
  supervise(`web-${i}`, {
    PORT: String(upstreamPort),
    HOST: '127.0.0.1',
    JOBS_ENABLED: 'false',
  });
  upstreams.push({ port: upstreamPort, ready: false });
}
for (let i = 1; i <= workerCount; i++) {
  supervise(`worker-${i}`, { SEED_ON_START: 'false' }, ['--worker']);
}

// Active health checks: an instance takes requests only while its /readyz answers 200.
async function check(upstream) {
  try {
    const res = await fetch(`http://127.0.0.1:${upstream.port}/readyz`, {
      signal: AbortSignal.timeout(2000),
    });
    upstream.ready = res.ok;
  } catch {
    upstream.ready = false;
  }
}
const checks = setInterval(() => upstreams.forEach(check), 1000);

let next = 0;
function pick(exclude) {
  for (let i = 0; i < upstreams.length; i++) {
    const upstream = upstreams[(next + i) % upstreams.length];
    if (upstream.ready && upstream !== exclude) {
      next = (next + i + 1) % upstreams.length;
      return upstream;
    }
  }
  return null;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const proxy = http.createServer((req, res) => {
  const forwardedFor = [req.headers['x-forwarded-for'], req.socket.remoteAddress]
    .filter(Boolean)
    .join(', ');
  const send = (upstream, retried) => {
    if (!upstream) {
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '1' });
      res.end('No instance is ready.\n');
      return;
    }
    const out = http.request(
      {
        host: '127.0.0.1',
        port: upstream.port,
        method: req.method,
        path: req.url,
        agent,
        headers: {
          ...req.headers,
          'x-forwarded-for': forwardedFor,
          'x-forwarded-proto': 'http',
          'x-forwarded-host': req.headers.host ?? '',
        },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    out.on('error', () => {
      upstream.ready = false;
      // A refused connection sent nothing: a GET/HEAD goes to the next instance once.
      if (!retried && !res.headersSent && (req.method === 'GET' || req.method === 'HEAD')) {
        send(pick(upstream), true);
      } else if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('The instance failed.\n');
      } else {
        res.destroy();
      }
    });
    if (req.readableEnded) out.end();
    else req.pipe(out);
  };
  send(pick(null), false);
});

Promise.all(upstreams.map(check)).then(() => {
  proxy.listen(port, process.env.HOST ?? '0.0.0.0', () => {
    console.log(
      `cluster | proxy on http://localhost:${port} → ${webCount} web instance(s) on ports ` +
        `${port + 1}–${port + webCount}, ${workerCount} worker(s), DATA_DIR ${dataDir}`,
    );
  });
});

function stop() {
  if (stopping) return;
  stopping = true;
  console.log('cluster | stopping: SIGTERM to every process (they drain, 20 s at most)');
  clearInterval(checks);
  proxy.close();
  let left = processes.filter((p) => p.child && p.child.exitCode === null).length;
  if (left === 0) process.exit(0);
  for (const { child } of processes) {
    if (!child || child.exitCode !== null) continue;
    child.once('exit', () => {
      left -= 1;
      if (left === 0) process.exit(0);
    });
    child.kill('SIGTERM');
  }
  setTimeout(() => process.exit(1), 25_000).unref();
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
