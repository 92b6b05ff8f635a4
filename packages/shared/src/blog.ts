import './zod-setup.js';
import { z } from 'zod';
import { BLOG_CATEGORY_NAMES } from './blog-categories.js';
import { BLOG_LIMITS } from './blog-constants.js';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './constants.js';
import { slugify } from './slug.js';

/**
 * Orders of `GET /blog/getblogposts`. `newest` (publish date, newest first) is the default;
 * `relevance` is the default when there is a search term; `recommended` puts the posts an
 * editor recommended first (the sidebar's list). `publishDate` and `createdAt` are accepted as
 * other names of `newest` (the spec's sort vocabulary).
 */
export const BLOG_SORTS = ['newest', 'oldest', 'title', 'recommended', 'relevance'] as const;
export type BlogSort = (typeof BLOG_SORTS)[number];

/** PostgreSQL text cannot hold NUL, and no field needs control characters but line breaks. */
// eslint-disable-next-line no-control-regex -- these are the characters to refuse
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const noControlCharacters = (value: string) => !CONTROL_CHARACTERS.test(value);
const CONTROL_MESSAGE = 'must not contain control characters';

/**
 * A category or tag given in a query: any spelling is turned into its slug by the spec's slug
 * rule ("Teaching Tips" and "teaching-tips" both mean `teaching-tips`); nothing left means no
 * filter.
 */
const SlugParamSchema = z
  .string()
  .max(BLOG_LIMITS.url)
  .transform((value) => slugify(value) || undefined)
  .optional();

/** `GET /blog/getblogposts` query. Unknown parameters are ignored. */
export const BlogPostsQuerySchema = z.object({
  sort: z.preprocess(
    (value) => (value === 'publishDate' || value === 'createdAt' ? 'newest' : value),
    z.enum(BLOG_SORTS).optional(),
  ),
  searchTerm: z.string().trim().max(BLOG_LIMITS.search).optional(),
  category: SlugParamSchema,
  tag: SlugParamSchema,
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type BlogPostsQuery = z.input<typeof BlogPostsQuerySchema>;
export type BlogPostsQueryParsed = z.output<typeof BlogPostsQuerySchema>;

export const BlogPostUrlQuerySchema = z.object({
  url: z
    .string()
    .trim()
    .min(1)
    .max(BLOG_LIMITS.url * 2)
    .refine(noControlCharacters, CONTROL_MESSAGE),
});

/** A post as lists get it: the spec's fields (§3 Blog post) plus what cards and feeds show. */
export const BlogPostSchema = z.object({
  _id: z.string(),
  url: z.string(),
  title: z.string(),
  /** The summary, or the opening of the body: list cards, feeds and the meta description. */
  excerpt: z.string(),
  /** ISO 8601 ('' only in the admin list, for a draft that was never given a date). */
  publishDate: z.string(),
  updatedAt: z.string(),
  /** 1200×630; '' when the post has none. */
  thumbnailImage: z.string(),
  /** 480×252 copy for cards and the sidebar ('' when none). */
  thumbnailImageSmall: z.string(),
  /** Category names (BLOG_CATEGORY_NAMES); links use their slugs. */
  categories: z.array(z.string()),
  tags: z.array(z.string()),
  authorFirstName: z.string(),
  authorLastName: z.string(),
  authorBio: z.string(),
  authorProfilePicture: z.string(),
  readingMinutes: z.number().int(),
});
export type BlogPost = z.infer<typeof BlogPostSchema>;

/** `GET /blog/getblogpost`: the post with its body as sanitised HTML and related posts. */
export const BlogPostDetailSchema = BlogPostSchema.extend({
  body: z.string(),
  related: z.array(BlogPostSchema),
});
export type BlogPostDetail = z.infer<typeof BlogPostDetailSchema>;

export const BlogPostsAnswerSchema = z.object({
  data: z.array(BlogPostSchema),
  count: z.number().int().nonnegative(),
});
export type BlogPostsAnswer = z.infer<typeof BlogPostsAnswerSchema>;
export const BlogPostAnswerSchema = z.object({ data: BlogPostDetailSchema });
export type BlogPostAnswer = z.infer<typeof BlogPostAnswerSchema>;

const TermCountSchema = z.object({
  name: z.string(),
  slug: z.string(),
  count: z.number().int().nonnegative(),
});
export type BlogTermCount = z.infer<typeof TermCountSchema>;

const AuthorCountSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  bio: z.string(),
  profilePicture: z.string(),
  count: z.number().int().nonnegative(),
});
export type BlogAuthorCount = z.infer<typeof AuthorCountSchema>;

