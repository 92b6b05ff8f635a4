import type { UserPost } from '@chapterwise/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { errorMessage } from '../../../lib/api';
import { useToast } from '../../../lib/toast';
import { deletePost, listPosts } from '../api';

/**
 * A public profile's posts in a grid (spec §2). The Delete button shows only on the viewer's own
 * profile; it asks 'Are you sure?' and, once deleted, reloads the posts and shows the
 * 'Post Deleted' toast for 4 seconds.
 */
export function ProfilePosts({
  username,
  canDelete,
  initial,
}: {
  username: string;
  canDelete: boolean;
  initial?: UserPost[];
}) {
  const id = useId();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [removing, setRemoving] = useState<UserPost | null>(null);
  const posts = useQuery({
    queryKey: ['images', 'posts', username.toLowerCase()],
    queryFn: () => listPosts(username).then((a) => a.data.posts),
    ...(initial ? { initialData: initial } : {}),
  });
  const remove = useMutation({
    mutationFn: (post: UserPost) => deletePost(post._id),
    onSuccess: async () => {
      setRemoving(null);
      await queryClient.invalidateQueries({
        queryKey: ['images', 'posts', username.toLowerCase()],
      });
      toast({
        title: 'Post Deleted',
        message: 'Post successfully deleted!',
        tone: 'success',
        durationMs: 4000,
      });
    },
    onError: (error) => {
      setRemoving(null);
      toast({ message: errorMessage(error), tone: 'error', durationMs: 4000 });
    },
  });
  const list = posts.data ?? [];
  return (
    <section className="profile-posts" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Posts</h2>
      {posts.error ? <p className="alert alert-error">{errorMessage(posts.error)}</p> : null}
      {!posts.isLoading && list.length === 0 ? <p className="muted">No posts yet.</p> : null}
      <ul className="post-grid" aria-label="Posts">
        {list.map((post) => (
          <li key={post._id} className="card post-card">
            <Link to={`/${post.creatorUsername}/${post.predictionUrl}`} aria-label={post.name}>
              <img
                src={post.image}
                alt={post.name}
                width={post.width}
                height={post.height}
                loading="lazy"
              />
            </Link>
            <h3>
              <Link to={`/${post.creatorUsername}/${post.predictionUrl}`}>{post.name}</Link>
            </h3>
            {post.description ? <p>{post.description}</p> : null}
            <p className="muted">
              <time dateTime={post.createdOnDate}>
                {new Date(post.createdOnDate).toLocaleDateString('en-US', {
                  month: 'short',
                  day: 'numeric',
                  year: 'numeric',
                })}
              </time>
            </p>
            {canDelete ? (
              <div className="button-row">
                <button
                  type="button"
                  className="button button-ghost button-sm danger"
                  aria-label={`Delete ${post.name}`}
                  onClick={() => setRemoving(post)}
                >
                  Delete
                </button>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={!!removing}
        title="Are you sure?"
        message="Are you sure you want to permanently delete this post?"
        confirmLabel="Delete"
        cancelLabel="Cancel"
        busy={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing)}
        onCancel={() => setRemoving(null)}
      />
    </section>
  );
}
