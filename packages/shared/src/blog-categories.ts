import { slugify } from './slug.js';

/** Blog categories of the "Blog" mega menu; posts may carry any of these. */
export const BLOG_CATEGORY_NAMES = [
  'Teaching Tips',
  'Book Guides',
  'Assessment',
  'Classroom Activities',
  'Product Guides',
  'Reading & Literacy',
] as const;

export const BLOG_CATEGORIES = BLOG_CATEGORY_NAMES.map((name) => ({ name, slug: slugify(name) }));