/**
 * `GET /blog/getblogtaxonomy`: what the sidebar lists. Every category (in menu order, with
 * its number of posts), the tags in use (most used first) and the authors (most posts first).
 */
export const BlogTaxonomyAnswerSchema = z.object({
  data: z.object({
    categories: z.array(TermCountSchema),
    tags: z.array(TermCountSchema),
    authors: z.array(AuthorCountSchema),
  }),
});
export type BlogTaxonomyAnswer = z.infer<typeof BlogTaxonomyAnswerSchema>;

// ---------------------------------------------------------------------------------------------
// Authoring (admins only). The editor form and the admin routes use these same schemas.

export const BLOG_STATUSES = ['draft', 'published'] as const;
/** What the admin list shows: a published post whose date is still ahead is `scheduled`. */
export const BLOG_STATES = ['draft', 'scheduled', 'published'] as const;
export type BlogState = (typeof BLOG_STATES)[number];
export const BLOG_ADMIN_FILTERS = ['all', ...BLOG_STATES] as const;
export type BlogAdminFilter = (typeof BLOG_ADMIN_FILTERS)[number];

/**
 * A picture field: `''` (none), a `data:` URL (a new upload, checked and re-encoded by the
 * server), or the address of a picture already in place: a path on this site (`/uploads/…`)
 * or an https address. Nothing else (no `javascript:`, no `http:`).
 */
