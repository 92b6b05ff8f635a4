import {
  BLOG_ADMIN_FILTERS,
  blogPostHref,
  formatShortDate,
  type BlogAdminFilter,
  type BlogAdminPost,
} from '@chapterwise/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ErrorBox } from '../../../components/ui/error-box';
import { Loading } from '../../../components/ui/loading';
import { errorMessage } from '../../../lib/api';
import { useToast } from '../../../lib/toast';
import { useAdminPostActions, useAdminPosts } from '../api';

const TAB_LABELS: Record<BlogAdminFilter, string> = {
  all: 'All',
  draft: 'Drafts',
  scheduled: 'Scheduled',
  published: 'Published',
};

export const STATE_LABELS: Record<BlogAdminPost['state'], string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  published: 'Published',
};

/** The spec's delete texts for posts (§2 Public profile), used for blog posts too. */
export const POST_DELETE_TEXT = {
  title: 'Are you sure?',
  message: 'Are you sure you want to permanently delete this post?',
  toastTitle: 'Post Deleted',
  toastMessage: 'Post successfully deleted!',
};

/**
 * Every post for admins, by state (All, Drafts, Scheduled, Published), with edit, view,
 * publish or unpublish, and delete after a confirmation.
 */
export function AdminPostList({ status }: { status: BlogAdminFilter }) {
  const posts = useAdminPosts(status, true);
  const actions = useAdminPostActions();
  const toast = useToast();
  const [toDelete, setToDelete] = useState<BlogAdminPost | null>(null);
  const [error, setError] = useState<string | null>(null);
  const states = posts.data?.states;
  const countOf = (tab: BlogAdminFilter) =>
    !states
      ? null
      : tab === 'all'
        ? states.draft + states.scheduled + states.published
        : states[tab];

  async function run(action: () => Promise<unknown>, success: string) {
    setError(null);
    try {
      await action();
      toast({ tone: 'success', message: success });
    } catch (caught) {
      setError(errorMessage(caught));
    }
  }

  return (
    <div className="admin-posts">
      <nav className="tabs" aria-label="Posts by state">
        {BLOG_ADMIN_FILTERS.map((tab) => {
          const count = countOf(tab);
          return (
            <Link
              key={tab}
              className="tab"
              to={tab === 'all' ? '/admin/blog' : `/admin/blog?status=${tab}`}
              aria-current={status === tab ? 'page' : undefined}
              preventScrollReset
            >
              {TAB_LABELS[tab]}
              {count !== null ? <span className="tab-count"> ({count})</span> : null}
            </Link>
          );
        })}
      </nav>
      <ErrorBox message={error ?? (posts.error ? errorMessage(posts.error) : null)} />
      {posts.isPending ? (
        <Loading label="Loading posts…" />
      ) : posts.data && posts.data.data.length === 0 ? (
        <div className="empty-state">
          <p>
            {status === 'all'
              ? 'There are no posts yet.'
              : `No ${TAB_LABELS[status].toLowerCase()}.`}
          </p>
          <Link to="/admin/blog/new">Write the first one</Link>
        </div>
      ) : (
        <ul className="admin-post-list" aria-busy={posts.isFetching}>
          {posts.data?.data.map((post) => (
            <li key={post._id} className="admin-post">
              <div className="admin-post-main">
                <Link className="admin-post-title" to={`/admin/blog/${post._id}`}>
                  {post.title}
                </Link>
                <p className="admin-post-meta">
                  <span className={`state state-${post.state}`}>{STATE_LABELS[post.state]}</span>
                  {post.publishDate ? (
                    <span>
                      {post.state === 'scheduled'
                        ? 'Goes live '
                        : post.state === 'draft'
                          ? 'Dated '
                          : 'Published '}
                      <time dateTime={post.publishDate}>{formatShortDate(post.publishDate)}</time>
                    </span>
                  ) : null}
                  <span>
                    Updated <time dateTime={post.updatedAt}>{formatShortDate(post.updatedAt)}</time>
                  </span>
                  {post.featured ? <span>Recommended</span> : null}
                </p>
                <p className="admin-post-url muted">{blogPostHref(post.url)}</p>
              </div>
              <div className="admin-post-actions">
                <Link
                  className="button button-ghost button-sm"
                  to={`/admin/blog/${post._id}`}
                  aria-label={`Edit ${post.title}`}
                >
                  Edit
                </Link>
                {post.state === 'published' ? (
                  <Link
                    className="button button-ghost button-sm"
                    to={blogPostHref(post.url)}
                    aria-label={`View ${post.title}`}
                  >
                    View
                  </Link>
                ) : null}
                {post.state === 'draft' ? (
                  <button
                    type="button"
                    className="button button-ghost button-sm"
                    aria-label={`Publish ${post.title}`}
                    disabled={actions.publish.isPending}
                    onClick={() =>
                      void run(
                        () => actions.publish.mutateAsync(post._id),
                        `“${post.title}” is published.`,
                      )
                    }
                  >
                    Publish
                  </button>
                ) : (
                  <button
                    type="button"
                    className="button button-ghost button-sm"
                    aria-label={`Unpublish ${post.title}`}
                    disabled={actions.unpublish.isPending}
                    onClick={() =>
                      void run(
                        () => actions.unpublish.mutateAsync(post._id),
                        `“${post.title}” is a draft again.`,
                      )
                    }
                  >
                    Unpublish
                  </button>
                )}
                <button
                  type="button"
                  className="button button-ghost button-sm button-danger-text"
                  aria-label={`Delete ${post.title}`}
                  onClick={() => setToDelete(post)}
                >
                  Delete
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={toDelete !== null}
        title={POST_DELETE_TEXT.title}
        message={POST_DELETE_TEXT.message}
        busy={actions.remove.isPending}
        onCancel={() => setToDelete(null)}
        onConfirm={() => {
          const post = toDelete;
          if (!post) return;
          void actions.remove.mutateAsync(post._id).then(
            () => {
              setToDelete(null);
              toast({
                tone: 'success',
                title: POST_DELETE_TEXT.toastTitle,
                message: POST_DELETE_TEXT.toastMessage,
                durationMs: 4000,
              });
            },
            (caught: unknown) => {
              setToDelete(null);
              setError(errorMessage(caught));
            },
          );
        }}
      />
    </div>
  );
}
