import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  bookChapters,
  bookCovers,
  bookImports,
  books,
  bookSearch,
  type BookRow,
  type NewBookRow,
} from '../../db/schema/index.js';

/** The columns a list or detail answer needs (never the search columns). */
const bookColumns = {
  id: books.id,
  url: books.url,
  title: books.title,
  subtitle: books.subtitle,
  authors: books.authors,
  subject: books.subject,
  subjectSlugs: books.subjectSlugs,
  lcsh: books.lcsh,
  languages: books.languages,
  downloadCount: books.downloadCount,
  issued: books.issued,
  chapterCount: books.chapterCount,
  wordCount: books.wordCount,
  readingMinutes: books.readingMinutes,
  readingGrade: books.readingGrade,
  createdAt: books.createdAt,
  coverEtag: bookCovers.etag,
};

export type BookListRow = Pick<
  BookRow,
  | 'id'
  | 'url'
  | 'title'
  | 'subtitle'
  | 'authors'
  | 'subject'
  | 'subjectSlugs'
  | 'lcsh'
  | 'languages'
  | 'downloadCount'
  | 'issued'
  | 'chapterCount'
  | 'wordCount'
  | 'readingMinutes'
  | 'readingGrade'
  | 'createdAt'
> & { coverEtag: string | null };

export interface ListBooksFilter {
  subject?: string | undefined;
  author?: string | undefined;
}

export interface ListBooksPage {
  limit: number;
  offset: number;
}

function searchFilterConditions(filter: ListBooksFilter, alias?: string): SQL[] {
  const conditions: SQL[] = [];
  const column = (name: string) =>
    alias ? sql.raw(`${alias}.${name}`) : sql.raw(`"book_search"."${name}"`);
  if (filter.subject) {
    conditions.push(sql`${column('subject_slugs')} @> ARRAY[${filter.subject}]::text[]`);
  }
  if (filter.author) {
    conditions.push(sql`${column('author_slugs')} @> ARRAY[${filter.author}]::text[]`);
  }
  return conditions;
}

function filterConditions(filter: ListBooksFilter): SQL[] {
  const conditions: SQL[] = [];
  if (filter.subject)
    conditions.push(sql`${books.subjectSlugs} @> ARRAY[${filter.subject}]::text[]`);
  if (filter.author) conditions.push(sql`${books.authorSlugs} @> ARRAY[${filter.author}]::text[]`);
  return conditions;
}

/**
 * Books in a stable order: popular (downloads, then id), recent (added, then id, newest
 * first) or random with a seed (a cheap integer hash of the id, so the same seed pages
 * through the same order).
 */
export async function listBooks(
  db: Db,
  filter: ListBooksFilter,
  order: { sort: 'random' | 'download_count' | 'createdAt'; seed: number },
  page: ListBooksPage,
): Promise<{ rows: BookListRow[]; count: number }> {
  const where = and(...filterConditions(filter));
  const orderBy =
    order.sort === 'download_count'
      ? [desc(books.downloadCount), asc(books.id)]
      : order.sort === 'createdAt'
        ? [desc(books.createdAt), desc(books.id)]
        : [
            sql`(((${books.id}::bigint # ${order.seed}::bigint) * 2654435761) % 4294967291)`,
            asc(books.id),
          ];
  const rowsQuery = db
    .select(bookColumns)
    .from(books)
    .leftJoin(bookCovers, eq(bookCovers.bookId, books.id))
    .where(where)
    .orderBy(...orderBy)
    .limit(page.limit)
    .offset(page.offset);
  const rows = await rowsQuery;
  const [counted] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(books)
    .where(where);
  return { rows, count: counted?.count ?? 0 };
}

/** The rows of these ids, in the order of the ids. */
async function rowsInOrder(db: Db, ids: number[]): Promise<BookListRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select(bookColumns)
    .from(books)
    .leftJoin(bookCovers, eq(bookCovers.bookId, books.id))
    .where(inArray(books.id, ids));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is BookListRow => Boolean(r));
}

/**
 * At most this many books are listed (and counted) for their subject headings alone, the first
 * in the chosen sort: a teacher who typed "stories" will not page through 8,000 books whose
 * headings say "Short stories", and the count of a common subject word stays cheap.
 */
export const SUBJECT_TIER_SIZE = 500;

/** How the chosen sort orders books within a relevance tier. */
export type SearchSort = 'download_count' | 'createdAt';

