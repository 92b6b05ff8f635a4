import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { BOOKS_SEED_DIR } from '../books.seed.js';
import { prepareText } from './prepare.js';
import { inProcessPreparer, PreparePool } from './prepare-pool.js';

const raw = (id: number) =>
  gunzipSync(readFileSync(path.join(BOOKS_SEED_DIR, 'texts', `pg${id}.txt.gz`))).toString('utf8');

describe('PreparePool (texts cleaned, split and measured in worker threads)', () => {
  const pool = new PreparePool({ threads: 2 });
  afterAll(() => pool.close());

  it('prepares texts in threads exactly as on this thread, several at once', async () => {
    const ids = [11, 84, 1342];
    const stages: string[] = [];
    const results = await Promise.all(
      ids.map((id) => pool.prepare(raw(id), `Book ${id}`, (stage) => stages.push(stage))),
    );
    results.forEach((result, i) => {
      expect(result).toEqual(prepareText(raw(ids[i]!), `Book ${ids[i]}`));
    });
    expect(stages).toEqual(['splitting', 'splitting', 'splitting']);
    expect(await inProcessPreparer.prepare(raw(11), 'Alice')).toEqual(
      prepareText(raw(11), 'Alice'),
    );
  }, 60_000);

  it('refuses texts once closed', async () => {
    const closing = new PreparePool({ threads: 1 });
    const pending = expect(closing.prepare(raw(84), 'Frankenstein')).rejects.toThrow(
      /shutting down/,
    );
    await closing.close();
    await pending;
    await expect(closing.prepare('x', 'y')).rejects.toThrow(/shutting down/);
  });
});
