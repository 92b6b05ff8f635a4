import {
  blogAuthorName,
  blogCategoryHref,
  blogPostHref,
  formatShortDate,
  type BlogPost,
} from '@chapterwise/shared';
import { Link } from 'react-router';

/** "Nov 17, 2026 · 5 min read", with a machine-readable date. */
export function PostMeta({ post }: { post: Pick<BlogPost, 'publishDate' | 'readingMinutes'> }) {
  return (
    <p className="post-meta">
      <time dateTime={post.publishDate}>{formatShortDate(post.publishDate)}</time>
      {post.readingMinutes ? (
        <>
          <span aria-hidden="true"> · </span>
          <span>{post.readingMinutes} min read</span>
        </>
      ) : null}
    </p>
  );
}

/** A post's thumbnail, or a quiet block of colour when it has none. */
export function PostThumbnail({
  post,
  size,
  className,
}: {
  post: Pick<BlogPost, 'thumbnailImage' | 'thumbnailImageSmall'>;
  size: 'small' | 'large';
  className?: string;
}) {
  const src = size === 'small' ? post.thumbnailImageSmall : post.thumbnailImage;
  if (!src)
    return <span className={`post-thumbnail-empty ${className ?? ''}`} aria-hidden="true" />;
  return (
    <img
      className={className}
      src={src}
      alt=""
      width={size === 'small' ? 480 : 1200}
      height={size === 'small' ? 252 : 630}
      loading={size === 'small' ? 'lazy' : 'eager'}
      decoding="async"
    />
  );
}

/**
 * A post in a list: thumbnail, categories, title, date, excerpt and author. The title is the
 * card's one link and covers the whole card (the category links sit above it), so keyboard
 * and screen-reader users meet each post once.
 */
export function PostCard({
  post,
  headingLevel = 2,
  wide = false,
}: {
  post: BlogPost;
  headingLevel?: 2 | 3;
  wide?: boolean;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const author = blogAuthorName(post);
  return (
    <article className={`post-card${wide ? ' post-card-wide' : ''}`}>
      <div className="post-card-image">
        <PostThumbnail post={post} size={wide ? 'large' : 'small'} />
      </div>
      <div className="post-card-body">
        {post.categories.length ? (
          <ul className="post-card-categories" aria-label="Categories">
            {post.categories.map((name) => (
              <li key={name}>
                <Link className="badge" to={blogCategoryHref(name)}>
                  {name}
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
        <Heading className="post-card-title">
          <Link to={blogPostHref(post.url)}>{post.title}</Link>
        </Heading>
        <PostMeta post={post} />
        {post.excerpt ? <p className="post-card-excerpt">{post.excerpt}</p> : null}
        {author ? (
          <p className="post-card-author">
            {post.authorProfilePicture ? (
              <img
                className="avatar"
                src={post.authorProfilePicture}
                alt=""
                width={28}
                height={28}
                loading="lazy"
              />
            ) : null}
            <span>By {author}</span>
          </p>
        ) : null}
      </div>
    </article>
  );
}
