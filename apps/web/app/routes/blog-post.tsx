import { blogAuthorName, blogPostHref, PRODUCT_NAME } from '@chapterwise/shared';
import { data } from 'react-router';
import { fetchBlogPost } from '../features/blog/api';
import { BlogPostView } from '../features/blog/components/blog-post';
import { JsonLd } from '../features/books/components/json-ld';
import { ApiClientError } from '../lib/api';
import { seo } from '../lib/seo';
import blogCss from '../styles/blog.css?url';
import type { Route } from './+types/blog-post';

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: blogCss },
  {
    rel: 'alternate',
    type: 'application/rss+xml',
    title: 'Chapterwise Blog',
    href: '/blog/rss.xml',
  },
];

/** /blog/{url}: a published post; anything else (a draft, a scheduled post, a typo) is a 404. */
export async function loader({ params, context }: Route.LoaderArgs) {
  try {
    const { data: post } = await fetchBlogPost(params.url, context.apiFetch);
    return { post, publicUrl: context.publicConfig.publicUrl };
  } catch (error) {
    if (error instanceof ApiClientError && (error.status === 404 || error.status === 400)) {
      throw data(null, { status: 404 });
    }
    throw error;
  }
}

const absolute = (url: string, publicUrl: string) =>
  url.startsWith('/') ? `${publicUrl}${url}` : url;

export function meta({ data: loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: 'Page not found | Chapterwise' }];
  const { post, publicUrl } = loaderData;
  return [
    ...seo({
      title: post.title,
      description: post.excerpt,
      path: blogPostHref(post.url),
      publicUrl,
      ...(post.thumbnailImage ? { image: post.thumbnailImage } : {}),
      type: 'article',
    }),
    { property: 'article:published_time', content: post.publishDate },
    { property: 'article:modified_time', content: post.updatedAt },
    ...(post.categories[0] ? [{ property: 'article:section', content: post.categories[0] }] : []),
    ...post.tags.map((tag) => ({ property: 'article:tag', content: tag })),
  ];
}

export default function BlogPostRoute({ loaderData }: Route.ComponentProps) {
  const { post, publicUrl } = loaderData;
  const url = `${publicUrl}${blogPostHref(post.url)}`;
  const author = blogAuthorName(post);
  return (
    <>
      <JsonLd
        data={{
          '@context': 'https://schema.org',
          '@type': 'BlogPosting',
          headline: post.title,
          description: post.excerpt,
          url,
          mainEntityOfPage: url,
          datePublished: post.publishDate,
          dateModified: post.updatedAt,
          ...(post.thumbnailImage ? { image: absolute(post.thumbnailImage, publicUrl) } : {}),
          ...(author
            ? {
                author: {
                  '@type': 'Person',
                  name: author,
                  ...(post.authorProfilePicture
                    ? { image: absolute(post.authorProfilePicture, publicUrl) }
                    : {}),
                },
              }
            : {}),
          publisher: { '@type': 'Organization', name: PRODUCT_NAME, url: publicUrl },
          articleSection: post.categories,
          keywords: post.tags.join(', '),
          inLanguage: 'en',
        }}
      />
      <BlogPostView post={post} />
    </>
  );
}
