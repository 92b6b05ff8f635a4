import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * Starts a worker thread from a module next to the caller. `moduleUrl` is the caller's
 * `import.meta.url` and `name` the entry's file name without extension. From TypeScript source
 * (tests, `npm run dev`) the thread loads its entry through tsx; the built server runs the
 * compiled .js directly.
 */
export function startWorkerThread(
  moduleUrl: string,
  name: string,
  options: { resourceLimits?: ResourceLimits } = {},
): Worker {
  const fromSource = moduleUrl.endsWith('.ts');
  const entry = new URL(`./${name}.${fromSource ? 'ts' : 'js'}`, moduleUrl);
  if (!fromSource) return new Worker(entry, options);
  const tsxApi = pathToFileURL(
    createRequire(moduleUrl)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  return new Worker(
    `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`,
    { ...options, eval: true },
  );
}
