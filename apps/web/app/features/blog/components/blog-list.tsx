import type { BlogPost } from '@chapterwise/shared';
import { Link, useNavigation } from 'react-router';
import { Pagination } from '../../../components/ui/pagination';
import { BlogSearch, BlogSidebar, type BlogSidebarProps } from './blog-sidebar';
import { PostCard } from './post-card';

export interface BlogListProps {
  heading: string;
  eyebrow?: string | undefined;
  intro?: string | undefined;
  /** The page's own path: /blog, /blog/category/{slug} or /blog/tag/{slug}. */
  basePath: string;
  posts: BlogPost[];
  count: number;
  page: number;
  pageCount: number;
  sidebar: BlogSidebarProps;
}

/** A list link keeping the search term. */
export function blogListHref(basePath: string, params: { searchTerm?: string; page?: number }) {
  const search = new URLSearchParams();
  if (params.searchTerm) search.set('searchTerm', params.searchTerm);
  if (params.page && params.page > 1) search.set('page', String(params.page));
  const qs = search.toString();
  return qs ? `${basePath}?${qs}` : basePath;
}

/**
 * The blog list (spec §2 Blog): the posts of a page with paging, beside the sidebar. The
 * newest post of the first unfiltered page is shown wide. While the next page loads, the
 * list is marked busy and dimmed.
 */
export function BlogList(props: BlogListProps) {
  const navigation = useNavigation();
  const busy = navigation.state === 'loading' && navigation.location?.pathname.startsWith('/blog');
  const { searchTerm } = props.sidebar;
  const front = props.basePath === '/blog' && !searchTerm && props.page === 1;
  return (
    <div className="container page blog-page">
      <header className="blog-head">
        {props.eyebrow ? <p className="eyebrow">{props.eyebrow}</p> : null}
        <h1>{props.heading}</h1>
        {props.intro ? <p className="lead">{props.intro}</p> : null}
        <BlogSearch searchTerm={searchTerm} className="blog-search-top" />
      </header>
      <div className="blog-layout">
        <section className="blog-main" aria-label="Posts" aria-busy={busy}>
          {searchTerm || props.basePath !== '/blog' ? (
            <p className="results-count" role="status">
              {props.count === 0
                ? 'No posts found'
                : `${props.count} ${props.count === 1 ? 'post' : 'posts'}`}
            </p>
          ) : null}
          {props.posts.length > 0 ? (
            <ul className={`post-grid${front ? ' is-front' : ''}`}>
              {props.posts.map((post, index) => (
                <li key={post._id}>
                  <PostCard post={post} wide={front && index === 0} />
                </li>
              ))}
            </ul>
          ) : (
            <div className="empty-state">
              <p>
                <strong>No posts found.</strong>{' '}
                {searchTerm
                  ? `Nothing matches “${searchTerm}”. Try fewer or shorter words.`
                  : 'There is nothing here yet.'}
              </p>
              <Link to="/blog">See all posts</Link>
            </div>
          )}
          <Pagination
            page={props.page}
            pageCount={props.pageCount}
            label="Pages of posts"
            hrefFor={(page) => blogListHref(props.basePath, { searchTerm, page })}
          />
        </section>
        <BlogSidebar {...props.sidebar} />
      </div>
    </div>
  );
}
