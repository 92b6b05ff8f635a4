import { randomUUID } from 'node:crypto';
import {
  BLOG_CATEGORIES,
  BLOG_LIMITS,
  BLOG_RELATED_COUNT,
  blogPostHref,
  slugify,
  type BlogAdminPostAnswer,
  type BlogAdminPostsAnswer,
  type BlogAdminPostsQueryParsed,
  type BlogPostAnswer,
  type BlogPostInputParsed,
  type BlogPostsAnswer,
  type BlogPostsQueryParsed,
  type BlogPreviewAnswer,
  type BlogTaxonomyAnswer,
} from '@chapterwise/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.js';
import type { BlogPostRow, NewBlogPostRow, UserRow } from '../../db/schema/index.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import type { Storage } from '../../providers/storage/index.js';
import { renderRss } from './blog.feed.js';
import { isImageUpload, processAuthorPicture, processThumbnail } from './blog.images.js';
import {
  BLOG_RENDER_VERSION,
  foldForSearch,
  renderMarkdown,
  searchWords,
} from './blog.markdown.js';
import { presentAdminPost, presentAdminPostDetail, presentPost } from './blog.presenter.js';
import * as repo from './blog.repository.js';

export interface BlogDeps {
  db: Db;
  storage: Storage;
  publicUrl: string;
  log: FastifyBaseLogger;
  /** The clock (tests move it to check scheduling). */
  now?: () => Date;
}

/** Posts in the RSS feed. */
const FEED_SIZE = 20;
/** Tags the sidebar lists at most. */
const TAGS_LISTED = 40;
/** Where this module keeps its uploads in the storage provider. */
const STORAGE_PREFIX = 'blog/';

/**
 * The blog: what readers see (published posts whose date has come: lists, search, one post
 * with related posts, the sidebar's categories, tags and authors, the RSS feed and the
 * sitemap) and what admins do (write, preview, schedule, publish, unpublish, delete).
 */
export class BlogService {
  private readonly clock: () => Date;

  constructor(private readonly deps: BlogDeps) {
    this.clock = deps.now ?? (() => new Date());
  }

  /** Renders again the posts whose HTML an older renderer made (a stricter sanitiser, say). */
  /** When the next scheduled post becomes visible (null: none is scheduled). */
  nextScheduledDate(): Promise<Date | null> {
    return repo.nextScheduledPublishDate(this.deps.db, new Date());
  }

  async start(): Promise<void> {
    const stale = await repo.listStaleRenders(this.deps.db, BLOG_RENDER_VERSION);
    for (const post of stale) {
      await repo.setRender(this.deps.db, post.id, this.render(post.bodyMarkdown, post.summary));
    }
    if (stale.length) this.deps.log.info({ posts: stale.length }, 'blog posts rendered again');
  }

  /**
   * `GET /blog/getblogposts`: visible posts, filtered by category and tag slugs, searched
   * over titles and bodies (prefix words; a misspelt title is found by trigrams when the
   * words find nothing), sorted and paged.
   */
  async listPosts(query: BlogPostsQueryParsed): Promise<BlogPostsAnswer> {
    const filter = { now: this.clock(), category: query.category, tag: query.tag };
    const page = { limit: query.limit, offset: (query.page - 1) * query.limit };
    const words = searchWords(query.searchTerm ?? '');
    let result: { rows: repo.BlogListRow[]; count: number };
    if (words.length > 0) {
      const prefix = words.map((w) => `${w}:*`).join(' & ');
      result = await repo.searchVisiblePosts(
        this.deps.db,
        filter,
        prefix,
        query.sort ?? 'relevance',
        page,
      );
      if (result.count === 0) {
        result = await repo.searchVisiblePostsFuzzy(this.deps.db, filter, words.join(' '), page);
      }
    } else {
      const sort = !query.sort || query.sort === 'relevance' ? 'newest' : query.sort;
      result = await repo.listVisiblePosts(this.deps.db, filter, sort, page);
    }
    return { data: result.rows.map(presentPost), count: result.count };
  }

