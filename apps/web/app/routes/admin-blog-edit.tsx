import { Link, useParams } from 'react-router';
import { NotFound } from '../components/layout/not-found';
import { ErrorBox } from '../components/ui/error-box';
import { Loading } from '../components/ui/loading';
import { useAdminPost } from '../features/blog/api';
import { PostEditor } from '../features/blog/components/post-editor';
import { useAdminGate } from '../features/blog/hooks/use-admin-gate';
import { ApiClientError, errorMessage } from '../lib/api';
import { requireSession } from '../lib/guard';
import { seo } from '../lib/seo';
import { useSession } from '../lib/session';
import blogCss from '../styles/blog.css?url';
import type { Route } from './+types/admin-blog-edit';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: blogCss }];

export const meta = () =>
  seo({ title: 'Edit post', description: 'Write and publish a blog post.', noindex: true });

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

/** /admin/blog/new and /admin/blog/{id}: the post editor, for admins. */
export default function AdminBlogEditRoute() {
  const { id } = useParams();
  const { user } = useSession();
  const gate = useAdminGate(id ? `/admin/blog/${id}` : '/admin/blog/new');
  const post = useAdminPost(id, gate === 'admin');
  if (gate === 'loading') return <HydrateFallback />;
  if (gate === 'denied' || !user) return <NotFound />;
  if (id && post.error instanceof ApiClientError && [400, 404].includes(post.error.status)) {
    return <NotFound />;
  }
  return (
    <section className="container page admin-blog" aria-labelledby="editor-title">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to="/admin/blog">Blog posts</Link>
      </nav>
      <h1 id="editor-title">{id ? 'Edit post' : 'New post'}</h1>
      {id && post.error ? <ErrorBox message={errorMessage(post.error)} /> : null}
      {id && post.isPending ? (
        <Loading label="Loading the post…" />
      ) : id && !post.data ? null : (
        <PostEditor key={post.data?._id ?? 'new'} post={post.data} user={user} />
      )}
    </section>
  );
}