/**
 * A search as the ranking query needs it (built by `planSearch` in books.search.ts):
 * `prefix` (a to_tsquery string: every word, prefix-matched) selects the books; the other
 * fields decide each book's tier. `splits` read the words as a title followed or preceded by
 * author words ("war of the worlds wells", "kipling just so").
 */
export interface SearchPlan {
  prefix: string;
  /** The whole term, normalised, without a leading The/A/An. */
  exact: string;
  /** Every word prefix-matched in the title (weight A). */
  titlePrefix: string;
  /** Every word, whole, in the authors (weight B). */
  authorWords: string;
  /** Every word, whole (stemmed), in the subject headings: the subject tier. */
  subjectWords: string;
  /** Stop words of the term, which the title must hold as words for the "title words" tier. */
  titleStopWords: string[];
  splits: Array<{
    exact: string;
    titlePrefix: string;
    titleStopWords: string[];
    authorPrefix: string;
    /** An author word of this reading is a stop word ("so"): no author is read there. */
    authorHasStopWord: boolean;
  }>;
}

/**
 * Search with relevance tiers (decision 015): 0 exact title (whole title or the part before
 * ';'/':'), 1 the words as a phrase in the title, 2 every word in the title, 3 the rest (author
 * words), then, last, the books whose subject headings hold every word (and no title or author
 * reading does); a split counts when its author words are in the authors. Within a tier, books with
 * a text come first, then the chosen sort. Editions of one work (same short title and first
 * author) sit together where the best of them ranks. The ranking pass reads only the narrow
 * `book_search` rows that match; the page's full rows are fetched afterwards.
 */