  /** `GET /blog/getblogpost`: one visible post, its sanitised body and related posts; else 404. */
  async getPost(url: string): Promise<BlogPostAnswer> {
    const now = this.clock();
    const row = await repo.findVisiblePostByUrl(this.deps.db, url, now);
    if (!row) throw notFound('We could not find that blog post.');
    const related = await repo.listRelatedPosts(this.deps.db, row, now, BLOG_RELATED_COUNT);
    return {
      data: { ...presentPost(row), body: row.bodyHtml, related: related.map(presentPost) },
    };
  }

  /** `GET /blog/getblogtaxonomy`: every category with its count, the tags and the authors. */
  async taxonomy(): Promise<BlogTaxonomyAnswer> {
    const now = this.clock();
    const [categoryCounts, tags, authors] = await Promise.all([
      repo.countCategories(this.deps.db, now),
      repo.listTagCounts(this.deps.db, now, TAGS_LISTED),
      repo.listAuthorCounts(this.deps.db, now, 10),
    ]);
    return {
      data: {
        categories: BLOG_CATEGORIES.map((c) => ({ ...c, count: categoryCounts.get(c.slug) ?? 0 })),
        tags,
        authors,
      },
    };
  }

  /** The RSS 2.0 feed of the newest visible posts. */
  async feed(): Promise<string> {
    const now = this.clock();
    const posts = await repo.listFeedPosts(this.deps.db, now, FEED_SIZE);
    return renderRss(posts, this.deps.publicUrl, now);
  }

  /** The blog's pages for the sitemap: the list, categories with posts, every visible post. */
  async sitemapPaths(): Promise<Array<{ path: string; lastmod?: string }>> {
    const now = this.clock();
    const [posts, categoryCounts] = await Promise.all([
      repo.listVisiblePostUrls(this.deps.db, now),
      repo.countCategories(this.deps.db, now),
    ]);
    return [
      { path: '/blog', ...(posts[0] ? { lastmod: posts[0].updatedAt.toISOString() } : {}) },
      ...BLOG_CATEGORIES.filter((c) => categoryCounts.has(c.slug)).map((c) => ({
        path: `/blog/category/${c.slug}`,
      })),
      ...posts.map((p) => ({ path: blogPostHref(p.url), lastmod: p.updatedAt.toISOString() })),
    ];
  }

  // -------------------------------------------------------------------------------------
  // Authoring (the routes let only admins in).

  /** Every post with its state; filtered by state and searched; with the count of each state. */
  async listAdmin(query: BlogAdminPostsQueryParsed): Promise<BlogAdminPostsAnswer> {
    const now = this.clock();
    const words = searchWords(query.searchTerm ?? '');
    const [result, states] = await Promise.all([
      repo.listAdminPosts(
        this.deps.db,
        {
          filter: query.status,
          now,
          prefixQuery: words.length ? words.map((w) => `${w}:*`).join(' & ') : undefined,
        },
        { limit: query.limit, offset: (query.page - 1) * query.limit },
      ),
      repo.countPostStates(this.deps.db, now),
    ]);
    return {
      data: result.rows.map((row) => presentAdminPost(row, now)),
      count: result.count,
      states,
    };
  }

  async getAdmin(id: string): Promise<BlogAdminPostAnswer> {
    return { data: presentAdminPostDetail(await this.findOr404(id), this.clock()) };
  }

  /** Renders Markdown exactly as a saved post would be (the editor's live preview). */
  preview(markdown: string): BlogPreviewAnswer {
    const rendered = renderMarkdown(markdown, this.deps.publicUrl);
    return { html: rendered.html, readingMinutes: rendered.readingMinutes };
  }

  /**
   * Creates a post (a draft unless the input says published); `admin` is who wrote it, null
   * for the sample posts.
   */
  async create(
    input: BlogPostInputParsed,
    admin: UserRow | null,
    options: { datedAtPublish?: boolean } = {},
  ): Promise<BlogAdminPostAnswer> {
    const saved = await this.save(input, undefined, admin?.id ?? null, options.datedAtPublish);
    return { data: presentAdminPostDetail(saved, this.clock()) };
  }

