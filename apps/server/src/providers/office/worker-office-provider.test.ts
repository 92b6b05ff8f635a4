import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkerOfficeProvider } from './worker-office-provider.js';

const fixture = (name: string) =>
  readFileSync(path.join(import.meta.dirname, '../../modules/imports/fixtures', name));
const logger = Fastify({ logger: false }).log;

describe('parsing in a worker thread', () => {
  const provider = new WorkerOfficeProvider({ soffice: null, logger });
  afterAll(() => provider.close());

  it('keeps the main thread free while a PDF is parsed', async () => {
    provider.warmUp();
    const before = performance.eventLoopUtilization();
    const result = await provider.extract(fixture('lesson.pdf'), 'pdf');
    const busy = performance.eventLoopUtilization(before);
    expect(result.pages).toHaveLength(2);
    expect(result.text).toContain('The Water Cycle');
    // Parsing took hundreds of milliseconds, yet the main thread was idle nearly all the
    // while (a parse on the main thread would keep it close to 1).
    expect(busy.utilization).toBeLessThan(0.2);
  });

  it('stops a parse that runs past its time limit, and starts a fresh thread for the next', async () => {
    const hasty = new WorkerOfficeProvider({ soffice: null, logger, timeoutMs: 1 });
    try {
      for (let i = 0; i < 2; i++) {
        await expect(hasty.extract(fixture('lesson.pdf'), 'pdf')).rejects.toMatchObject({
          status: 400,
          message: expect.stringMatching(
            /^Reading this file took longer than 1 second, so it was stopped\./,
          ),
        });
      }
    } finally {
      await hasty.close();
    }
    // The shared provider is unaffected and still reads.
    expect((await provider.extract(fixture('deck.pptx'), 'pptx')).text).toContain('Slide 1');
  });

  it('answers 503 quickly rather than queueing without bound', async () => {
    const jobs = Array.from({ length: 20 }, () =>
      provider.extract(fixture('planets.xlsx'), 'xlsx').then(
        () => 'ok',
        (error: { status?: number }) => error.status,
      ),
    );
    const outcomes = await Promise.all(jobs);
    expect(outcomes.filter((o) => o === 'ok').length).toBeGreaterThanOrEqual(16);
    expect(outcomes).toContain(503);
  });

  it('refuses .ppt and .xls with a 415 when LibreOffice is missing', async () => {
    await expect(provider.extract(fixture('planets.xls'), 'xls')).rejects.toMatchObject({
      status: 415,
      message:
        'Excel 97-2003 (.xls) files need LibreOffice on the server, which is not installed here. Save the file as .xlsx and import that instead.',
    });
  });
});