export async function searchBooks(
  db: Db,
  plan: SearchPlan,
  filter: ListBooksFilter,
  sort: SearchSort,
  page: ListBooksPage,
): Promise<{ rows: BookListRow[]; count: number }> {
  const query = sql`to_tsquery('english', ${plan.prefix})`;
  const where = and(sql`s.search @@ ${query}`, ...searchFilterConditions(filter, 's'));
  // Every check is cheap per row (no tsvector copies): string compares on the normalised
  // title and @@ with weight-restricted queries (A title, B authors).
  const padded = sql`(' ' || s.title_key || ' ')`;
  const hasWords = (stopWords: string[]) =>
    stopWords.map((w) => sql` and ${padded} like ${`% ${w} %`}`);
  // The whole term: 0 the exact title, 1 the words as a phrase of the title (its first words
  // included), 2 every word in the title (stop words, which full-text search drops, as
  // words) or every word whole in the authors ("wells" is H. G. Wells rather than "well…").
  const tiers = [
    sql`case when s.title_key = ${plan.exact} or s.short_key = ${plan.exact} then 0
      when ${padded} like ${`% ${plan.exact} %`} then 1
      when (s.search @@ to_tsquery('english', ${plan.titlePrefix})${sql.join(hasWords(plan.titleStopWords))})
        or s.search @@ to_tsquery('simple', ${plan.authorWords}) then 2 else 3 end`,
  ];
  // Each reading as a title with author words counts only for books with those authors: the
  // author check runs once per book, the title checks only when it holds. A reading whose
  // author words include a stop word ("just so stories" as "stories" by "just so") is left
  // out: names are not stop words, and every reading costs a check per selected book.
  for (const split of plan.splits.filter((s) => !s.authorHasStopWord)) {
    tiers.push(sql`case when s.search @@ to_tsquery('simple', ${split.authorPrefix}) then
      case when s.title_key = ${split.exact} or s.short_key = ${split.exact} then 0
        when ${padded} like ${`% ${split.exact} %`} then 1
        when s.search @@ to_tsquery('english', ${split.titlePrefix})${sql.join(hasWords(split.titleStopWords))}
          then 2 end end`);
  }
  const tier = tiers.length === 1 ? tiers[0]! : sql`least(${sql.join(tiers, sql`, `)})`;
  // Popular sort: a title match (tiers 0-2) outranks an author-only match; within them an
  // exact title is worth 4 and a phrase 2 on the scale of ln(downloads), and a text 1.5, so
  // an obscure book that happens to be called "Alice in Wonderland" does not bury Carroll's.
  // Newest first: the tiers strictly, then the books with a text, then the newest.
  const newest = sort === 'createdAt';
  const score = newest
    ? sql`(select extract(epoch from b.created_at) from books b where b.id = s.book_id)`
    : sql`(case t.tier when 0 then 4 when 1 then 2 else 0 end) + ln(1 + s.download_count)
        + (case when s.has_text then 1.5 else 0 end)`;
  const ranked = db.execute<{ id: number; total: number }>(sql`
    with hits as (
      select s.book_id, s.work_key collate "C" as work_key, s.has_text, s.download_count, t.tier,
        case when t.tier < 3 then 0 else 1 end as band, ${score} as score
      from book_search s, lateral (select ${tier} as tier offset 0) t
      where ${where}
    ), works as (
      select *, min(band) over w as work_band, min(tier) over w as work_tier,
        bool_or(has_text) over w as work_text, max(score) over w as work_score
      from hits
      window w as (partition by work_key)
    )
    select book_id as id, count(*) over ()::int as total
    from works
    order by work_band, ${newest ? sql`work_tier, work_text desc,` : sql``} work_score desc,
      work_key, has_text desc, download_count desc, book_id
    limit ${page.limit} offset ${page.offset}
  `);
  // The subject tier, after every title and author match: books whose subject headings hold
  // every word (whole, stemmed: "whales" is "Whales -- Fiction", not "Whalers") that no title
  // or author reading selected, at most SUBJECT_TIER_SIZE of them (the first in the sort's
  // order). They are counted for every search (a GIN probe of the subject index, apart from the
  // title/author index so that those tiers read no subject words; the count stops at the
  // limit, so "stories", a word of 8,000 books' headings, costs what 500 do), but read and
  // sorted only when a page reaches past the title and author matches.
  const subjectWhere = and(
    sql`s.subjects @@ to_tsquery('english', ${plan.subjectWords})`,
    sql`not (s.search @@ ${query})`,
    ...searchFilterConditions(filter, 's'),
  );
  const subjectCount = db.execute<{ count: number }>(
    sql`select count(*)::int as count from
      (select 1 from book_search s where ${subjectWhere} limit ${SUBJECT_TIER_SIZE}) x`,
  );
  const [rankedResult, subjectResult] = await Promise.all([ranked, subjectCount]);
  const hits = (rankedResult as unknown as { rows: Array<{ id: number; total: number }> }).rows;
  const subjectTotal = Number(
    (subjectResult as unknown as { rows: Array<{ count: number }> }).rows[0]?.count ?? 0,
  );
  let total = hits.length > 0 ? Number(hits[0]!.total) : 0;
  if (hits.length === 0 && page.offset > 0) {
    const [counted] = await db
      .select({ count: sql<number>`count(*)::int` })
      .from(sql`book_search s`)
      .where(where);
    total = Number(counted?.count ?? 0);
  }
  const ids = hits.map((h) => Number(h.id));
  const subjectOffset = Math.max(0, page.offset - total);
  const wanted = Math.min(page.limit - ids.length, subjectTotal - subjectOffset);
  if (wanted > 0) {
    // Within the subject tier the chosen sort alone orders books (popular: downloads and a
    // text, as in the title tiers; newest: a text, then the newest).
    const order = newest
      ? sql`s.has_text desc, (select b.created_at from books b where b.id = s.book_id) desc, s.book_id desc`
      : sql`ln(1 + s.download_count) + (case when s.has_text then 1.5 else 0 end) desc, s.book_id`;
    const subjectRows = await db.execute<{ id: number }>(sql`
      select s.book_id as id from book_search s where ${subjectWhere}
      order by ${order}
      limit ${wanted} offset ${subjectOffset}
    `);
    for (const row of (subjectRows as unknown as { rows: Array<{ id: number }> }).rows) {
      ids.push(Number(row.id));
    }
  }
  return { rows: await rowsInOrder(db, ids), count: total + subjectTotal };
}

/**
 * Catalogue words close to the words of a search that may be misspelt, for the caller to pick
 * from by edit distance: only words that are rare or unknown in the catalogue (used by fewer
 * than `rareBelow` books) are looked up, since a correction must be ten times as common as
 * the word it replaces. One transaction: the words' own counts, then the trigram candidates
 * (index) of the rare ones, each with how many books use it.
 */
