import { BLOG_ADMIN_FILTERS, type BlogAdminFilter } from '@chapterwise/shared';
import { Link, useSearchParams } from 'react-router';
import { NotFound } from '../components/layout/not-found';
import { Loading } from '../components/ui/loading';
import { AdminPostList } from '../features/blog/components/admin-post-list';
import { useAdminGate } from '../features/blog/hooks/use-admin-gate';
import { requireSession } from '../lib/guard';
import { seo } from '../lib/seo';
import blogCss from '../styles/blog.css?url';
import type { Route } from './+types/admin-blog';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: blogCss }];

export const meta = () =>
  seo({ title: 'Blog posts', description: 'Write and publish blog posts.', noindex: true });

export function clientLoader(args: Route.ClientLoaderArgs) {
  requireSession(args);
  return null;
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return (
    <section className="container page">
      <Loading />
    </section>
  );
}

/** /admin/blog: every post by state, for admins. */
export default function AdminBlogRoute() {
  const [params] = useSearchParams();
  const status = (BLOG_ADMIN_FILTERS as readonly string[]).includes(params.get('status') ?? '')
    ? (params.get('status') as BlogAdminFilter)
    : 'all';
  const gate = useAdminGate('/admin/blog');
  if (gate === 'loading') return <HydrateFallback />;
  if (gate === 'denied') return <NotFound />;
  return (
    <section className="container page admin-blog" aria-labelledby="admin-blog-title">
      <div className="admin-head">
        <h1 id="admin-blog-title">Blog posts</h1>
        <Link className="button button-primary" to="/admin/blog/new">
          New post
        </Link>
      </div>
      <AdminPostList status={status} />
    </section>
  );
}
