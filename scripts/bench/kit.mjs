// Helpers shared by the benchmarks: start the built server, run wrk, serve bytes with nginx.
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdtempSync,
  writeFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '../..');
const children = new Set();
let nextPort = Number(process.env.BENCH_PORT_BASE ?? 3400);

export function heading(title) {
  console.log(`\n== ${title} ==`);
}

/** Prints one figure: name, value, unit, and the goal when there is one. */
export function figure(name, value, unit, goal) {
  const shown =
    typeof value === 'number' ? (value >= 100 ? value.toFixed(0) : value.toFixed(2)) : value;
  console.log(
    `  ${name.padEnd(48)} ${String(shown).padStart(10)} ${unit}${goal ? `   (goal: ${goal})` : ''}`,
  );
}

export function tmpDir(prefix = 'cw-bench-') {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

async function waitFor(url, timeoutMs, child) {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    if (child && child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return performance.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${url}`);
}

/**
 * Starts the built server on a free port with the given DATA_DIR; resolves when /readyz
 * answers, with the time it took from process start.
 */
export async function startServer({ dataDir, env = {} } = {}) {
  const port = nextPort++;
  const started = performance.now();
  const child = spawn(process.execPath, ['apps/server/dist/server.js'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir ?? tmpDir(),
      JWT_SECRET: 'bench-secret-that-is-at-least-32-characters',
      LOG_LEVEL: 'error',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      PAYMENTS: 'local',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.add(child);
  await waitFor(`http://127.0.0.1:${port}/readyz`, 300_000, child);
  const readyMs = performance.now() - started;
  const cpuSeconds = () => processCpuSeconds(child.pid);
  return {
    port,
    pid: child.pid,
    url: `http://127.0.0.1:${port}`,
    readyMs,
    /** CPU time (user + sys, every thread) the server took to get ready; NaN without /proc. */
    readyCpuS: cpuSeconds(),
    cpuSeconds,
    async stop() {
      children.delete(child);
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

/** User + system CPU seconds of a running process (all its threads), from /proc; NaN elsewhere. */
export function processCpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** The load average now, as `uptime` prints it ("1.02, 0.85, 0.60"). */
export function loadAverage() {
  return loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');
}

export function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
}

/** Runs wrk and returns requests per second and latency percentiles (ms). */
export function wrk(url, { seconds = 10, connections = 50, threads = 2 } = {}) {
  const out = spawnSync(
    'wrk',
    [`-t${threads}`, `-c${connections}`, `-d${seconds}s`, '--latency', url],
    {
      encoding: 'utf8',
    },
  );
  if (out.status !== 0) throw new Error(`wrk failed: ${out.stderr}`);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out.stdout)?.[1] ?? 0);
  const pct = (p) => {
    const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s)`).exec(out.stdout);
    if (!m) return NaN;
    const v = Number(m[1]);
    return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v;
  };
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out.stdout)?.[1] ?? 0);
  return { rps, p50: pct(50), p99: pct(99), non2xx };
}

/** Serves `body` as a static file with nginx (same machine, same run); null when nginx is absent. */
export async function startNginx(body, contentType = 'application/json') {
  const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
  if (!nginx) return null;
  const dir = tmpDir('cw-nginx-');
  const port = nextPort++;
  mkdirSync(path.join(dir, 'www'));
  mkdirSync(path.join(dir, 'logs'));
  writeFileSync(path.join(dir, 'www', 'payload'), body);
  // nginx's workers run as 'nobody' when started by root: they must be able to read the file.
  chmodSync(dir, 0o755);
  chmodSync(path.join(dir, 'www'), 0o755);
  chmodSync(path.join(dir, 'www', 'payload'), 0o644);
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/tmp;
  proxy_temp_path ${dir}/tmp;
  fastcgi_temp_path ${dir}/tmp;
  uwsgi_temp_path ${dir}/tmp;
  scgi_temp_path ${dir}/tmp;
  server {
    listen 127.0.0.1:${port};
    location / { root ${dir}/www; default_type ${contentType}; try_files /payload =404; }
  }
}
`,
  );
  const child = spawn(nginx, ['-c', path.join(dir, 'nginx.conf'), '-p', dir, '-g', 'daemon off;'], {
    stdio: 'ignore',
  });
  children.add(child);
  await waitFor(`http://127.0.0.1:${port}/`, 10_000, child);
  return {
    url: `http://127.0.0.1:${port}/`,
    async stop() {
      children.delete(child);
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

/**
 * Measures our endpoint and nginx serving the same bytes with wrk, one after the other,
 * and prints both with the ratio.
 */
export async function compareWithNginx(label, url, { seconds = 10, goalRatio } = {}) {
  if (!hasCommand('wrk')) {
    console.log('  wrk is not installed (apt-get install wrk): throughput skipped');
    return null;
  }
  const body = Buffer.from(await (await fetch(url)).arrayBuffer());
  const ours = wrk(url, { seconds });
  figure(`${label}: throughput`, ours.rps, 'req/s');
  figure(`${label}: latency p50 / p99`, `${ours.p50.toFixed(1)} / ${ours.p99.toFixed(1)}`, 'ms');
  if (ours.non2xx) figure(`${label}: non-2xx answers`, ours.non2xx, '');
  const nginx = await startNginx(body);
  if (!nginx) {
    console.log('  nginx is not installed (apt-get install nginx-light): ratio skipped');
    return { ours };
  }
  const theirs = wrk(nginx.url, { seconds });
  await nginx.stop();
  figure(`nginx, same ${body.length} bytes: throughput`, theirs.rps, 'req/s');
  figure(`${label}: ratio to nginx`, (ours.rps / theirs.rps) * 100, '%', goalRatio);
  return { ours, theirs };
}

export async function stopAll() {
  for (const child of children) {
    if (child.exitCode === null) child.kill('SIGTERM');
  }
  children.clear();
}

/** p50/p95/p99 of a list of milliseconds. */
export function percentiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  return { p50: at(50), p95: at(95), p99: at(99) };
}