  /** Replaces every field of a post. */
  async replace(id: string, input: BlogPostInputParsed): Promise<BlogAdminPostAnswer> {
    const current = await this.findOr404(id);
    const saved = await this.save(input, current, null);
    return { data: presentAdminPostDetail(saved, this.clock()) };
  }

  /**
   * Publishes a post: at `publishDate` when given (ahead of now: scheduled), else at the date
   * it already has, else now. It must have a body, a category and an author name.
   */
  async publish(id: string, publishDate?: string): Promise<BlogAdminPostAnswer> {
    const current = await this.findOr404(id);
    const missing = [
      current.bodyMarkdown.trim() ? null : 'a body',
      current.categories.length ? null : 'a category',
      current.authorFirstName || current.authorLastName ? null : 'an author name',
    ].filter(Boolean);
    if (missing.length) {
      throw badRequest(`The post needs ${missing.join(' and ')} before it can be published.`);
    }
    const when = publishDate ? new Date(publishDate) : (current.publishDate ?? this.clock());
    const row = await repo.updatePost(this.deps.db, id, {
      status: 'published',
      publishDate: when,
    });
    if (!row) throw notFound('We could not find that blog post.');
    return { data: presentAdminPostDetail(row, this.clock()) };
  }

  /** Takes a post back to draft: readers stop seeing it at once. Its date is kept. */
  async unpublish(id: string): Promise<BlogAdminPostAnswer> {
    const row = await repo.updatePost(this.deps.db, id, { status: 'draft' });
    if (!row) throw notFound('We could not find that blog post.');
    return { data: presentAdminPostDetail(row, this.clock()) };
  }

  /** Deletes a post and the pictures uploaded for it. */
  async remove(id: string): Promise<void> {
    const row = await repo.deletePost(this.deps.db, id);
    if (!row) throw notFound('We could not find that blog post.');
    await this.deleteStored([
      row.thumbnailImage,
      row.thumbnailImageSmall,
      row.authorProfilePicture,
    ]);
  }

  /** The columns made from a post's Markdown and summary (stored HTML, search text, excerpt). */
  private render(markdown: string, summary: string) {
    const rendered = renderMarkdown(markdown, this.deps.publicUrl);
    return {
      bodyHtml: rendered.html,
      renderVersion: BLOG_RENDER_VERSION,
      excerpt: summary || rendered.excerpt,
      searchBody: foldForSearch(`${summary}\n${rendered.text}`),
      readingMinutes: rendered.readingMinutes,
    };
  }

  private async findOr404(id: string): Promise<BlogPostRow> {
    const row = await repo.findPostById(this.deps.db, id);
    if (!row) throw notFound('We could not find that blog post.');
    return row;
  }

