import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { AppError, badRequest } from '../../lib/errors.js';
import { describeSeconds, SerialQueue } from '../../lib/serial-queue.js';

/** How long one LibreOffice conversion may take before it is killed. */
export const SOFFICE_TIMEOUT_MS = 60_000;

/**
 * Converts old binary Office files (.ppt, .xls) to their XML successors with LibreOffice
 * headless, one conversion at a time, in a profile folder of its own (so it never meets a
 * desktop LibreOffice's lock), under a time limit that kills the whole process group.
 */
export class SofficeConverter {
  private readonly queue = new SerialQueue(
    4,
    'The server is busy converting other old Office files. Please try again in a minute.',
  );
  private profileDir: Promise<string> | null = null;

  constructor(
    private readonly sofficePath: string,
    private readonly timeoutMs = SOFFICE_TIMEOUT_MS,
  ) {}

  convert(bytes: Buffer, from: 'ppt' | 'xls'): Promise<Buffer> {
    return this.queue.run(() => this.convertNow(bytes, from));
  }

  private async convertNow(bytes: Buffer, from: 'ppt' | 'xls'): Promise<Buffer> {
    const to = from === 'ppt' ? 'pptx' : 'xlsx';
    this.profileDir ??= mkdtemp(path.join(tmpdir(), 'cw-soffice-profile-'));
    const profile = await this.profileDir;
    const work = await mkdtemp(path.join(tmpdir(), 'cw-soffice-'));
    try {
      const input = path.join(work, `input.${from}`);
      await writeFile(input, bytes);
      const { code, timedOut } = await this.run([
        '--headless',
        '--norestore',
        '--nologo',
        '--nodefault',
        '--nolockcheck',
        `-env:UserInstallation=${pathToFileURL(profile).href}`,
        '--convert-to',
        to,
        '--outdir',
        work,
        input,
      ]);
      if (timedOut) {
        throw badRequest(
          `Converting this file took longer than ${describeSeconds(this.timeoutMs)}, so it was stopped. Save it as .${to} and import that instead.`,
        );
      }
      const output = await readFile(path.join(work, `input.${to}`)).catch(() => null);
      if (code !== 0 || !output || output.length === 0) {
        throw badRequest(
          `This .${from} file could not be converted: it may be damaged or password-protected. Save it as .${to} and import that instead.`,
        );
      }
      return output;
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  private run(args: string[]): Promise<{ code: number | null; timedOut: boolean }> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.sofficePath, args, { stdio: 'ignore', detached: true });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      }, this.timeoutMs);
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(
          new AppError('UNAVAILABLE', 'LibreOffice could not be started on the server.', {
            cause: error,
          }),
        );
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, timedOut });
      });
    });
  }

  async close(): Promise<void> {
    const profile = await this.profileDir;
    this.profileDir = null;
    if (profile) await rm(profile, { recursive: true, force: true });
  }
}
