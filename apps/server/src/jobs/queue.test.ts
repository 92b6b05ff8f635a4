import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/helpers.js';

describe('job queue (pg-boss)', () => {
  let t: TestApp;
  const seen: string[] = [];
  beforeAll(async () => {
    t = await createTestApp({ JOBS_ENABLED: 'true' });
  });
  afterAll(() => t.close());

  it('runs a queued job on this database', async () => {
    // Handlers must be defined before start; this queue was started by app.ready().
    await t.app.jobs.stop();
    t.app.jobs.define<{ word: string }>('test-echo', async (data) => {
      seen.push(data.word);
    });
    await t.app.jobs.start();
    await t.app.jobs.send('test-echo', { word: 'hello' });
    const deadline = Date.now() + 15_000;
    while (!seen.includes('hello') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(seen).toEqual(['hello']);
  });

  it('keeps schedules in the database and runs start tasks (the image sweep every minute)', async () => {
    const result = await t.database.executeSql(
      "select name, cron, timezone from pgboss.schedule where name = 'images-sweep'",
    );
    expect(result.rows).toEqual([{ name: 'images-sweep', cron: '* * * * *', timezone: 'UTC' }]);
    // The first sweep is queued at start.
    const jobs = await t.database.executeSql(
      "select count(*)::int as n from pgboss.job where name = 'images-sweep'",
    );
    expect((jobs.rows[0] as { n: number }).n).toBeGreaterThanOrEqual(1);
  });
});
