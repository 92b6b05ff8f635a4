import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SUBJECTS,
  type BlogAdminPostsAnswer,
  type BlogPostAnswer,
  type BlogPostsAnswer,
} from '@chapterwise/shared';
import { blogSeeds } from '../../db/schema/index.js';
import { createTestApp, createUser, type TestApp } from '../../test/helpers.js';
import { BOOKS_SEED_DIR } from '../books/books.seed.js';
import { importCatalogue } from '../books/import/importer.js';
import { htmlToText, renderMarkdown } from './blog.markdown.js';
import {
  blogSeeder,
  listSampleFiles,
  parseFrontMatter,
  readSamplePost,
  SAMPLE_AUTHOR,
} from './blog.seed.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const seed = () =>
  blogSeeder.run(t.database, t.app.log, {
    storage: t.app.storage,
    publicUrl: t.config.publicUrl,
  });
const get = (url: string) => t.app.inject({ url });

describe('front matter', () => {
  it('reads strings, quoted strings, numbers, booleans and lists', () => {
    const { data, body } = parseFrontMatter(
      [
        '---',
        'title: "Teaching: a guide"',
        'url: a-guide',
        '# a comment',
        'cover: 84',
        'featured: true',
        'colour: "#1f4e79"',
        'tags: [Gothic, "Doubles, and more", \'Single\']',
        '---',
        '',
        'Body **text**.',
      ].join('\r\n'),
    );
    expect(data).toEqual({
      title: 'Teaching: a guide',
      url: 'a-guide',
      cover: 84,
      featured: true,
      colour: '#1f4e79',
      tags: ['Gothic', 'Doubles, and more', 'Single'],
    });
    expect(body).toBe('Body **text**.\n');
    expect(() => parseFrontMatter('no front matter')).toThrow(/front matter/);
    expect(() => parseFrontMatter('---\nnot a pair\n---\n')).toThrow(/not a pair/);
  });
});

describe('the sample posts', () => {
  const samples = listSampleFiles().map((file) => readSamplePost(file));

  it('are 6 to 8 complete posts of 600 to 1,200 words, published in the past', () => {
    expect(samples.length).toBeGreaterThanOrEqual(6);
    expect(samples.length).toBeLessThanOrEqual(8);
    const urls = new Set(samples.map((s) => s.input.url));
    expect(urls.size).toBe(samples.length);
    for (const { file, input } of samples) {
      const words = htmlToText(renderMarkdown(input.markdown, 'http://localhost:3000').html).split(
        /\s+/,
      ).length;
      expect(words, file).toBeGreaterThanOrEqual(600);
      expect(words, file).toBeLessThanOrEqual(1200);
      expect(input.summary.length, file).toBeGreaterThan(40);
      expect(input.categories.length, file).toBeGreaterThan(0);
      expect(input.tags.length, file).toBeGreaterThan(1);
      expect(new Date(input.publishDate!).getTime(), file).toBeLessThan(Date.now());
      expect(input.authorFirstName).toBe(SAMPLE_AUTHOR.authorFirstName);
    }
  });

  it('link only to books, chapters, subjects and posts that exist', async () => {
    const links = new Set<string>();
    for (const { input } of samples) {
      for (const m of input.markdown.matchAll(/\]\((\/[^)\s]*)\)/g)) links.add(m[1]!);
    }
    const sampleUrls = new Set(samples.map((s) => s.input.url));
    // The books the posts quote, from the sample catalogue.
    const report = await importCatalogue(t.app.db, {
      source: BOOKS_SEED_DIR,
      languages: ['en'],
      onlyIds: new Set([11, 43, 74, 76, 84, 98, 120, 345, 1400, 1513, 1952, 2542, 64317]),
    });
    expect(report.status).toBe('imported');
    await t.app.books.refreshVersion();
    const subjectSlugs = new Set(SUBJECTS.map((s) => s.slug));
    for (const link of links) {
      const parts = link.split('/').filter(Boolean).map(decodeURIComponent);
      if (parts[0] === 'blog') {
        expect(sampleUrls.has(parts[1]!), link).toBe(true);
      } else if (parts[0] === 'books') {
        expect(parts.length === 1 || subjectSlugs.has(parts[1]!), link).toBe(true);
      } else if (parts[0] === 'book') {
        const url =
          parts.length === 2
            ? `/api/v1/getgutenbergbook?url=${parts[1]}`
            : `/api/v1/getgutenbergbookchapter?url=${parts[1]}&chapterUrl=${parts[2]}`;
        expect((await get(url)).statusCode, link).toBe(200);
      } else {
        throw new Error(`unexpected link ${link}`);
      }
    }
    expect(links.size).toBeGreaterThan(20);
  }, 120_000);
});

