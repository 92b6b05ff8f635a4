import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, createUser, type TestApp } from '../test/helpers.js';
import { AnswerCache } from './answer-cache.js';

let t: TestApp;
let admin: { authorization: string };

beforeAll(async () => {
  t = await createTestApp();
  admin = (await createUser(t.app, { role: 'admin' })).auth;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/blog/admin/posts',
    headers: admin,
    payload: {
      title: 'Direct reads',
      markdown: 'A body that *renders*.',
      categories: ['Teaching Tips'],
      tags: ['reading'],
      status: 'published',
      authorFirstName: 'Grace',
      authorLastName: 'Hopper',
    },
  });
  expect(res.statusCode, res.body).toBe(201);
}, 180_000);
afterAll(() => t?.close());

const read = (path: string) => t.app.pageReads.read(new URL(path, 'http://localhost'));

describe('page reads (server rendering calls public reads directly)', () => {
  it('answer what the API answers: the same status and JSON, errors included', async () => {
    const urls = [
      '/api/v1/getgutenbergbooks?sort=download_count&limit=24',
      '/api/v1/getgutenbergbooks?subject=poetry',
      '/api/v1/getbooksubjects',
      '/api/v1/getgutenbergbook?url=no-such-book',
      '/api/v1/getgutenbergbookchapter?url=no-such-book&chapterUrl=chapter-1',
      '/api/v1/materials/getavailablechaptermaterials?bookUrl=no-such-book&chapterUrl=c-1',
      '/api/v1/blog/getblogposts?limit=6',
      '/api/v1/blog/getblogposts?sort=recommended&limit=3',
      '/api/v1/blog/getblogtaxonomy',
      '/api/v1/blog/getblogpost?url=direct-reads',
      '/api/v1/blog/getblogpost?url=no-such-post',
    ];
    for (const url of urls) {
      const direct = await read(url);
      const api = await t.app.inject({ method: 'GET', url });
      expect(direct, url).toBeDefined();
      expect(direct!.status, url).toBe(api.statusCode);
      expect(JSON.parse(String(direct!.body)), url).toEqual(api.json());
    }
  });

  it('leave to the API what is not theirs: invalid or repeated parameters, other routes', async () => {
    expect(await read('/api/v1/getgutenbergbooks?limit=1000')).toBeUndefined();
    expect(await read('/api/v1/getgutenbergbook')).toBeUndefined();
    expect(await read('/api/v1/getgutenbergbook?url=a&url=b')).toBeUndefined();
    expect(await read('/api/v1/users/me')).toBeUndefined();
  });

  it('show a blog change at once', async () => {
    const before = JSON.parse(String((await read('/api/v1/blog/getblogposts?limit=50'))!.body));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/blog/admin/posts',
      headers: admin,
      payload: {
        title: 'Another direct read',
        markdown: 'Another body.',
        categories: ['Teaching Tips'],
        status: 'published',
        authorFirstName: 'Ada',
        authorLastName: 'Lovelace',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const after = JSON.parse(String((await read('/api/v1/blog/getblogposts?limit=50'))!.body));
    expect(after.count).toBe(before.count + 1);
  });
});

describe('AnswerCache', () => {
  it('makes an answer once, keeps it until cleared or expired, and never keeps a stale one', async () => {
    let now = 1_000;
    const cache = new AnswerCache({ maxEntries: 2, maxAgeMs: 100 }, () => now);
    const produce = vi.fn(async () => ({ body: `v${produce.mock.calls.length}` }));
    const [a, b] = await Promise.all([cache.get('k', produce), cache.get('k', produce)]);
    expect([a, b]).toEqual(['v1', 'v1']);
    expect(await cache.get('k', produce)).toBe('v1');
    now += 100;
    expect(await cache.get('k', produce)).toBe('v2');
    cache.clear();
    expect(await cache.get('k', produce)).toBe('v3');

    // Made while a change happened: given to its askers, not kept.
    let release!: () => void;
    const slow = cache.get('s', () => new Promise((r) => (release = () => r({ body: 'old' }))));
    cache.clear();
    release();
    expect(await slow).toBe('old');
    expect(await cache.get('s', async () => ({ body: 'new' }))).toBe('new');

    // An answer that stops being true earlier (a scheduled post's date) expires then.
    expect(await cache.get('e', async () => ({ body: 'e1', expiresAt: now + 10 }))).toBe('e1');
    now += 10;
    expect(await cache.get('e', async () => ({ body: 'e2' }))).toBe('e2');
    expect(cache.size).toBeLessThanOrEqual(2);
  });
});
