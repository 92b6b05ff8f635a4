import {
  blogAuthorName,
  blogCategoryHref,
  blogTagHref,
  formatShortDate,
  type BlogPostDetail,
} from '@chapterwise/shared';
import { useId } from 'react';
import { Link } from 'react-router';
import { PostCard, PostMeta, PostThumbnail } from './post-card';

/**
 * A post's body: HTML the server rendered from Markdown and sanitised when the post was saved
 * (no script, no event handlers, safe links), so it is put in the page as it is.
 */
export function PostBody({ html }: { html: string }) {
  return <div className="post-body" dangerouslySetInnerHTML={{ __html: html }} />;
}

/** The author box under a post (spec §2 Blog): picture, name and bio. */
export function AuthorBox({ post }: { post: BlogPostDetail }) {
  const id = useId();
  const name = blogAuthorName(post);
  if (!name) return null;
  return (
    <section className="author-box" aria-labelledby={id}>
      {post.authorProfilePicture ? (
        <img
          className="avatar"
          src={post.authorProfilePicture}
          alt=""
          width={80}
          height={80}
          loading="lazy"
        />
      ) : (
        <span className="avatar avatar-initial author-box-initial" aria-hidden="true">
          {name[0]?.toUpperCase()}
        </span>
      )}
      <div>
        <p className="eyebrow">Written by</p>
        <h2 id={id} className="author-box-name">
          {name}
        </h2>
        {post.authorBio ? <p className="author-box-bio">{post.authorBio}</p> : null}
      </div>
    </section>
  );
}

/** The post page (spec §2 Blog): the post, its tags, the author box and related posts. */
export function BlogPostView({ post }: { post: BlogPostDetail }) {
  const relatedId = useId();
  const author = blogAuthorName(post);
  const updated =
    new Date(post.updatedAt).getTime() - new Date(post.publishDate).getTime() > 86_400_000;
  return (
    <article className="container page blog-post-page">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to="/blog">Blog</Link>
        {post.categories[0] ? (
          <>
            <span aria-hidden="true"> / </span>
            <Link to={blogCategoryHref(post.categories[0])}>{post.categories[0]}</Link>
          </>
        ) : null}
      </nav>
      <header className="post-head">
        <h1>{post.title}</h1>
        <div className="post-byline">
          {author ? (
            <p className="post-author">
              {post.authorProfilePicture ? (
                <img
                  className="avatar"
                  src={post.authorProfilePicture}
                  alt=""
                  width={36}
                  height={36}
                />
              ) : null}
              <span>By {author}</span>
            </p>
          ) : null}
          <PostMeta post={post} />
          {updated ? (
            <p className="post-meta">
              Updated <time dateTime={post.updatedAt}>{formatShortDate(post.updatedAt)}</time>
            </p>
          ) : null}
        </div>
        {post.categories.length ? (
          <ul className="post-categories" aria-label="Categories">
            {post.categories.map((name) => (
              <li key={name}>
                <Link className="badge" to={blogCategoryHref(name)}>
                  {name}
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
      </header>
      {post.thumbnailImage ? (
        <PostThumbnail post={post} size="large" className="post-hero" />
      ) : null}
      <PostBody html={post.body} />
      {post.tags.length ? (
        <ul className="tag-cloud post-tags" aria-label="Tags">
          {post.tags.map((tag) => (
            <li key={tag}>
              <Link className="tag" to={blogTagHref(tag)}>
                {tag}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      <AuthorBox post={post} />
      {post.related.length ? (
        <section className="related-posts" aria-labelledby={relatedId}>
          <h2 id={relatedId}>Related posts</h2>
          <ul className="post-grid related-grid">
            {post.related.map((related) => (
              <li key={related._id}>
                <PostCard post={related} headingLevel={3} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </article>
  );
}