describe('blogSeeder', () => {
  it('loads every sample post once, with thumbnails, through the editor checks', async () => {
    await seed();
    const answer = (await get('/api/v1/blog/getblogposts?limit=100')).json() as BlogPostsAnswer;
    const files = listSampleFiles();
    expect(answer.count).toBe(files.length);
    const gothic = answer.data.find(
      (p) => p.url === 'teaching-the-gothic-novel-frankenstein-and-dracula',
    )!;
    expect(gothic).toMatchObject({
      authorFirstName: 'Chapterwise',
      authorLastName: 'Team',
      categories: ['Book Guides', 'Teaching Tips'],
      publishDate: '2026-10-06T13:00:00.000Z',
      // Dated when it was written, not at first start.
      updatedAt: '2026-10-06T13:00:00.000Z',
    });
    const thumbnail = await get(gothic.thumbnailImage);
    expect(thumbnail.statusCode).toBe(200);
    expect(await sharp(thumbnail.rawPayload).metadata()).toMatchObject({
      format: 'webp',
      width: 1200,
      height: 630,
    });
    const picture = await get(gothic.authorProfilePicture);
    expect(await sharp(picture.rawPayload).metadata()).toMatchObject({ width: 256, height: 256 });
    // Every sample shares one author picture.
    expect(new Set(answer.data.map((p) => p.authorProfilePicture)).size).toBe(1);

    const post = (
      await get('/api/v1/blog/getblogpost?url=teaching-the-gothic-novel-frankenstein-and-dracula')
    ).json() as BlogPostAnswer;
    expect(post.data.body).toContain('<table>');
    expect(post.data.body).toContain(
      '<a href="/book/dracula/chapter-i-jonathan-harker-s-journal">chapter I</a>',
    );
    expect(post.data.related.length).toBeGreaterThan(0);

    // Recommended first in the sidebar order.
    const recommended = (
      await get('/api/v1/blog/getblogposts?sort=recommended&limit=3')
    ).json() as BlogPostsAnswer;
    expect(recommended.data.map((p) => p.url)).toEqual([
      'teaching-the-gothic-novel-frankenstein-and-dracula',
      'check-an-answer-key-against-the-text',
      'build-a-quiz-from-one-chapter',
    ]);
  });

  it('does nothing on later starts, and a deleted sample post stays deleted', async () => {
    await seed();
    const count = async () =>
      ((await get('/api/v1/blog/getblogposts?limit=100')).json() as BlogPostsAnswer).count;
    const before = await count();
    expect(before).toBe(listSampleFiles().length);

    const admin = await createUser(t.app, { role: 'admin' });
    const all = (
      await t.app.inject({ url: '/api/v1/blog/admin/posts?limit=100', headers: admin.auth })
    ).json() as BlogAdminPostsAnswer;
    const victim = all.data.find((p) => p.url === 'exit-tickets-from-a-single-chapter')!;
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/blog/admin/posts/${victim._id}`,
      headers: admin.auth,
    });
    expect(deleted.statusCode).toBe(200);
    // The shared author picture survives the deletion of one post.
    expect((await get(victim.authorProfilePicture)).statusCode).toBe(200);
    expect((await get(victim.thumbnailImage)).statusCode).toBe(404);

    await seed();
    expect(await count()).toBe(before - 1);

    // A file the database has not seen (a new release) is loaded on the next start.
    await t.app.db
      .delete(blogSeeds)
      .where(eq(blogSeeds.file, '06-exit-tickets-from-a-single-chapter.md'));
    await seed();
    expect(await count()).toBe(before);
  });
});
