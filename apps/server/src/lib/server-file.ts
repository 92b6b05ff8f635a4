import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * `DATA_DIR/server.json`: written by a server that holds the embedded database
 * (DATA_DIR/pglite), so that operator commands (`npm run users:admin`) know to go through
 * it instead of opening the database a second time, which PGlite cannot share.
 */
export interface ServerFile {
  pid: number;
  /** Where the command can reach the server: loopback when it listens on every interface. */
  host: string;
  port: number;
}

const FILE = 'server.json';

export function writeServerFile(dataDir: string, info: ServerFile): void {
  writeFileSync(path.join(dataDir, FILE), `${JSON.stringify(info)}\n`);
}

export function removeServerFile(dataDir: string, pid: number): void {
  const file = path.join(dataDir, FILE);
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as ServerFile;
    if (info.pid === pid) rmSync(file, { force: true });
  } catch {
    // Gone already, or not ours.
  }
}

/** The server running on this DATA_DIR, or null (no file, or its process has ended). */
export function readLiveServer(dataDir: string): ServerFile | null {
  const file = path.join(dataDir, FILE);
  if (!existsSync(file)) return null;
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as ServerFile;
    if (!Number.isInteger(info.pid) || !Number.isInteger(info.port)) return null;
    process.kill(info.pid, 0);
    return info;
  } catch {
    return null;
  }
}

/** The address a local command uses for a server listening on `host`. */
export function localAddress(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
