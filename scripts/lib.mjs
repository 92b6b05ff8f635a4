import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Runs a command with inherited output; exits this process when it fails. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', shell: false, ...options });
  if (result.status !== 0) {
    console.error(
      `\n✖ ${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`,
    );
    process.exit(result.status ?? 1);
  }
}

/** Debian's Chromium (or CHROMIUM_PATH): E2E never downloads a browser. */
export function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((p) => p && existsSync(p));
}
