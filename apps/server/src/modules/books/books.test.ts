import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type {
  BookAnswer,
  BooksAnswer,
  BookSubjectsAnswer,
  ChapterAnswer,
} from '@chapterwise/shared';
import { createTestApp, type TestApp } from '../../test/helpers.js';
import { BOOKS_SEED_DIR } from './books.seed.js';
import { importCatalogue } from './import/importer.js';

/** The featured books (texts in the seed data) and the first 400 catalogue ebooks. */
const FEATURED = [
  11, 16, 23, 33, 35, 43, 45, 46, 55, 74, 76, 84, 98, 113, 120, 174, 215, 345, 514, 844, 1260, 1342,
  1400, 1513, 1524, 1533, 1661, 1727, 1952, 2542, 2701, 5200, 20203, 64317, 25344, 16389,
];
/** Books about whales by their subject headings only (no whale in the title): Verne's "Dick
 * Sands" in two editions and "Wild Adventures round the Pole" ("Whales -- Juvenile fiction"). */
const WHALE_SUBJECT_ONLY = [9150, 12051, 38296];
const byNumber = (a: number, b: number) => a - b;
const IDS = new Set([
  ...FEATURED,
  ...WHALE_SUBJECT_ONLY,
  ...Array.from({ length: 400 }, (_, i) => i + 1),
]);

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  const report = await importCatalogue(t.app.db, {
    source: BOOKS_SEED_DIR,
    languages: ['en'],
    onlyIds: IDS,
  });
  expect(report.status).toBe('imported');
  await t.app.books.refreshVersion();
}, 300_000);

afterAll(async () => {
  await t?.close();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });

describe('importer', () => {
  it('skips copyrighted books and says why, and is idempotent', async () => {
    const again = await importCatalogue(t.app.db, {
      source: BOOKS_SEED_DIR,
      languages: ['en'],
      onlyIds: IDS,
    });
    expect(again.status).toBe('unchanged');
    const forced = await importCatalogue(t.app.db, {
      source: BOOKS_SEED_DIR,
      languages: ['en'],
      onlyIds: IDS,
      force: true,
    });
    expect(forced.status).toBe('imported');
    // Metamorphosis (5200) is a copyrighted translation: the seed has its text, the catalogue skips it.
    expect(forced.texts.skipped['book not in the imported catalogue']?.examples).toContain(5200);
    const list = (await get('/api/v1/getgutenbergbooks?limit=100&page=1')).json() as BooksAnswer;
    expect(list.count).toBe(forced.books);
    expect(list.data.map((b) => b.gutenbergId)).not.toContain(5200);
  }, 120_000);
});

