import { slugify } from './slug.js';

// The blog pages' limits, sizes and links, without zod: the blog list and post pages import
// these and do not load the schemas of blog.ts (issue 18). blog.ts uses them.

/** Limits of every blog field, shared by the editor form and the API. */
export const BLOG_LIMITS = {
  search: 200,
  title: 160,
  url: 120,
  summary: 300,
  markdown: 100_000,
  tags: 12,
  tag: 40,
  authorName: 60,
  authorBio: 600,
  /** Pictures (thumbnail, author photo): jpeg, png or webp up to 5 MB, checked by content. */
  imageBytes: 5 * 1024 * 1024,
} as const;

/** Thumbnails are re-encoded to this size (the 1.91:1 shape link previews use) and a small copy. */
export const BLOG_THUMBNAIL = { width: 1200, height: 630, smallWidth: 480, smallHeight: 252 };
export const BLOG_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

/** Posts a page of the blog list shows (two or three cards a row). */
export const BLOG_PAGE_SIZE = 12;

/** Related posts on a post page; recommended posts in the sidebar. */
export const BLOG_RELATED_COUNT = 3;
export const BLOG_RECOMMENDED_COUNT = 3;

/** The link of a post, a category and a tag (slug rule for the last two). */
export const blogPostHref = (url: string) => `/blog/${encodeURIComponent(url)}`;
export const blogCategoryHref = (name: string) => `/blog/category/${slugify(name)}`;
export const blogTagHref = (name: string) => `/blog/tag/${slugify(name)}`;

/** "Chapterwise Team" from the author's two names. */
export function blogAuthorName(post: { authorFirstName: string; authorLastName: string }) {
  return `${post.authorFirstName} ${post.authorLastName}`.trim();
}