  /**
   * Writes a post: the url (given, else made from the title by the slug rule) must be free;
   * the Markdown is rendered and sanitised once here; new pictures are re-encoded and stored,
   * and the pictures they replace are deleted once the row is saved.
   */
  private async save(
    input: BlogPostInputParsed,
    current: BlogPostRow | undefined,
    createdBy: string | null,
    datedAtPublish = false,
  ): Promise<BlogPostRow> {
    const { db } = this.deps;
    const url = (input.url || slugify(input.title)).slice(0, BLOG_LIMITS.url).replace(/-+$/, '');
    if (!url) {
      throw badRequest(
        'Invalid field "url": give the post an address with letters or digits in it.',
      );
    }
    if (await repo.urlTaken(db, url, current?.id)) {
      throw conflict(
        `Another post already uses the address ${blogPostHref(url)}. Please choose another one.`,
      );
    }
    const publishDate = input.publishDate
      ? new Date(input.publishDate)
      : input.status === 'published'
        ? (current?.publishDate ?? this.clock())
        : null;

    const uploaded: string[] = [];
    try {
      const thumbnail = await this.storeThumbnail(input.thumbnailImage, current, uploaded);
      const authorProfilePicture = await this.storeAuthorPicture(
        input.authorProfilePicture,
        uploaded,
      );
      const values: NewBlogPostRow = {
        url,
        title: input.title,
        summary: input.summary,
        bodyMarkdown: input.markdown,
        ...this.render(input.markdown, input.summary),
        searchTitle: foldForSearch(input.title),
        thumbnailImage: thumbnail.large,
        thumbnailImageSmall: thumbnail.small,
        categories: input.categories,
        categorySlugs: input.categories.map(slugify),
        tags: input.tags,
        tagSlugs: input.tags.map(slugify),
        featured: input.featured,
        status: input.status,
        publishDate,
        authorFirstName: input.authorFirstName,
        authorLastName: input.authorLastName,
        authorBio: input.authorBio,
        authorProfilePicture,
      };
      let saved: BlogPostRow | undefined;
      try {
        saved = current
          ? await repo.updatePost(db, current.id, values)
          : await repo.insertPost(db, {
              ...values,
              createdBy,
              // Sample posts: written then, not at first start ("Updated", sitemap, feed).
              ...(datedAtPublish && publishDate
                ? { createdAt: publishDate, updatedAt: publishDate }
                : {}),
            });
      } catch (error) {
        if (repo.isUrlConflict(error)) {
          throw conflict(
            `Another post already uses the address ${blogPostHref(url)}. Please choose another one.`,
          );
        }
        throw error;
      }
      if (!saved) throw notFound('We could not find that blog post.');
      if (current) {
        await this.deleteStored([
          current.thumbnailImage,
          current.thumbnailImageSmall,
          current.authorProfilePicture,
        ]);
      }
      return saved;
    } catch (error) {
      await this.deleteStored(uploaded.map((key) => this.deps.storage.publicUrl(key)));
      throw error;
    }
  }

  /** The thumbnail's two addresses: a new upload stored in both sizes, or kept as given. */
  private async storeThumbnail(
    value: string,
    current: BlogPostRow | undefined,
    uploaded: string[],
  ): Promise<{ large: string; small: string }> {
    if (!value) return { large: '', small: '' };
    if (!isImageUpload(value)) {
      // The current picture stays with its small copy; an address typed in is used for both.
      if (current && value === current.thumbnailImage) {
        return { large: value, small: current.thumbnailImageSmall || value };
      }
      return { large: value, small: value };
    }
    const { large, small } = await processThumbnail(value);
    const id = randomUUID();
    const largeKey = `${STORAGE_PREFIX}${id}.webp`;
    const smallKey = `${STORAGE_PREFIX}${id}-sm.webp`;
    await this.deps.storage.put(largeKey, large, { contentType: 'image/webp' });
    uploaded.push(largeKey);
    await this.deps.storage.put(smallKey, small, { contentType: 'image/webp' });
    uploaded.push(smallKey);
    return {
      large: this.deps.storage.publicUrl(largeKey),
      small: this.deps.storage.publicUrl(smallKey),
    };
  }

  private async storeAuthorPicture(value: string, uploaded: string[]): Promise<string> {
    if (!isImageUpload(value)) return value;
    const webp = await processAuthorPicture(value);
    const key = `${STORAGE_PREFIX}authors/${randomUUID()}.webp`;
    await this.deps.storage.put(key, webp, { contentType: 'image/webp' });
    uploaded.push(key);
    return this.deps.storage.publicUrl(key);
  }

  /**
   * Deletes pictures this module stored (keys under blog/). Anything else, such as the
   * admin's own avatar used as the author picture or an https address, is left alone.
   */
  private async deleteStored(urls: string[]): Promise<void> {
    for (const url of new Set(urls)) {
      if (!url) continue;
      const key = this.deps.storage.keyFromUrl(url);
      if (!key || !key.startsWith(STORAGE_PREFIX)) continue;
      // Sample posts share their author's picture; an editor may reuse a thumbnail address.
      if (await repo.isPictureInUse(this.deps.db, url)) continue;
      try {
        await this.deps.storage.delete(key);
      } catch (error) {
        this.deps.log.warn({ err: error, key }, 'could not delete a blog picture');
      }
    }
  }
}
