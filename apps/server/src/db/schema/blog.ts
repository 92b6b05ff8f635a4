import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users.js';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * Blog posts. The Markdown an editor wrote is the source (`body_markdown`); `body_html` is
 * its sanitised rendering, made once when the post is saved (and again when the renderer's
 * version changes), so a page view never parses Markdown. A post is visible to readers when
 * it is `published` and its `publish_date` has come: a date ahead schedules it.
 */
export const blogPosts = pgTable(
  'blog_posts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    url: text('url').notNull(),
    title: text('title').notNull(),
    /** Written by the editor; may be empty. */
    summary: text('summary').notNull().default(''),
    /** The summary, or else the opening of the body as plain text. */
    excerpt: text('excerpt').notNull().default(''),
    bodyMarkdown: text('body_markdown').notNull().default(''),
    bodyHtml: text('body_html').notNull().default(''),
    /** The renderer version that made body_html (see blog.markdown.ts). */
    renderVersion: integer('render_version').notNull().default(0),
    /** Search text: lower-case, accents folded (the search box folds the same way). */
    searchTitle: text('search_title').notNull().default(''),
    searchBody: text('search_body').notNull().default(''),
    search: tsvector('search').generatedAlwaysAs(
      sql`setweight(to_tsvector('english'::regconfig, search_title), 'A') || setweight(to_tsvector('english'::regconfig, search_body), 'C')`,
    ),
    readingMinutes: integer('reading_minutes').notNull().default(0),
    thumbnailImage: text('thumbnail_image').notNull().default(''),
    thumbnailImageSmall: text('thumbnail_image_small').notNull().default(''),
    /** Category names as shown, and their slugs for filtering (same order). */
    categories: text('categories')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    categorySlugs: text('category_slugs')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    tagSlugs: text('tag_slugs')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Recommended by an editor: first in the sidebar's list. */
    featured: boolean('featured').notNull().default(false),
    status: text('status', { enum: ['draft', 'published'] })
      .notNull()
      .default('draft'),
    publishDate: timestamp('publish_date', { withTimezone: true }),
    /** The admin who wrote it (kept as a reference only; the author fields are what shows). */
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    authorFirstName: text('author_first_name').notNull().default(''),
    authorLastName: text('author_last_name').notNull().default(''),
    authorBio: text('author_bio').notNull().default(''),
    authorProfilePicture: text('author_profile_picture').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('blog_posts_url_key').on(t.url),
    index('blog_posts_visible_idx').on(t.status, t.publishDate.desc()),
    index('blog_posts_search_idx').using('gin', t.search),
    index('blog_posts_title_trgm_idx').using('gin', sql`${t.searchTitle} gin_trgm_ops`),
    index('blog_posts_category_slugs_idx').using('gin', t.categorySlugs),
    index('blog_posts_tag_slugs_idx').using('gin', t.tagSlugs),
  ],
);

export type BlogPostRow = typeof blogPosts.$inferSelect;
export type NewBlogPostRow = typeof blogPosts.$inferInsert;

/**
 * The sample posts (seed-data/blog/*.md) loaded so far, by file name: each is loaded once,
 * so a sample post an editor deletes stays deleted, and a new file in a release is loaded
 * on the next start.
 */
export const blogSeeds = pgTable('blog_seeds', {
  file: text('file').primaryKey(),
  seededAt: timestamp('seeded_at', { withTimezone: true }).notNull().defaultNow(),
});
