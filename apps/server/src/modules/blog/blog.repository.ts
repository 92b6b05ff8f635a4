import { and, asc, desc, eq, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { BlogAdminFilter, BlogSort } from '@chapterwise/shared';
import type { Db } from '../../db/client.js';
import {
  blogPosts,
  blogSeeds,
  type BlogPostRow,
  type NewBlogPostRow,
} from '../../db/schema/index.js';

/** The columns of a list or card: never the bodies or the search columns. */
const listColumns = {
  id: blogPosts.id,
  url: blogPosts.url,
  title: blogPosts.title,
  summary: blogPosts.summary,
  excerpt: blogPosts.excerpt,
  readingMinutes: blogPosts.readingMinutes,
  thumbnailImage: blogPosts.thumbnailImage,
  thumbnailImageSmall: blogPosts.thumbnailImageSmall,
  categories: blogPosts.categories,
  categorySlugs: blogPosts.categorySlugs,
  tags: blogPosts.tags,
  tagSlugs: blogPosts.tagSlugs,
  featured: blogPosts.featured,
  status: blogPosts.status,
  publishDate: blogPosts.publishDate,
  authorFirstName: blogPosts.authorFirstName,
  authorLastName: blogPosts.authorLastName,
  authorBio: blogPosts.authorBio,
  authorProfilePicture: blogPosts.authorProfilePicture,
  createdAt: blogPosts.createdAt,
  updatedAt: blogPosts.updatedAt,
};

export type BlogListRow = Pick<BlogPostRow, keyof typeof listColumns>;

export interface PageWindow {
  limit: number;
  offset: number;
}

/** `now` as a timestamptz parameter (the same on PGlite and node-postgres). */
const at = (now: Date) => sql`${now.toISOString()}::timestamptz`;

/** A text[] literal from values, each one a parameter. */
function textArray(values: readonly string[]): SQL {
  if (values.length === 0) return sql`'{}'::text[]`;
  return sql`ARRAY[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;
}

/** What readers may see at `now`: published, and its date has come. */
export function visibleAt(now: Date): SQL {
  return sql`${blogPosts.status} = 'published' AND ${blogPosts.publishDate} IS NOT NULL AND ${blogPosts.publishDate} <= ${at(now)}`;
}

export interface VisibleFilter {
  now: Date;
  category?: string | undefined;
  tag?: string | undefined;
}

function filterConditions(filter: VisibleFilter): SQL[] {
  const conditions = [visibleAt(filter.now)];
  if (filter.category) {
    conditions.push(sql`${blogPosts.categorySlugs} @> ${textArray([filter.category])}`);
  }
  if (filter.tag) conditions.push(sql`${blogPosts.tagSlugs} @> ${textArray([filter.tag])}`);
  return conditions;
}

function orderBy(sort: Exclude<BlogSort, 'relevance'>): SQL[] {
  switch (sort) {
    case 'oldest':
      return [sql`${blogPosts.publishDate} ASC NULLS LAST`, asc(blogPosts.id)];
    case 'title':
      return [sql`lower(${blogPosts.title}) ASC`, asc(blogPosts.id)];
    case 'recommended':
      return [
        desc(blogPosts.featured),
        sql`${blogPosts.publishDate} DESC NULLS LAST`,
        asc(blogPosts.id),
      ];
    default:
      return [sql`${blogPosts.publishDate} DESC NULLS LAST`, desc(blogPosts.createdAt)];
  }
}

async function countWhere(db: Db, where: SQL | undefined): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(blogPosts)
    .where(where);
  return Number(row?.count ?? 0);
}

/** Visible posts of a category and/or tag, in one of the sorts. */
export async function listVisiblePosts(
  db: Db,
  filter: VisibleFilter,
  sort: Exclude<BlogSort, 'relevance'>,
  page: PageWindow,
): Promise<{ rows: BlogListRow[]; count: number }> {
  const where = and(...filterConditions(filter));
  const rows = await db
    .select(listColumns)
    .from(blogPosts)
    .where(where)
    .orderBy(...orderBy(sort))
    .limit(page.limit)
    .offset(page.offset);
  return { rows, count: await countWhere(db, where) };
}

/**
 * Full-text search over titles (weight A) and bodies (weight C) of visible posts. `prefixQuery`
 * is a to_tsquery string made only of letters, digits, `:*` and `&` (see searchWords).
 * `sort` 'relevance' ranks by match, then newest.
 */
export async function searchVisiblePosts(
  db: Db,
  filter: VisibleFilter,
  prefixQuery: string,
  sort: BlogSort,
  page: PageWindow,
): Promise<{ rows: BlogListRow[]; count: number }> {
  const query = sql`to_tsquery('english', ${prefixQuery})`;
  const where = and(...filterConditions(filter), sql`${blogPosts.search} @@ ${query}`);
  const order =
    sort === 'relevance'
      ? [desc(sql`ts_rank(${blogPosts.search}, ${query}, 1)`), ...orderBy('newest')]
      : orderBy(sort);
  const rows = await db
    .select(listColumns)
    .from(blogPosts)
    .where(where)
    .orderBy(...order)
    .limit(page.limit)
    .offset(page.offset);
  return { rows, count: await countWhere(db, where) };
}

/** Typo-tolerant search on titles with trigrams ("frankenstien"), when full text finds nothing. */
export async function searchVisiblePostsFuzzy(
  db: Db,
  filter: VisibleFilter,
  term: string,
  page: PageWindow,
): Promise<{ rows: BlogListRow[]; count: number }> {
  const where = and(...filterConditions(filter), sql`${term} <% ${blogPosts.searchTitle}`);
  const rows = await db
    .select(listColumns)
    .from(blogPosts)
    .where(where)
    .orderBy(desc(sql`word_similarity(${term}, ${blogPosts.searchTitle})`), ...orderBy('newest'))
    .limit(page.limit)
    .offset(page.offset);
  return { rows, count: await countWhere(db, where) };
}

/** A visible post with its body, by url. */
export async function findVisiblePostByUrl(
  db: Db,
  url: string,
  now: Date,
): Promise<BlogPostRow | undefined> {
  const [row] = await db
    .select()
    .from(blogPosts)
    .where(and(eq(blogPosts.url, url), visibleAt(now)))
    .limit(1);
  return row;
}

/**
 * Visible posts that share tags or categories with a post: a shared tag counts twice a
 * shared category (tags are narrower), then newest first.
 */
export async function listRelatedPosts(
  db: Db,
  post: Pick<BlogPostRow, 'id' | 'tagSlugs' | 'categorySlugs'>,
  now: Date,
  limit: number,
): Promise<BlogListRow[]> {
  if (post.tagSlugs.length === 0 && post.categorySlugs.length === 0) return [];
  const tags = textArray(post.tagSlugs);
  const categories = textArray(post.categorySlugs);
  const score = sql`(SELECT count(*) FROM unnest(${blogPosts.tagSlugs}) AS t WHERE t = ANY(${tags})) * 2 + (SELECT count(*) FROM unnest(${blogPosts.categorySlugs}) AS c WHERE c = ANY(${categories}))`;
  return db
    .select(listColumns)
    .from(blogPosts)
    .where(
      and(
        visibleAt(now),
        ne(blogPosts.id, post.id),
        sql`(${blogPosts.tagSlugs} && ${tags} OR ${blogPosts.categorySlugs} && ${categories})`,
      ),
    )
    .orderBy(desc(score), ...orderBy('newest'))
    .limit(limit);
}

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows?: T[] }).rows ?? [];
}

/** Visible posts per category slug. */
export async function countCategories(db: Db, now: Date): Promise<Map<string, number>> {
  const result = await db.execute(sql`
    SELECT slug, count(*)::int AS count
    FROM ${blogPosts}, unnest(${blogPosts.categorySlugs}) AS slug
    WHERE ${visibleAt(now)}
    GROUP BY slug`);
  return new Map(
    rowsOf<{ slug: string; count: number }>(result).map((r) => [r.slug, Number(r.count)]),
  );
}

/** Tags of visible posts with their counts, most used first; a tag's name is its newest spelling. */
export async function listTagCounts(
  db: Db,
  now: Date,
  limit: number,
): Promise<Array<{ name: string; slug: string; count: number }>> {
  const result = await db.execute(sql`
    SELECT t.slug AS slug,
           (array_agg(t.name ORDER BY ${blogPosts.publishDate} DESC))[1] AS name,
           count(*)::int AS count
    FROM ${blogPosts}, unnest(${blogPosts.tags}, ${blogPosts.tagSlugs}) AS t(name, slug)
    WHERE ${visibleAt(now)}
    GROUP BY t.slug
    ORDER BY count(*) DESC, t.slug ASC
    LIMIT ${limit}`);
  return rowsOf<{ name: string; slug: string; count: number }>(result).map((r) => ({
    name: r.name,
    slug: r.slug,
    count: Number(r.count),
  }));
}

/** Authors of visible posts (by name), with the bio and picture of their newest post. */
export async function listAuthorCounts(db: Db, now: Date, limit: number) {
  const result = await db.execute(sql`
    SELECT ${blogPosts.authorFirstName} AS "firstName",
           ${blogPosts.authorLastName} AS "lastName",
           (array_agg(${blogPosts.authorBio} ORDER BY ${blogPosts.publishDate} DESC))[1] AS bio,
           (array_agg(${blogPosts.authorProfilePicture} ORDER BY ${blogPosts.publishDate} DESC))[1] AS "profilePicture",
           count(*)::int AS count
    FROM ${blogPosts}
    WHERE ${visibleAt(now)}
    GROUP BY ${blogPosts.authorFirstName}, ${blogPosts.authorLastName}
    ORDER BY count(*) DESC, max(${blogPosts.publishDate}) DESC
    LIMIT ${limit}`);
  return rowsOf<{
    firstName: string;
    lastName: string;
    bio: string;
    profilePicture: string;
    count: number;
  }>(result).map((r) => ({ ...r, count: Number(r.count) }));
}

/** Urls and last changes of visible posts, newest first (sitemap). */
export async function listVisiblePostUrls(db: Db, now: Date) {
  return db
    .select({ url: blogPosts.url, updatedAt: blogPosts.updatedAt })
    .from(blogPosts)
    .where(visibleAt(now))
    .orderBy(...orderBy('newest'));
}

/** The newest visible posts with their bodies (the RSS feed). */
export async function listFeedPosts(db: Db, now: Date, limit: number): Promise<BlogPostRow[]> {
  return db
    .select()
    .from(blogPosts)
    .where(visibleAt(now))
    .orderBy(...orderBy('newest'))
    .limit(limit);
}

// ---------------------------------------------------------------------------------------
// Authoring.

function adminFilterCondition(filter: BlogAdminFilter, now: Date): SQL | undefined {
  switch (filter) {
    case 'draft':
      return eq(blogPosts.status, 'draft');
    case 'scheduled':
      return sql`${blogPosts.status} = 'published' AND ${blogPosts.publishDate} > ${at(now)}`;
    case 'published':
      return visibleAt(now);
    default:
      return undefined;
  }
}

/** Every post an admin may see (drafts and scheduled ones too), newest change first. */
export async function listAdminPosts(
  db: Db,
  options: { filter: BlogAdminFilter; now: Date; prefixQuery?: string | undefined },
  page: PageWindow,
): Promise<{ rows: BlogListRow[]; count: number }> {
  const conditions: SQL[] = [];
  const state = adminFilterCondition(options.filter, options.now);
  if (state) conditions.push(state);
  if (options.prefixQuery) {
    conditions.push(sql`${blogPosts.search} @@ to_tsquery('english', ${options.prefixQuery})`);
  }
  const where = conditions.length ? and(...conditions) : undefined;
  const rows = await db
    .select(listColumns)
    .from(blogPosts)
    .where(where)
    .orderBy(desc(blogPosts.updatedAt), desc(blogPosts.id))
    .limit(page.limit)
    .offset(page.offset);
  return { rows, count: await countWhere(db, where) };
}

/** Counts of drafts, scheduled and published posts (the admin list's tabs). */
export async function countPostStates(db: Db, now: Date) {
  const [row] = await db
    .select({
      draft: sql<number>`count(*) FILTER (WHERE ${blogPosts.status} = 'draft')::int`,
      scheduled: sql<number>`count(*) FILTER (WHERE ${blogPosts.status} = 'published' AND ${blogPosts.publishDate} > ${at(now)})::int`,
      published: sql<number>`count(*) FILTER (WHERE ${visibleAt(now)})::int`,
    })
    .from(blogPosts);
  return {
    draft: Number(row?.draft ?? 0),
    scheduled: Number(row?.scheduled ?? 0),
    published: Number(row?.published ?? 0),
  };
}

export async function findPostById(db: Db, id: string): Promise<BlogPostRow | undefined> {
  const [row] = await db.select().from(blogPosts).where(eq(blogPosts.id, id)).limit(1);
  return row;
}

/** Whether another post (not `exceptId`) already has this url. */
export async function urlTaken(db: Db, url: string, exceptId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: blogPosts.id })
    .from(blogPosts)
    .where(
      exceptId ? and(eq(blogPosts.url, url), ne(blogPosts.id, exceptId)) : eq(blogPosts.url, url),
    )
    .limit(1);
  return Boolean(row);
}

export async function insertPost(db: Db, values: NewBlogPostRow): Promise<BlogPostRow> {
  const [row] = await db.insert(blogPosts).values(values).returning();
  if (!row) throw new Error('blog post insert returned nothing');
  return row;
}

export async function updatePost(
  db: Db,
  id: string,
  values: Partial<NewBlogPostRow>,
): Promise<BlogPostRow | undefined> {
  const [row] = await db
    .update(blogPosts)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(blogPosts.id, id))
    .returning();
  return row;
}

export async function deletePost(db: Db, id: string): Promise<BlogPostRow | undefined> {
  const [row] = await db.delete(blogPosts).where(eq(blogPosts.id, id)).returning();
  return row;
}

/** Whether any post shows this picture (as thumbnail, small thumbnail or author picture). */
export async function isPictureInUse(db: Db, url: string): Promise<boolean> {
  const [row] = await db
    .select({ id: blogPosts.id })
    .from(blogPosts)
    .where(
      sql`${blogPosts.thumbnailImage} = ${url} OR ${blogPosts.thumbnailImageSmall} = ${url} OR ${blogPosts.authorProfilePicture} = ${url}`,
    )
    .limit(1);
  return Boolean(row);
}

/** Is a unique-index violation on the url (two saves with one url at the same moment)? */
export function isUrlConflict(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const e = current as {
      code?: unknown;
      constraint?: unknown;
      message?: unknown;
      cause?: unknown;
    };
    if (e.code === '23505') return true;
    if (typeof e.message === 'string' && e.message.includes('blog_posts_url_key')) return true;
    current = e.cause;
  }
  return false;
}

// ---------------------------------------------------------------------------------------
// Rendering upkeep and sample posts.

/** Posts whose HTML was made by an older renderer. */
export async function listStaleRenders(db: Db, version: number) {
  return db
    .select({ id: blogPosts.id, bodyMarkdown: blogPosts.bodyMarkdown, summary: blogPosts.summary })
    .from(blogPosts)
    .where(lt(blogPosts.renderVersion, version));
}

/** Replaces the rendering of a post without touching updatedAt (nothing an editor changed). */
export async function setRender(
  db: Db,
  id: string,
  values: Pick<
    NewBlogPostRow,
    'bodyHtml' | 'searchBody' | 'readingMinutes' | 'renderVersion' | 'excerpt'
  >,
): Promise<void> {
  await db.update(blogPosts).set(values).where(eq(blogPosts.id, id));
}

export async function listSeededFiles(db: Db): Promise<Set<string>> {
  const rows = await db.select({ file: blogSeeds.file }).from(blogSeeds);
  return new Set(rows.map((r) => r.file));
}

/** Records that a sample file was loaded (see blog.seed.ts). */
export async function markSeeded(db: Db, file: string): Promise<void> {
  await db.insert(blogSeeds).values({ file }).onConflictDoNothing();
}

/** The earliest publish date still ahead of `now` among published posts (a scheduled post). */
export async function nextScheduledPublishDate(db: Db, now: Date): Promise<Date | null> {
  const [row] = await db
    .select({ at: sql<Date | string | null>`min(${blogPosts.publishDate})` })
    .from(blogPosts)
    .where(sql`${blogPosts.status} = 'published' AND ${blogPosts.publishDate} > ${at(now)}`);
  return row?.at ? new Date(row.at) : null;
}
