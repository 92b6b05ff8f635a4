import type {
  BlogAdminFilter,
  BlogAdminPostAnswer,
  BlogAdminPostsAnswer,
  BlogPostAnswer,
  BlogPostInput,
  BlogPostsAnswer,
  BlogSort,
  BlogPreviewAnswer,
  BlogTaxonomyAnswer,
  ResultAnswer,
} from '@chapterwise/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';

type Fetch = typeof fetch;

/* ------------------------------------------------------------------------------------------ */
/* Public calls (page loaders pass the loader context's apiFetch; never the session token).    */
/* ------------------------------------------------------------------------------------------ */

export interface BlogPostsParams {
  sort?: BlogSort;
  searchTerm?: string;
  /** Slugs. */
  category?: string;
  tag?: string;
  limit?: number;
  page?: number;
}

/** `GET /blog/getblogposts`. */
export function fetchBlogPosts(params: BlogPostsParams, fetch?: Fetch): Promise<BlogPostsAnswer> {
  return apiRequest<BlogPostsAnswer>('/blog/getblogposts', {
    query: { ...params },
    auth: false,
    ...(fetch ? { fetch } : {}),
  });
}

/** `GET /blog/getblogpost`: the post, its sanitised body and related posts. */
export function fetchBlogPost(url: string, fetch?: Fetch): Promise<BlogPostAnswer> {
  return apiRequest<BlogPostAnswer>('/blog/getblogpost', {
    query: { url },
    auth: false,
    ...(fetch ? { fetch } : {}),
  });
}

/** `GET /blog/getblogtaxonomy`: categories, tags and authors for the sidebar. */
export function fetchBlogTaxonomy(fetch?: Fetch): Promise<BlogTaxonomyAnswer> {
  return apiRequest<BlogTaxonomyAnswer>('/blog/getblogtaxonomy', {
    auth: false,
    ...(fetch ? { fetch } : {}),
  });
}

/* ------------------------------------------------------------------------------------------ */
/* Authoring (admins; the session token is sent).                                              */
/* ------------------------------------------------------------------------------------------ */

export const blogAdminKeys = {
  all: ['blog-admin'] as const,
  list: (status: BlogAdminFilter) => ['blog-admin', 'list', status] as const,
  one: (id: string) => ['blog-admin', 'post', id] as const,
};

export const getAdminPosts = (status: BlogAdminFilter) =>
  apiRequest<BlogAdminPostsAnswer>('/blog/admin/posts', { query: { status, limit: 100 } });

export const getAdminPost = (id: string) =>
  apiRequest<BlogAdminPostAnswer>(`/blog/admin/posts/${encodeURIComponent(id)}`).then(
    (a) => a.data,
  );

export const createBlogPost = (input: BlogPostInput) =>
  apiRequest<BlogAdminPostAnswer>('/blog/admin/posts', { method: 'POST', body: input }).then(
    (a) => a.data,
  );

export const saveBlogPost = (id: string, input: BlogPostInput) =>
  apiRequest<BlogAdminPostAnswer>(`/blog/admin/posts/${encodeURIComponent(id)}`, {
    method: 'PUT',
    body: input,
  }).then((a) => a.data);

export const publishBlogPost = (id: string) =>
  apiRequest<BlogAdminPostAnswer>(`/blog/admin/posts/${encodeURIComponent(id)}/publish`, {
    method: 'POST',
    body: {},
  }).then((a) => a.data);

export const unpublishBlogPost = (id: string) =>
  apiRequest<BlogAdminPostAnswer>(`/blog/admin/posts/${encodeURIComponent(id)}/unpublish`, {
    method: 'POST',
    body: {},
  }).then((a) => a.data);

export const deleteBlogPost = (id: string) =>
  apiRequest<ResultAnswer>(`/blog/admin/posts/${encodeURIComponent(id)}`, { method: 'DELETE' });

export const previewMarkdown = (markdown: string, signal?: AbortSignal) =>
  apiRequest<BlogPreviewAnswer>('/blog/admin/preview', {
    method: 'POST',
    body: { markdown },
    ...(signal ? { signal } : {}),
  });

/** The admin list of one state tab (keeps the previous tab's rows while the next loads). */
export function useAdminPosts(status: BlogAdminFilter, enabled: boolean) {
  return useQuery({
    queryKey: blogAdminKeys.list(status),
    queryFn: () => getAdminPosts(status),
    enabled,
    placeholderData: keepPreviousData,
  });
}

export function useAdminPost(id: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: blogAdminKeys.one(id ?? 'new'),
    queryFn: () => getAdminPost(id!),
    enabled: enabled && Boolean(id),
    retry: false,
  });
}

/** Publish, unpublish and delete from the list; every admin view reloads afterwards. */
export function useAdminPostActions() {
  const client = useQueryClient();
  const invalidate = () => client.invalidateQueries({ queryKey: blogAdminKeys.all });
  return {
    publish: useMutation({ mutationFn: publishBlogPost, onSettled: invalidate }),
    unpublish: useMutation({ mutationFn: unpublishBlogPost, onSettled: invalidate }),
    remove: useMutation({ mutationFn: deleteBlogPost, onSettled: invalidate }),
  };
}