describe('GET /getgutenbergbooks', () => {
  it('sorts by download_count by default, stable, with the first author and a cover', async () => {
    const res = await get('/api/v1/getgutenbergbooks?sort=download_count&limit=8');
    expect(res.statusCode).toBe(200);
    const body = res.json() as BooksAnswer;
    expect(body.data).toHaveLength(8);
    expect(body.data[0]!.title).toMatch(/^Frankenstein/);
    expect(body.data[0]!.download_count).toBe(195270);
    const counts = body.data.map((b) => b.download_count);
    expect([...counts].sort((a, b) => b - a)).toEqual(counts);
    expect(body.data[0]!.authors[0]).toMatchObject({
      name: 'Shelley, Mary Wollstonecraft',
      birthYear: 1797,
      deathYear: 1851,
      slug: 'mary-wollstonecraft-shelley',
    });
    expect(body.data[0]!.formats['image/jpeg']).toMatch(/^\/api\/v1\/books\/84\/cover\.jpg\?v=/);
    expect(res.headers.etag).toBeTruthy();
    expect(res.headers['cache-control']).toContain('max-age');
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await get('/api/v1/getgutenbergbooks?limit=5');
    const second = await get('/api/v1/getgutenbergbooks?limit=5', {
      'if-none-match': String(first.headers.etag),
    });
    expect(second.statusCode).toBe(304);
    expect(second.body).toBe('');
  });

  it('pages with a total count and breaks ties by id', async () => {
    const page1 = (await get('/api/v1/getgutenbergbooks?limit=50&page=1')).json() as BooksAnswer;
    const page2 = (await get('/api/v1/getgutenbergbooks?limit=50&page=2')).json() as BooksAnswer;
    expect(page1.count).toBe(page2.count);
    const ids = [...page1.data, ...page2.data].map((b) => b.gutenbergId);
    expect(new Set(ids).size).toBe(100);
    const zeros = [...page1.data, ...page2.data]
      .filter((b) => b.download_count === 0)
      .map((b) => b.gutenbergId);
    expect([...zeros].sort((a, b) => a - b)).toEqual(zeros);
  });

  it('random order is stable for a seed and differs between seeds; Recent sorts by createdAt', async () => {
    const a = (
      await get('/api/v1/getgutenbergbooks?sort=random&seed=7&limit=20')
    ).json() as BooksAnswer;
    const b = (
      await get('/api/v1/getgutenbergbooks?sort=random&seed=7&limit=20')
    ).json() as BooksAnswer;
    const c = (
      await get('/api/v1/getgutenbergbooks?sort=random&seed=8&limit=20')
    ).json() as BooksAnswer;
    expect(a.data.map((x) => x.gutenbergId)).toEqual(b.data.map((x) => x.gutenbergId));
    expect(a.data.map((x) => x.gutenbergId)).not.toEqual(c.data.map((x) => x.gutenbergId));
    const recent = (
      await get('/api/v1/getgutenbergbooks?sort=createdAt&limit=20')
    ).json() as BooksAnswer;
    const dates = recent.data.map((x) => x.createdAt);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it('filters by subject slug and author slug', async () => {
    const drama = (
      await get('/api/v1/getgutenbergbooks?subject=drama&limit=100')
    ).json() as BooksAnswer;
    expect(drama.count).toBeGreaterThan(0);
    expect(drama.data.map((b) => b.title)).toEqual(
      expect.arrayContaining(['Romeo and Juliet', 'Macbeth']),
    );
    for (const book of drama.data) expect(book.categories.map((c) => c.slug)).toContain('drama');
    const twain = (await get('/api/v1/getgutenbergbooks?author=mark-twain')).json() as BooksAnswer;
    expect(twain.data.map((b) => b.gutenbergId)).toEqual(expect.arrayContaining([74, 76]));
    const nobody = (
      await get('/api/v1/getgutenbergbooks?author=no-such-author')
    ).json() as BooksAnswer;
    expect(nobody).toEqual({ data: [], count: 0 });
  });

  it('searches titles and authors with ranking, accents and typos', async () => {
    const pride = (
      await get('/api/v1/getgutenbergbooks?searchTerm=pride%20and%20prejudice')
    ).json() as BooksAnswer;
    expect(pride.data[0]!.gutenbergId).toBe(1342);
    const author = (
      await get('/api/v1/getgutenbergbooks?searchTerm=shelley')
    ).json() as BooksAnswer;
    expect(author.data.map((b) => b.gutenbergId)).toContain(84);
    const prefix = (
      await get('/api/v1/getgutenbergbooks?searchTerm=franken')
    ).json() as BooksAnswer;
    expect(prefix.data[0]!.gutenbergId).toBe(84);
    const typo = (
      await get('/api/v1/getgutenbergbooks?searchTerm=frankenstien')
    ).json() as BooksAnswer;
    expect(typo.data[0]?.gutenbergId).toBe(84);
    const typo2 = (
      await get('/api/v1/getgutenbergbooks?searchTerm=sherlok%20holmes')
    ).json() as BooksAnswer;
    expect(typo2.data.map((b) => b.gutenbergId)).toContain(1661);
    const accents = (
      await get('/api/v1/getgutenbergbooks?searchTerm=Dr%C3%A1cula')
    ).json() as BooksAnswer;
    expect(accents.data[0]?.gutenbergId).toBe(345);
    // Two real words no book has together: nothing, rather than loosely similar titles.
    const none = (
      await get('/api/v1/getgutenbergbooks?searchTerm=frankenstein%20sherlock')
    ).json() as BooksAnswer;
    expect(none).toEqual({ data: [], count: 0 });
    // A typo among real words is still forgiven.
    const mixed = (
      await get('/api/v1/getgutenbergbooks?searchTerm=pride%20prejudise')
    ).json() as BooksAnswer;
    expect(mixed.data.map((b) => b.gutenbergId)).toContain(1342);
  });

  it('puts the exact title first, then the phrase, whatever the words match loosely', async () => {
    const search = async (term: string, sort = 'download_count') =>
      (
        (
          await get(`/api/v1/getgutenbergbooks?sort=${sort}&searchTerm=${encodeURIComponent(term)}`)
        ).json() as BooksAnswer
      ).data;
    for (const sort of ['download_count', 'createdAt', 'random']) {
      const worlds = await search('war of the worlds', sort);
      expect(worlds[0]?.gutenbergId).toBe(36);
      expect(worlds[0]?.authors[0]?.name).toMatch(/Wells/);
    }
    expect((await search('The War of the Worlds!'))[0]?.gutenbergId).toBe(36);
    expect((await search('war of the worlds wells'))[0]?.gutenbergId).toBe(36);
    expect((await search('wells war of the worlds'))[0]?.gutenbergId).toBe(36);
    expect((await search('war of the wrolds'))[0]?.gutenbergId).toBe(36);
    // An author alone: the author's books, those with a text first.
    const wells = await search('wells');
    expect(wells[0]?.gutenbergId).toBe(35);
    expect(wells.map((b) => b.gutenbergId)).toContain(36);
  });

  it('finds books by their subjects last, after every title and author match', async () => {
    const search = async (term: string, query = '') =>
      (
        await get(
          `/api/v1/getgutenbergbooks?searchTerm=${encodeURIComponent(term)}&limit=100${query}`,
        )
      ).json() as BooksAnswer;
    for (const sort of ['download_count', 'createdAt']) {
      const whales = await search('whales', `&sort=${sort}`);
      const ids = whales.data.map((b) => b.gutenbergId);
      expect(whales.count).toBe(ids.length);
      // Moby Dick ("…; Or, The Whale") is a title match, first; the books whose headings say
      // "Whales -- Fiction" but whose titles do not follow every title match.
      expect(ids[0], sort).toBe(2701);
      const subjectOnly = ids.filter((id) => WHALE_SUBJECT_ONLY.includes(id));
      expect(subjectOnly.sort(byNumber), sort).toEqual([...WHALE_SUBJECT_ONLY].sort(byNumber));
      const firstSubject = Math.min(...WHALE_SUBJECT_ONLY.map((id) => ids.indexOf(id)));
      expect(ids.slice(firstSubject).sort(byNumber), sort).toEqual(
        [...WHALE_SUBJECT_ONLY].sort(byNumber),
      );
      for (const book of whales.data.slice(0, firstSubject)) {
        expect(`${book.title} ${book.authors.map((a) => a.name).join(' ')}`).toMatch(/whal/i);
      }
    }
    // Pages run on from the title matches into the subject matches, none twice or missing.
    const all = (await search('whales')).data.map((b) => b.gutenbergId);
    const paged: number[] = [];
    for (let page = 1; paged.length < all.length && page < 20; page++) {
      const answer = (
        await get(`/api/v1/getgutenbergbooks?searchTerm=whales&limit=2&page=${page}`)
      ).json() as BooksAnswer;
      expect(answer.count).toBe(all.length);
      paged.push(...answer.data.map((b) => b.gutenbergId));
    }
    expect(paged).toEqual(all);
    // Subject words are whole words ("whal" is no subject), a subject match needs every word,
    // and a subdivision that says what kind of book it is ("-- Juvenile fiction") is not a subject.
    expect((await search('whal')).data.map((b) => b.gutenbergId)).not.toContain(9150);
    expect((await search('whales cooks')).data.map((b) => b.gutenbergId).sort(byNumber)).toEqual([
      9150, 12051,
    ]);
    expect((await search('whales mountains')).data.map((b) => b.gutenbergId)).toEqual([38296]);
    expect((await search('juvenile fiction')).data.map((b) => b.gutenbergId)).not.toContain(38296);
    // Filters hold in the subject tier too.
    const adventure = await search('whales', '&subject=adventure');
    expect(adventure.data.length).toBeGreaterThan(0);
    for (const book of adventure.data) {
      expect(book.categories.map((c) => c.slug)).toContain('adventure');
    }
  });

  it.each([
    ["'; DROP TABLE books; --"],
    ['%_\\'],
    ['a & b | !c :* <-> ()'],
    ['"unterminated'],
    ['   '],
    ['ü'.repeat(150)],
    ['\u0000\u0001'],
  ])('treats hostile search %j as text, never a 500', async (term) => {
    const res = await get(`/api/v1/getgutenbergbooks?searchTerm=${encodeURIComponent(term)}`);
    expect([200, 400]).toContain(res.statusCode);
    if (res.statusCode === 200) expect(res.json()).toHaveProperty('count');
  });

  it.each([
    ['sort=views', 'sort'],
    ['sort=download_count;drop', 'sort'],
    ['limit=100000', 'limit'],
    ['limit=0', 'limit'],
    ['limit=abc', 'limit'],
    ['page=-1', 'page'],
    ['subject=Science%20Fiction', 'subject'],
    ['author=../../etc', 'author'],
    [`searchTerm=${'x'.repeat(201)}`, 'searchTerm'],
  ])('rejects %s with a 400 naming the field', async (query, field) => {
    const res = await get(`/api/v1/getgutenbergbooks?${query}`);
    expect(res.statusCode).toBe(400);
    const body = res.json() as { errors: { message: string; code: string } };
    expect(body.errors.code).toBe('BAD_REQUEST');
    expect(body.errors.message).toContain(field);
  });

  it('ignores unknown parameters', async () => {
    const res = await get('/api/v1/getgutenbergbooks?limit=3&unknown=1&$where=1');
    expect(res.statusCode).toBe(200);
  });
});

describe('GET /getgutenbergbook and /getgutenbergbookchapter', () => {
  it('returns a book with its chapters, length and grade', async () => {
    const res = await get('/api/v1/getgutenbergbook?url=alice-s-adventures-in-wonderland');
    expect(res.statusCode).toBe(200);
    const { data } = res.json() as BookAnswer;
    expect(data.title).toBe("Alice's Adventures in Wonderland");
    expect(data.chapters).toHaveLength(12);
    expect(data.chapters[0]).toMatchObject({
      index: 0,
      title: 'Chapter I: Down the Rabbit-Hole',
      url: 'chapter-i-down-the-rabbit-hole',
    });
    expect(data.wordCount).toBeGreaterThan(25_000);
    expect(data.readingMinutes).toBeGreaterThan(100);
    expect(data.readingGrade).toBeGreaterThan(3);
    expect(data.subject).toBeTruthy();
  });

  it('returns a chapter without any PG text, with previous and next', async () => {
    const res = await get(
      '/api/v1/getgutenbergbookchapter?url=alice-s-adventures-in-wonderland&chapterUrl=chapter-ii-the-pool-of-tears',
    );
    expect(res.statusCode).toBe(200);
    const { data } = res.json() as ChapterAnswer;
    expect(data.book.url).toBe('alice-s-adventures-in-wonderland');
    expect(data.chapter.text.startsWith('‘Curiouser and curiouser!’ cried Alice')).toBe(true);
    expect(data.chapter.text).not.toMatch(/gutenberg/i);
    expect(data.chapter.previous).toEqual({
      title: 'Chapter I: Down the Rabbit-Hole',
      url: 'chapter-i-down-the-rabbit-hole',
    });
    expect(data.chapter.next?.url).toBe('chapter-iii-a-caucus-race-and-a-long-tale');
    const first = (
      await get(
        '/api/v1/getgutenbergbookchapter?url=alice-s-adventures-in-wonderland&chapterUrl=chapter-i-down-the-rabbit-hole',
      )
    ).json() as ChapterAnswer;
    expect(first.data.chapter.previous).toBeUndefined();
  });

  it.each([
    '/api/v1/getgutenbergbook?url=no-such-book',
    "/api/v1/getgutenbergbook?url=' OR 1=1 --",
    '/api/v1/getgutenbergbookchapter?url=alice-s-adventures-in-wonderland&chapterUrl=chapter-99',
    '/api/v1/getgutenbergbookchapter?url=no-such-book&chapterUrl=chapter-i',
  ])('answers 404 for %s', async (url) => {
    const res = await get(url);
    expect(res.statusCode).toBe(404);
    expect((res.json() as { errors: { code: string } }).errors.code).toBe('NOT_FOUND');
  });

  it.each([
    '/api/v1/getgutenbergbook',
    '/api/v1/getgutenbergbook?url=',
    `/api/v1/getgutenbergbook?url=${'a'.repeat(300)}`,
    '/api/v1/getgutenbergbookchapter?url=alice-s-adventures-in-wonderland',
  ])('answers 400 for %s', async (url) => {
    expect((await get(url)).statusCode).toBe(400);
  });
});

describe('has_text', () => {
  it('follows the chapters, whoever writes them (a database trigger)', async () => {
    const flags = async (id: number) => {
      const { rows } = await t.app.database.executeSql(
        'select b.has_text as book, s.has_text as search from books b join book_search s on s.book_id = b.id where b.id = $1',
        [id],
      );
      return rows[0] as { book: boolean; search: boolean };
    };
    expect(await flags(84)).toEqual({ book: true, search: true });
    expect(await flags(36)).toEqual({ book: false, search: false });
    await t.app.database.executeSql(
      `insert into book_chapters (book_id, index, title, url, text, word_count, reading_minutes, reading_grade)
       values (36, 0, 'Book I', 'book-i', 'No one would have believed…', 5, 1, 8)`,
      [],
    );
    expect(await flags(36)).toEqual({ book: true, search: true });
    await t.app.database.executeSql('delete from book_chapters where book_id = 36', []);
    expect(await flags(36)).toEqual({ book: false, search: false });
  });
});

describe('GET /getbooksubjects', () => {
  it('lists about 50 subjects with slugs and counts', async () => {
    const res = await get('/api/v1/getbooksubjects');
    expect(res.statusCode).toBe(200);
    const { data } = res.json() as BookSubjectsAnswer;
    expect(data.length).toBeGreaterThanOrEqual(45);
    expect(data.length).toBeLessThanOrEqual(60);
    expect(data.find((s) => s.slug === 'drama')?.count).toBeGreaterThan(0);
    for (const s of data) expect(s.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });
});

describe('covers', () => {
  it('serves the public-domain cover as JPEG with cache headers', async () => {
    const res = await get('/api/v1/books/84/cover.jpg?v=x');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['cache-control']).toContain('immutable');
    const meta = await sharp(res.rawPayload).metadata();
    expect(meta.format).toBe('jpeg');
    const again = await get('/api/v1/books/84/cover.jpg?v=x', {
      'if-none-match': String(res.headers.etag),
    });
    expect(again.statusCode).toBe(304);
  });

  it('generates a typographic cover once for a book without one', async () => {
    const first = await get('/api/v1/books/11/cover.jpg');
    expect(first.statusCode).toBe(200);
    const meta = await sharp(first.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 400, 600]);
    const second = await get('/api/v1/books/11/cover.jpg');
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
  });

  it.each([
    '/api/v1/books/999999/cover.jpg',
    '/api/v1/books/abc/cover.jpg',
    '/api/v1/books/-1/cover.jpg',
  ])('%s is a 4xx', async (url) => {
    const res = await get(url);
    expect([400, 404]).toContain(res.statusCode);
  });
});

describe('robots.txt and sitemap.xml', () => {
  it('robots.txt names the sitemap', async () => {
    const res = await get('/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Sitemap: http://localhost:3000/sitemap.xml');
  });

  it('sitemap.xml is an index of paged child sitemaps with books and chapters', async () => {
    const index = await get('/sitemap.xml');
    expect(index.statusCode).toBe(200);
    expect(index.body).toContain('<sitemapindex');
    expect(index.body).toContain('http://localhost:3000/sitemaps/books-1.xml');
    const pages = await get('/sitemaps/books-1.xml');
    expect(pages.body).toContain('<loc>http://localhost:3000/books/science-fiction</loc>');
    const books = await get('/sitemaps/books-2.xml');
    expect(books.body).toContain(
      '<loc>http://localhost:3000/book/alice-s-adventures-in-wonderland</loc>',
    );
    expect(books.body).toContain(
      '/book/alice-s-adventures-in-wonderland/chapter-i-down-the-rabbit-hole</loc>',
    );
    expect((await get('/sitemaps/books-99.xml')).statusCode).toBe(404);
    expect((await get('/sitemaps/nothing-1.xml')).statusCode).toBe(404);
  });
});