export async function similarWords(
  db: Db,
  words: string[],
  rareBelow: number,
): Promise<{
  /** How many books use each word (absent: none). */
  own: Map<string, number>;
  /** The candidates of each rare word. */
  candidates: Map<string, Array<{ word: string; books: number; downloads: number }>>;
}> {
  type Candidate = { query: string; word: string; books: number; downloads: number };
  const found = new Map<string, Array<{ word: string; books: number; downloads: number }>>();
  if (words.length === 0) return { own: new Map(), candidates: found };
  const list = sql`array[${sql.join(
    words.map((w) => sql`${w}`),
    sql`, `,
  )}]::text[]`;
  return db.transaction(async (tx) => {
    const counted = await tx.execute<{ word: string; books: number }>(
      sql`select word, books from book_words where word = any(${list})`,
    );
    const own = new Map(
      (counted as unknown as { rows: Array<{ word: string; books: number }> }).rows.map((r) => [
        r.word,
        Number(r.books),
      ]),
    );
    const rare = words.filter((w) => (own.get(w) ?? 0) < rareBelow);
    if (rare.length === 0) return { own, candidates: found };
    for (const w of rare) found.set(w, []);
    // Short words (one edit allowed): every word one edit away, looked up by key. Trigrams
    // would list most words sharing their first two letters ("dik": every "di…").
    const short = rare.filter((w) => w.length <= 5);
    if (short.length > 0) {
      const from = new Map<string, string[]>();
      for (const w of short) {
        for (const v of oneEditAway(w)) from.set(v, [...(from.get(v) ?? []), w]);
      }
      const near = await tx.execute<Omit<Candidate, 'query'>>(
        sql`select word, books, downloads from book_words where word = any(array[${sql.join(
          [...from.keys()].map((v) => sql`${v}`),
          sql`, `,
        )}]::text[])`,
      );
      for (const row of (near as unknown as { rows: Array<Omit<Candidate, 'query'>> }).rows) {
        for (const query of from.get(row.word) ?? []) {
          found.get(query)!.push({
            word: row.word,
            books: Number(row.books),
            downloads: Number(row.downloads),
          });
        }
      }
    }
    const long = rare.filter((w) => w.length > 5);
    if (long.length === 0) return { own, candidates: found };
    // A transposition ("wrolds") shares few trigrams: a lower threshold than the default 0.3,
    // for this transaction only. One subquery per word with the word as a constant, so that
    // each uses the trigram index.
    await tx.execute(sql`SET LOCAL pg_trgm.similarity_threshold = 0.2`);
    const result = await tx.execute<Candidate>(
      sql.join(
        long.map(
          (w) => sql`(select ${w} as query, word, books, downloads from book_words
            where word % ${w} and length(word) between ${w.length - 2} and ${w.length + 2}
            order by similarity(word, ${w}) desc, books desc limit 40)`,
        ),
        sql` union all `,
      ),
    );
    for (const row of (result as unknown as { rows: Candidate[] }).rows) {
      found.get(row.query)?.push({
        word: row.word,
        books: Number(row.books),
        downloads: Number(row.downloads),
      });
    }
    return { own, candidates: found };
  });
}

/** The word itself and every string one edit away (delete, swap, replace, insert a-z or 0-9). */
function oneEditAway(word: string): Set<string> {
  const letters = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const out = new Set<string>([word]);
  for (let i = 0; i <= word.length; i++) {
    const [head, tail] = [word.slice(0, i), word.slice(i)];
    if (tail) out.add(head + tail.slice(1));
    if (tail.length > 1) out.add(head + tail[1] + tail[0] + tail.slice(2));
    for (const c of letters) {
      if (tail) out.add(head + c + tail.slice(1));
      out.add(head + c + tail);
    }
  }
  return out;
}

/** Rebuilds the catalogue's word list (after an import changed titles or authors). */
export async function refreshBookWords(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`DELETE FROM book_words`);
    await tx.execute(sql`DROP INDEX IF EXISTS book_words_trgm_idx`);
    await tx.execute(sql`
      INSERT INTO book_words (word, books, downloads)
      SELECT w, count(*), max(download_count)
      FROM book_search, unnest(tsvector_to_array(to_tsvector('simple', search_all))) AS w
      GROUP BY w`);
    await tx.execute(
      sql`CREATE INDEX book_words_trgm_idx ON book_words USING gin (word gin_trgm_ops)`,
    );
  });
}

/**
 * Whether each word, on its own, starts a word of some title or author (one index probe per
 * word): a search for all of them that found nothing has no typo to forgive when all do.
 */
