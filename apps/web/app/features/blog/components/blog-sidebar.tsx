import {
  BLOG_LIMITS,
  blogPostHref,
  formatShortDate,
  type BlogPost,
  type BlogTaxonomyAnswer,
} from '@chapterwise/shared';
import { useId } from 'react';
import { Form, Link } from 'react-router';
import { PostThumbnail } from './post-card';

type Taxonomy = BlogTaxonomyAnswer['data'];

export interface BlogSidebarProps {
  searchTerm: string;
  taxonomy: Taxonomy;
  recommended: BlogPost[];
  currentCategory?: string | undefined;
  currentTag?: string | undefined;
}

/** The search box: Enter or the search icon submits to /blog?searchTerm=… (spec §2 Blog). */
export function BlogSearch({ searchTerm, className }: { searchTerm: string; className?: string }) {
  const id = useId();
  return (
    <Form
      method="get"
      action="/blog"
      role="search"
      className={`blog-search${className ? ` ${className}` : ''}`}
    >
      <label htmlFor={id} className="visually-hidden">
        Search the blog
      </label>
      <input
        id={id}
        type="search"
        name="searchTerm"
        defaultValue={searchTerm}
        key={searchTerm}
        maxLength={BLOG_LIMITS.search}
        placeholder="Search posts"
        autoComplete="off"
      />
      <button type="submit" className="blog-search-button" aria-label="Search">
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
          <circle cx="11" cy="11" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="m16 16 4.5 4.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
    </Form>
  );
}

/**
 * The blog's sidebar (spec §2 Blog): search, the author card, categories, recommended posts
 * (thumbnail, title, publish date) and tags. Category and tag links follow the slug rule.
 */
export function BlogSidebar(props: BlogSidebarProps) {
  const author = props.taxonomy.authors[0];
  const ids = { author: useId(), categories: useId(), recommended: useId(), tags: useId() };
  return (
    <aside className="blog-sidebar" aria-label="Blog sidebar">
      <BlogSearch searchTerm={props.searchTerm} />

      {author ? (
        <section className="sidebar-card author-card" aria-labelledby={ids.author}>
          <h2 id={ids.author} className="sidebar-title">
            About the author
          </h2>
          <div className="author-card-head">
            {author.profilePicture ? (
              <img
                className="avatar"
                src={author.profilePicture}
                alt=""
                width={64}
                height={64}
                loading="lazy"
              />
            ) : null}
            <p className="author-card-name">
              {`${author.firstName} ${author.lastName}`.trim()}
              <span className="muted">
                {author.count} {author.count === 1 ? 'post' : 'posts'}
              </span>
            </p>
          </div>
          {author.bio ? <p className="author-card-bio">{author.bio}</p> : null}
        </section>
      ) : null}

      <nav className="sidebar-card" aria-labelledby={ids.categories}>
        <h2 id={ids.categories} className="sidebar-title">
          Categories
        </h2>
        <ul className="sidebar-categories">
          <li>
            <Link
              to="/blog"
              aria-current={
                !props.currentCategory && !props.currentTag && !props.searchTerm
                  ? 'page'
                  : undefined
              }
            >
              All posts
            </Link>
          </li>
          {props.taxonomy.categories.map((c) => (
            <li key={c.slug}>
              <Link
                to={`/blog/category/${c.slug}`}
                aria-current={props.currentCategory === c.slug ? 'page' : undefined}
              >
                <span>{c.name}</span>
                <span className="category-count">{c.count}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      {props.recommended.length ? (
        <section className="sidebar-card" aria-labelledby={ids.recommended}>
          <h2 id={ids.recommended} className="sidebar-title">
            Recommended posts
          </h2>
          <ul className="recommended-list">
            {props.recommended.map((post) => (
              <li key={post._id}>
                <Link to={blogPostHref(post.url)} className="recommended-link">
                  <PostThumbnail post={post} size="small" className="recommended-thumb" />
                  <span className="recommended-title">{post.title}</span>
                </Link>
                <time className="recommended-date" dateTime={post.publishDate}>
                  {formatShortDate(post.publishDate)}
                </time>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {props.taxonomy.tags.length ? (
        <section className="sidebar-card" aria-labelledby={ids.tags}>
          <h2 id={ids.tags} className="sidebar-title">
            Tags
          </h2>
          <ul className="tag-cloud">
            {props.taxonomy.tags.map((tag) => (
              <li key={tag.slug}>
                <Link
                  to={`/blog/tag/${tag.slug}`}
                  className="tag"
                  aria-current={props.currentTag === tag.slug ? 'page' : undefined}
                >
                  {tag.name}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <p className="sidebar-feed">
        <a href="/blog/rss.xml" type="application/rss+xml">
          RSS feed
        </a>
      </p>
    </aside>
  );
}
