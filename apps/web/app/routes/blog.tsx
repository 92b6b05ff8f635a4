import {
  BLOG_CATEGORIES,
  BLOG_LIMITS,
  BLOG_PAGE_SIZE,
  BLOG_RECOMMENDED_COUNT,
  slugify,
} from '@chapterwise/shared';
import { data } from 'react-router';
import { fetchBlogPosts, fetchBlogTaxonomy } from '../features/blog/api';
import { BlogList, blogListHref } from '../features/blog/components/blog-list';
import { seo } from '../lib/seo';
import blogCss from '../styles/blog.css?url';
import type { Route } from './+types/blog';

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: blogCss },
  {
    rel: 'alternate',
    type: 'application/rss+xml',
    title: 'Chapterwise Blog',
    href: '/blog/rss.xml',
  },
];

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * /blog (with ?searchTerm= and ?page=), /blog/category/{category} and /blog/tag/{tag}: the
 * same list and sidebar. An unknown category, a tag no post carries or a page past the end
 * is a 404.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const searchTerm = (url.searchParams.get('searchTerm') ?? '').trim().slice(0, BLOG_LIMITS.search);
  const page = Math.min(10_000, Math.max(1, Math.floor(Number(url.searchParams.get('page'))) || 1));
  const categorySlug = params.category;
  const tagSlug = params.tag;
  const category = categorySlug ? BLOG_CATEGORIES.find((c) => c.slug === categorySlug) : undefined;
  if (categorySlug && !category) throw data(null, { status: 404 });
  if (tagSlug && !SLUG.test(tagSlug)) throw data(null, { status: 404 });

  const [list, taxonomy, recommended] = await Promise.all([
    fetchBlogPosts(
      {
        page,
        limit: BLOG_PAGE_SIZE,
        ...(searchTerm ? { searchTerm } : {}),
        ...(category ? { category: category.slug } : {}),
        ...(tagSlug ? { tag: tagSlug } : {}),
      },
      context.apiFetch,
    ),
    fetchBlogTaxonomy(context.apiFetch),
    fetchBlogPosts({ sort: 'recommended', limit: BLOG_RECOMMENDED_COUNT }, context.apiFetch),
  ]);
  let tagName: string | null = null;
  if (tagSlug) {
    tagName =
      taxonomy.data.tags.find((t) => t.slug === tagSlug)?.name ??
      list.data.flatMap((p) => p.tags).find((t) => slugify(t) === tagSlug) ??
      null;
    if (!tagName && list.count === 0) throw data(null, { status: 404 });
  }
  const pageCount = Math.ceil(list.count / BLOG_PAGE_SIZE);
  if (page > 1 && page > pageCount) throw data(null, { status: 404 });
  const basePath = category
    ? `/blog/category/${category.slug}`
    : tagSlug
      ? `/blog/tag/${tagSlug}`
      : '/blog';
  return {
    list,
    taxonomy: taxonomy.data,
    recommended: recommended.data,
    searchTerm,
    page,
    pageCount,
    category: category ?? null,
    tag: tagSlug ? { slug: tagSlug, name: tagName ?? tagSlug } : null,
    basePath,
    publicUrl: context.publicConfig.publicUrl,
  };
}

export function meta({ data: loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: 'Page not found | Chapterwise' }];
  const { category, tag, searchTerm, page, basePath, publicUrl } = loaderData;
  const title = category
    ? `${category.name}: blog posts for teachers`
    : tag
      ? `Posts tagged “${tag.name}”`
      : searchTerm
        ? `Blog search: ${searchTerm}`
        : 'Blog: teaching classic books';
  const description = category
    ? `Chapterwise blog posts on ${category.name.toLowerCase()}: practical ideas for teaching public-domain books and making materials from them.`
    : tag
      ? `Chapterwise blog posts about ${tag.name}.`
      : 'Ideas for teaching classic books, and how to make quizzes, lessons and worksheets you can trust from any chapter.';
  return seo({
    title,
    description,
    path: blogListHref(basePath, { page }),
    publicUrl,
    ...(searchTerm ? { noindex: true } : {}),
  });
}

export default function BlogRoute({ loaderData }: Route.ComponentProps) {
  const { list, taxonomy, recommended, searchTerm, page, pageCount, category, tag, basePath } =
    loaderData;
  const heading = category
    ? category.name
    : tag
      ? `Posts tagged “${tag.name}”`
      : searchTerm
        ? `Search results for “${searchTerm}”`
        : 'Blog';
  return (
    <BlogList
      heading={heading}
      eyebrow={category ? 'Category' : tag ? 'Tag' : searchTerm ? 'Blog' : undefined}
      intro={
        !category && !tag && !searchTerm
          ? 'Ideas for teaching classic books, and how to make quizzes, lessons and worksheets you can trust from any chapter.'
          : undefined
      }
      basePath={basePath}
      posts={list.data}
      count={list.count}
      page={page}
      pageCount={pageCount}
      sidebar={{
        searchTerm,
        taxonomy,
        recommended,
        currentCategory: category?.slug,
        currentTag: tag?.slug,
      }}
    />
  );
}
