import {
  blogPostState,
  type BlogAdminPost,
  type BlogAdminPostDetail,
  type BlogPost,
} from '@chapterwise/shared';
import type { BlogPostRow } from '../../db/schema/index.js';
import type { BlogListRow } from './blog.repository.js';

/** A post in the spec's wire names (§3 Blog post) plus what cards show. */
export function presentPost(row: BlogListRow): BlogPost {
  return {
    _id: row.id,
    url: row.url,
    title: row.title,
    excerpt: row.excerpt,
    publishDate: row.publishDate ? row.publishDate.toISOString() : '',
    updatedAt: row.updatedAt.toISOString(),
    thumbnailImage: row.thumbnailImage,
    thumbnailImageSmall: row.thumbnailImageSmall || row.thumbnailImage,
    categories: row.categories,
    tags: row.tags,
    authorFirstName: row.authorFirstName,
    authorLastName: row.authorLastName,
    authorBio: row.authorBio,
    authorProfilePicture: row.authorProfilePicture,
    readingMinutes: row.readingMinutes,
  };
}

/** A post in the admin list: with its state at `now` and whether it is recommended. */
export function presentAdminPost(row: BlogListRow, now: Date): BlogAdminPost {
  return {
    ...presentPost(row),
    state: blogPostState(row.status, row.publishDate, now),
    featured: row.featured,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A post as the editor loads it. */
export function presentAdminPostDetail(row: BlogPostRow, now: Date): BlogAdminPostDetail {
  return {
    ...presentAdminPost(row, now),
    markdown: row.bodyMarkdown,
    summary: row.summary,
    status: row.status,
  };
}