export const BlogImageRefSchema = z
  .string()
  .max(Math.ceil((BLOG_LIMITS.imageBytes * 4) / 3) + 100, 'The picture is larger than 5 MB.')
  .refine(
    (value) =>
      value === '' ||
      value.startsWith('data:') ||
      /^\/(?!\/)[\w\-./%~]*(\?[\w\-.=&%]*)?$/.test(value) ||
      /^https:\/\/[^\s"'<>]+$/i.test(value),
    'must be an uploaded picture, a path on this site or an https address',
  );

const trimmed = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} can have at most ${max} characters.`)
    .refine(noControlCharacters, CONTROL_MESSAGE);

/**
 * The post editor's fields (create and replace). `url` defaults to the title by the slug
 * rule; `publishDate` (ISO 8601 with offset) in the future schedules a published post, and
 * none means "now" when the post is published. Publishing needs a body and a category.
 */
export const BlogPostInputSchema = z
  .object({
    title: z
      .string({ error: 'Please give the post a title.' })
      .trim()
      .min(1, 'Please give the post a title.')
      .max(BLOG_LIMITS.title, `A title can have at most ${BLOG_LIMITS.title} characters.`)
      .refine(noControlCharacters, CONTROL_MESSAGE),
    url: trimmed(BLOG_LIMITS.url, 'The address')
      .transform((value) => slugify(value))
      .optional(),
    summary: trimmed(BLOG_LIMITS.summary, 'The summary').default(''),
    markdown: z
      .string()
      .max(BLOG_LIMITS.markdown, `The body can have at most ${BLOG_LIMITS.markdown} characters.`)
      .refine(noControlCharacters, CONTROL_MESSAGE)
      .default(''),
    status: z.enum(BLOG_STATUSES).default('draft'),
    publishDate: z.iso
      .datetime({ offset: true, error: 'must be a date and time' })
      .nullable()
      .optional(),
    categories: z
      .array(z.enum(BLOG_CATEGORY_NAMES, { error: 'is not one of the blog categories' }))
      .max(BLOG_CATEGORY_NAMES.length)
      .default([])
      .transform((list) => [...new Set(list)]),
    tags: z
      .array(trimmed(BLOG_LIMITS.tag, 'A tag'))
      .max(BLOG_LIMITS.tags, `A post can have at most ${BLOG_LIMITS.tags} tags.`)
      .default([])
      .transform(uniqueTags),
    featured: z.boolean().default(false),
    authorFirstName: trimmed(BLOG_LIMITS.authorName, 'The first name').default(''),
    authorLastName: trimmed(BLOG_LIMITS.authorName, 'The last name').default(''),
    authorBio: trimmed(BLOG_LIMITS.authorBio, 'The bio').default(''),
    authorProfilePicture: BlogImageRefSchema.default(''),
    thumbnailImage: BlogImageRefSchema.default(''),
  })
  .superRefine((post, context) => {
    if (post.status !== 'published') return;
    if (!post.markdown.trim()) {
      context.addIssue({
        code: 'custom',
        path: ['markdown'],
        message: 'A published post needs a body.',
      });
    }
    if (post.categories.length === 0) {
      context.addIssue({
        code: 'custom',
        path: ['categories'],
        message: 'A published post needs at least one category.',
      });
    }
    if (!post.authorFirstName && !post.authorLastName) {
      context.addIssue({
        code: 'custom',
        path: ['authorFirstName'],
        message: 'A published post needs an author name.',
      });
    }
  });
export type BlogPostInput = z.input<typeof BlogPostInputSchema>;
export type BlogPostInputParsed = z.output<typeof BlogPostInputSchema>;

/** Tags without blanks or repeats (two spellings with one slug count once; the first wins). */
export function uniqueTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const tag of tags) {
    const clean = tag.replace(/\s+/g, ' ').trim();
    const slug = slugify(clean);
    if (!slug || seen.has(slug)) continue;
    seen.add(slug);
    out.push(clean);
  }
  return out;
}

/** `POST /blog/admin/posts/{id}/publish`: optionally the moment it goes live (else now). */
export const BlogPublishInputSchema = z.object({
  publishDate: z.iso.datetime({ offset: true, error: 'must be a date and time' }).optional(),
});

export const BlogAdminPostsQuerySchema = z.object({
  status: z.enum(BLOG_ADMIN_FILTERS).default('all'),
  searchTerm: z.string().trim().max(BLOG_LIMITS.search).optional(),
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(50),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type BlogAdminPostsQuery = z.input<typeof BlogAdminPostsQuerySchema>;
export type BlogAdminPostsQueryParsed = z.output<typeof BlogAdminPostsQuerySchema>;

/** A post in the admin list: its state, whether it is recommended, when it was made. */
export const BlogAdminPostSchema = BlogPostSchema.extend({
  state: z.enum(BLOG_STATES),
  featured: z.boolean(),
  createdAt: z.string(),
});
export type BlogAdminPost = z.infer<typeof BlogAdminPostSchema>;

/** A post as the editor loads it: the Markdown source and the hand-written summary. */
export const BlogAdminPostDetailSchema = BlogAdminPostSchema.extend({
  markdown: z.string(),
  summary: z.string(),
  status: z.enum(BLOG_STATUSES),
});
export type BlogAdminPostDetail = z.infer<typeof BlogAdminPostDetailSchema>;

export const BlogAdminPostsAnswerSchema = z.object({
  data: z.array(BlogAdminPostSchema),
  count: z.number().int().nonnegative(),
  /** How many posts are in each state (the list's tabs). */
  states: z.object({
    draft: z.number().int().nonnegative(),
    scheduled: z.number().int().nonnegative(),
    published: z.number().int().nonnegative(),
  }),
});
export type BlogAdminPostsAnswer = z.infer<typeof BlogAdminPostsAnswerSchema>;
export const BlogAdminPostAnswerSchema = z.object({ data: BlogAdminPostDetailSchema });
export type BlogAdminPostAnswer = z.infer<typeof BlogAdminPostAnswerSchema>;

/** `POST /blog/admin/preview`: Markdown in, the sanitised HTML a reader would get out. */
export const BlogPreviewInputSchema = z.object({
  markdown: z.string().max(BLOG_LIMITS.markdown).refine(noControlCharacters, CONTROL_MESSAGE),
});
export const BlogPreviewAnswerSchema = z.object({ html: z.string(), readingMinutes: z.number() });
export type BlogPreviewAnswer = z.infer<typeof BlogPreviewAnswerSchema>;

/** The state of a post at a moment: drafts, scheduled (published, date ahead) and published. */
export function blogPostState(
  status: (typeof BLOG_STATUSES)[number],
  publishDate: string | Date | null,
  now: Date = new Date(),
): BlogState {
  if (status === 'draft') return 'draft';
  if (publishDate && new Date(publishDate).getTime() > now.getTime()) return 'scheduled';
  return 'published';
}