export async function wordsMatching(db: Db, words: string[]): Promise<boolean[]> {
  const probes = words.map(
    (w, i) =>
      // A stop word ("of") is dropped by the query: it matches, there is nothing to correct.
      sql`(numnode(to_tsquery('english', ${`${w}:*`})) = 0 or exists (select 1 from ${bookSearch} where ${bookSearch.search} @@ to_tsquery('english', ${`${w}:*`}))) as ${sql.raw(`w${i}`)}`,
  );
  const result = await db.execute<Record<string, boolean>>(
    sql`select ${sql.join(probes, sql`, `)}`,
  );
  const row = (result as unknown as { rows?: Array<Record<string, boolean>> }).rows?.[0] ?? {};
  return words.map((_, i) => row[`w${i}`] === true);
}

/**
 * Typo-tolerant search with trigrams: titles and authors whose words are close to the
 * term ("frankenstien" finds "Frankenstein"). Used when the full-text search finds nothing.
 */
export async function searchBooksFuzzy(
  db: Db,
  term: string,
  filter: ListBooksFilter,
  page: ListBooksPage,
): Promise<{ rows: BookListRow[]; count: number }> {
  const where = and(sql`${term} <% ${bookSearch.searchAll}`, ...searchFilterConditions(filter));
  const hits = await db
    .select({ id: bookSearch.bookId, total: sql<number>`count(*) over ()::int` })
    .from(bookSearch)
    .where(where)
    .orderBy(
      desc(sql`round(word_similarity(${term}, ${bookSearch.searchAll})::numeric, 1)`),
      desc(bookSearch.downloadCount),
      asc(bookSearch.bookId),
    )
    .limit(page.limit)
    .offset(page.offset);
  return {
    rows: await rowsInOrder(
      db,
      hits.map((h) => h.id),
    ),
    count: hits[0]?.total ?? 0,
  };
}

export async function findBookByUrl(db: Db, url: string): Promise<BookListRow | undefined> {
  const [row] = await db
    .select(bookColumns)
    .from(books)
    .leftJoin(bookCovers, eq(bookCovers.bookId, books.id))
    .where(eq(books.url, url))
    .limit(1);
  return row;
}

export async function findBookById(db: Db, id: number): Promise<BookListRow | undefined> {
  const [row] = await db
    .select(bookColumns)
    .from(books)
    .leftJoin(bookCovers, eq(bookCovers.bookId, books.id))
    .where(eq(books.id, id))
    .limit(1);
  return row;
}

export async function listChapterSummaries(db: Db, bookId: number) {
  return db
    .select({
      index: bookChapters.index,
      title: bookChapters.title,
      url: bookChapters.url,
      wordCount: bookChapters.wordCount,
    })
    .from(bookChapters)
    .where(eq(bookChapters.bookId, bookId))
    .orderBy(asc(bookChapters.index));
}

export async function findChapter(db: Db, bookId: number, url: string) {
  const [row] = await db
    .select()
    .from(bookChapters)
    .where(and(eq(bookChapters.bookId, bookId), eq(bookChapters.url, url)))
    .limit(1);
  return row;
}

/** Counts of books per teacher-facing subject slug (a book counts in each of its subjects). */
export async function countBooksBySubject(db: Db): Promise<Map<string, number>> {
  const rows = await db.execute<{ slug: string; count: number }>(
    sql`SELECT slug, count(*)::int AS count FROM books, unnest(subject_slugs) AS slug GROUP BY slug`,
  );
  const list = (rows as unknown as { rows?: Array<{ slug: string; count: number }> }).rows ?? [];
  return new Map(list.map((r) => [r.slug, Number(r.count)]));
}

export async function findCover(db: Db, bookId: number) {
  const [row] = await db.select().from(bookCovers).where(eq(bookCovers.bookId, bookId)).limit(1);
  return row;
}

/** Ids and urls, for the sitemap (paged by id). */
export async function listBookUrls(db: Db, afterOffset: number, limit: number) {
  return db
    .select({ id: books.id, url: books.url, chapterCount: books.chapterCount })
    .from(books)
    .orderBy(asc(books.id))
    .limit(limit)
    .offset(afterOffset);
}

export async function countBooks(db: Db): Promise<number> {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(books);
  return row?.count ?? 0;
}

export async function listChapterUrlsOfBooks(db: Db, bookIds: number[]) {
  if (bookIds.length === 0) return [];
  return db
    .select({ bookId: bookChapters.bookId, url: bookChapters.url })
    .from(bookChapters)
    .where(inArray(bookChapters.bookId, bookIds))
    .orderBy(asc(bookChapters.bookId), asc(bookChapters.index));
}

// ---------------------------------------------------------------------------------------
// Writes, used by the importer.

export async function listExistingUrls(db: Db): Promise<Map<number, string>> {
  const rows = await db.select({ id: books.id, url: books.url }).from(books);
  return new Map(rows.map((r) => [r.id, r.url]));
}

/** What the importer computes for search (normalised text and the exact-title keys). */
export interface SearchKeys {
  searchTitle: string;
  searchAuthors: string;
  titleKey: string;
  shortKey: string;
  workKey: string;
}

/**
 * Inserts or updates catalogue rows. The url and createdAt of an existing book never change
 * (links keep working; "Recent" keeps meaning "recently added"). The batch travels as one
 * JSON parameter expanded by jsonb_to_recordset: one statement and one parameter instead of
 * twenty thousand, several times faster on both drivers.
 */
export async function upsertBooks(db: Db, rows: Array<NewBookRow & SearchKeys>): Promise<void> {
  if (rows.length === 0) return;
  const payload = JSON.stringify(
    rows.map((r) => ({
      id: r.id,
      url: r.url,
      title: r.title,
      subtitle: r.subtitle ?? '',
      authors: r.authors ?? [],
      author_slugs: r.authorSlugs ?? [],
      subject: r.subject,
      subject_slugs: r.subjectSlugs ?? [],
      lcsh: r.lcsh ?? [],
      lcc: r.lcc ?? [],
      bookshelves: r.bookshelves ?? [],
      languages: r.languages ?? [],
      download_count: r.downloadCount ?? 0,
      issued: r.issued ?? null,
      search_title: r.searchTitle,
      search_authors: r.searchAuthors,
      title_key: r.titleKey,
      short_key: r.shortKey,
      work_key: r.workKey,
    })),
  );
  const batch = sql`jsonb_to_recordset(${payload}::jsonb) AS x(id int, url text, title text,
      subtitle text, authors jsonb, author_slugs text[], subject text, subject_slugs text[],
      lcsh text[], lcc text[], bookshelves text[], languages text[], download_count int,
      issued date, search_title text, search_authors text, title_key text, short_key text,
      work_key text)`;
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      INSERT INTO books (id, url, title, subtitle, authors, author_slugs, subject, subject_slugs,
        lcsh, lcc, bookshelves, languages, download_count, issued)
      SELECT id, url, title, subtitle, authors, author_slugs, subject, subject_slugs,
        lcsh, lcc, bookshelves, languages, download_count, issued
      FROM ${batch}
      ON CONFLICT (id) DO UPDATE SET
        title = excluded.title, subtitle = excluded.subtitle, authors = excluded.authors,
        author_slugs = excluded.author_slugs, subject = excluded.subject,
        subject_slugs = excluded.subject_slugs, lcsh = excluded.lcsh, lcc = excluded.lcc,
        bookshelves = excluded.bookshelves, languages = excluded.languages,
        download_count = excluded.download_count, issued = excluded.issued, updated_at = now()
    `);
    await tx.execute(sql`
      INSERT INTO book_search (book_id, download_count, subject_slugs, author_slugs,
        search_title, search_authors, title_key, short_key, work_key, search_subjects)
      SELECT id, download_count, subject_slugs, author_slugs, search_title, search_authors,
        title_key, short_key, work_key, book_subject_text(lcsh)
      FROM ${batch}
      ON CONFLICT (book_id) DO UPDATE SET
        download_count = excluded.download_count, subject_slugs = excluded.subject_slugs,
        author_slugs = excluded.author_slugs, search_title = excluded.search_title,
        search_authors = excluded.search_authors, title_key = excluded.title_key,
        short_key = excluded.short_key, work_key = excluded.work_key,
        search_subjects = excluded.search_subjects
    `);
  });
}

export async function bookExists(db: Db, id: number): Promise<boolean> {
  const [row] = await db.select({ id: books.id }).from(books).where(eq(books.id, id)).limit(1);
  return Boolean(row);
}

/** Replaces a book's chapters and its length and reading figures, in one transaction. */
export interface StoredChapter {
  index: number;
  title: string;
  url: string;
  text: string;
  wordCount: number;
  readingMinutes: number;
  readingGrade: number;
}

export interface BookChapters {
  bookId: number;
  chapters: StoredChapter[];
  totals: { wordCount: number; readingMinutes: number; readingGrade: number };
}

/** Rows and characters of text one INSERT carries at most (well under PG's 65,535 parameters). */
const INSERT_ROWS = 1000;
const INSERT_CHARS = 8_000_000;

/** Replaces one book's chapters and its totals, in one transaction. */
export async function replaceChapters(
  db: Db,
  bookId: number,
  chapters: StoredChapter[],
  totals: BookChapters['totals'],
): Promise<void> {
  await db.transaction((tx) => writeChapters(tx as unknown as Db, [{ bookId, chapters, totals }]));
}

/**
 * Replaces the chapters and totals of several books in the caller's transaction, with as few
 * statements as the sizes allow: one DELETE, multi-row INSERTs of up to 1,000 chapters or
 * 8 M characters, and one UPDATE of the books (the bulk text loader's batches).
 */
export async function writeChapters(tx: Db, items: BookChapters[]): Promise<void> {
  if (items.length === 0) return;
  const ids = items.map((b) => b.bookId);
  await tx.delete(bookChapters).where(inArray(bookChapters.bookId, ids));
  let rows: Array<typeof bookChapters.$inferInsert> = [];
  let chars = 0;
  const flush = async () => {
    if (rows.length > 0) await tx.insert(bookChapters).values(rows);
    rows = [];
    chars = 0;
  };
  for (const { bookId, chapters } of items) {
    for (const c of chapters) {
      if (rows.length >= INSERT_ROWS || (rows.length > 0 && chars + c.text.length > INSERT_CHARS))
        await flush();
      rows.push({
        bookId,
        index: c.index,
        title: c.title,
        url: c.url,
        text: c.text,
        wordCount: c.wordCount,
        readingMinutes: c.readingMinutes,
        readingGrade: c.readingGrade,
      });
      chars += c.text.length;
    }
  }
  await flush();
  const values = sql.join(
    items.map(
      (b) =>
        sql`(${b.bookId}::int, ${b.chapters.length}::int, ${b.totals.wordCount}::int, ${b.totals.readingMinutes}::int, ${b.totals.readingGrade}::real)`,
    ),
    sql`, `,
  );
  await tx.execute(sql`
    UPDATE books b SET chapter_count = v.chapter_count, word_count = v.word_count,
      reading_minutes = v.reading_minutes, reading_grade = v.reading_grade, updated_at = now()
    FROM (VALUES ${values}) AS v(id, chapter_count, word_count, reading_minutes, reading_grade)
    WHERE b.id = v.id`);
}

export async function upsertCover(
  db: Db,
  cover: {
    bookId: number;
    jpeg: Buffer;
    width: number;
    height: number;
    etag: string;
    licence: string;
  },
): Promise<void> {
  await db
    .insert(bookCovers)
    .values(cover)
    .onConflictDoUpdate({
      target: bookCovers.bookId,
      set: {
        jpeg: sql`excluded.jpeg`,
        width: sql`excluded.width`,
        height: sql`excluded.height`,
        etag: sql`excluded.etag`,
        licence: sql`excluded.licence`,
      },
    });
}

/**
 * The search and filter indexes of `books` and `book_search`, as migration 0002 creates them. A bulk load into a
 * (nearly) empty table drops them first and builds them once at the end: several times
 * faster than keeping four GIN indexes up to date row by row.
 */
const SECONDARY_INDEXES: Array<[string, string]> = [
  ['book_search_search_idx', '"book_search" USING gin ("search")'],
  ['book_search_trgm_idx', '"book_search" USING gin ("search_all" gin_trgm_ops)'],
  ['book_search_title_key_idx', '"book_search" USING btree ("title_key")'],
  ['book_search_short_key_idx', '"book_search" USING btree ("short_key")'],
  ['book_search_subjects_idx', '"book_search" USING gin ("subjects")'],
  ['books_subject_slugs_idx', '"books" USING gin ("subject_slugs")'],
  ['books_author_slugs_idx', '"books" USING gin ("author_slugs")'],
  ['books_popular_idx', '"books" USING btree ("download_count" DESC NULLS LAST,"id")'],
  ['books_recent_idx', '"books" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST)'],
];

export async function dropSecondaryBookIndexes(db: Db): Promise<void> {
  for (const [name] of SECONDARY_INDEXES) {
    await db.execute(sql.raw(`DROP INDEX IF EXISTS "${name}"`));
  }
}

/** Builds any missing search index (a no-op when they all exist). */
export async function ensureSecondaryBookIndexes(db: Db): Promise<void> {
  for (const [name, definition] of SECONDARY_INDEXES) {
    await db.execute(sql.raw(`CREATE INDEX IF NOT EXISTS "${name}" ON ${definition}`));
  }
}

export async function analyzeBooks(db: Db): Promise<void> {
  await db.execute(sql`ANALYZE books`);
  await db.execute(sql`ANALYZE book_search`);
}

// Import runs.

export async function findRunningImport(db: Db, fingerprint: string) {
  const [row] = await db
    .select()
    .from(bookImports)
    .where(and(eq(bookImports.fingerprint, fingerprint), eq(bookImports.status, 'running')))
    .orderBy(desc(bookImports.id))
    .limit(1);
  return row;
}

export async function findFinishedImport(db: Db, fingerprint?: string) {
  const [row] = await db
    .select()
    .from(bookImports)
    .where(
      fingerprint
        ? and(eq(bookImports.fingerprint, fingerprint), eq(bookImports.status, 'done'))
        : eq(bookImports.status, 'done'),
    )
    .orderBy(desc(bookImports.id))
    .limit(1);
  return row;
}

export async function startImport(db: Db, source: string, fingerprint: string) {
  const [row] = await db.insert(bookImports).values({ source, fingerprint }).returning();
  return row!;
}

export async function saveImportProgress(
  db: Db,
  id: number,
  progress: { stage: string; position: number; stats: Record<string, unknown> },
): Promise<void> {
  await db
    .update(bookImports)
    .set({ ...progress, updatedAt: sql`now()` })
    .where(eq(bookImports.id, id));
}

export async function finishImport(db: Db, id: number, stats: Record<string, unknown>) {
  await db
    .update(bookImports)
    .set({ status: 'done', stage: 'done', stats, finishedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(bookImports.id, id));
}

/**
 * Reads the search table and its indexes once so that the first searches after a start do
 * not pay for cold pages (PGlite reads them from disk on first use).
 */
export async function warmSearch(db: Db): Promise<void> {
  await db.execute(sql`SELECT sum(download_count) FROM book_search`);
  await db.execute(
    sql`SELECT count(*) FROM book_search WHERE search @@ to_tsquery('english', 'th:* | s:* | a:* | c:* | p:* | m:*')`,
  );
  await db.execute(sql`SELECT count(*) FROM book_search WHERE 'histroy' <% search_all`);
}

/** The catalogue version: the id of the newest finished import (0 when none). */
export async function readCatalogueVersion(db: Db): Promise<number> {
  const [row] = await db
    .select({ id: sql<number>`coalesce(max(${bookImports.id}), 0)::int` })
    .from(bookImports)
    .where(eq(bookImports.status, 'done'));
  return row?.id ?? 0;
}

/** Books whose text was fetched after `since` (ISO time), oldest first. */
export async function listBooksWithTextsSince(
  db: Db,
  since: string,
): Promise<Array<{ url: string; finishedAt: string }>> {
  const result = await queryRows<{ url: string; finished_at: string }>(
    db,
    sql`
    SELECT b.url, to_char(t.finished_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
      AS finished_at
    FROM book_texts t JOIN books b ON b.id = t.book_id
    WHERE t.status = 'done' AND t.finished_at > ${since}::timestamptz
    ORDER BY t.finished_at LIMIT 1000`,
  );
  return result.map((r) => ({ url: r.url, finishedAt: r.finished_at }));
}

/** The time of the newest text fetch (ISO), or the epoch. */
export async function latestTextFinishedAt(db: Db): Promise<string> {
  const result = await queryRows<{ at: string | null }>(
    db,
    sql`
    SELECT to_char(max(finished_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at
    FROM book_texts`,
  );
  return result[0]?.at ?? '1970-01-01T00:00:00.000Z';
}

/** The rows of a raw query (PGlite and node-postgres both answer `{ rows }`). */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows?: T[] };
  return result.rows ?? [];
}
