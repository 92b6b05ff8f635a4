import { formatShortDate, type ShopSort } from '@chapterwise/shared';
import { useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ErrorBox } from '../../../components/ui/error-box';
import { Loading } from '../../../components/ui/loading';
import { errorMessage } from '../../../lib/api';
import { useFeaturedProducts, useGenerations, useProducts } from '../api';
import { ProductGrid } from './product-card';

/** The shop's tabs (spec §2): Random, Popular (views), Recent. */
const PRODUCT_TABS: Array<{ sort: ShopSort; label: string }> = [
  { sort: 'random', label: 'Random' },
  { sort: 'views', label: 'Popular' },
  { sort: 'createdAt', label: 'Recent' },
];

const GALLERY_SORTS: Array<{ sort: ShopSort; label: string }> = [
  { sort: 'createdAt', label: 'Newest' },
  { sort: 'views', label: 'Most viewed' },
  { sort: 'download_count', label: 'Best selling' },
  { sort: 'random', label: 'Random' },
];

function sortOf(value: string | null, allowed: ShopSort[], fallback: ShopSort): ShopSort {
  return allowed.includes(value as ShopSort) ? (value as ShopSort) : fallback;
}

/** Featured products, the product tabs and the artworks gallery (search and sorts). */
export function ShopBrowser() {
  const [params, setParams] = useSearchParams();
  const sort = sortOf(params.get('sort'), ['random', 'views', 'createdAt'], 'views');
  const page = Math.max(1, Number(params.get('page')) || 1);
  const featured = useFeaturedProducts();
  const products = useProducts(sort, page);

  const set = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) next.delete(key);
      else next.set(key, value);
    }
    setParams(next, { preventScrollReset: true });
  };

  const pageCount = products.data ? Math.ceil(products.data.count / 24) : 1;
  return (
    <>
      {featured.data && featured.data.data.length > 0 ? (
        <section className="shop-section" aria-labelledby="featured-heading">
          <h2 id="featured-heading">Featured</h2>
          <ProductGrid products={featured.data.data} label="Featured products" />
        </section>
      ) : null}

      <section
        className="shop-section"
        aria-labelledby="products-heading"
        aria-busy={products.isFetching}
      >
        <h2 id="products-heading">Products</h2>
        <div className="tabs" role="tablist" aria-label="Sort products">
          {PRODUCT_TABS.map((tab) => (
            <button
              key={tab.sort}
              type="button"
              role="tab"
              className="tab"
              aria-selected={sort === tab.sort}
              onClick={() => set({ sort: tab.sort, page: null })}
            >
              {tab.label}
            </button>
          ))}
        </div>
        {products.isPending ? (
          <Loading label="Loading products…" />
        ) : products.isError ? (
          <ErrorBox message={errorMessage(products.error)} />
        ) : products.data.data.length === 0 ? (
          <p className="empty-state">No products yet. Make the first one from a prompt above.</p>
        ) : (
          <>
            <ProductGrid products={products.data.data} label="Products" />
            {pageCount > 1 ? (
              <div className="button-row shop-pages">
                <button
                  type="button"
                  className="button button-ghost"
                  disabled={page <= 1}
                  onClick={() => set({ page: String(page - 1) })}
                >
                  Previous
                </button>
                <span className="muted">
                  Page {page} of {pageCount}
                </span>
                <button
                  type="button"
                  className="button button-ghost"
                  disabled={page >= pageCount}
                  onClick={() => set({ page: String(page + 1) })}
                >
                  Next
                </button>
              </div>
            ) : null}
          </>
        )}
      </section>

      <ArtworksGallery />
    </>
  );
}

function ArtworksGallery() {
  const id = useId();
  const [sort, setSort] = useState<ShopSort>('createdAt');
  const [draft, setDraft] = useState('');
  const [searchTerm, setSearchTerm] = useState('');
  const generations = useGenerations(sort, searchTerm, 1);
  return (
    <section
      className="shop-section"
      aria-labelledby={`${id}-heading`}
      aria-busy={generations.isFetching}
    >
      <h2 id={`${id}-heading`}>Artworks</h2>
      <form
        className="gallery-controls"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setSearchTerm(draft.trim());
        }}
      >
        <label htmlFor={`${id}-search`} className="visually-hidden">
          Search artworks
        </label>
        <input
          id={`${id}-search`}
          type="search"
          placeholder="Search prompts"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
        />
        <button type="submit" className="button button-ghost">
          Search
        </button>
        <label htmlFor={`${id}-sort`} className="visually-hidden">
          Sort artworks
        </label>
        <select
          id={`${id}-sort`}
          value={sort}
          onChange={(e) => setSort(e.target.value as ShopSort)}
        >
          {GALLERY_SORTS.map((option) => (
            <option key={option.sort} value={option.sort}>
              {option.label}
            </option>
          ))}
        </select>
      </form>
      {generations.isPending ? (
        <Loading label="Loading artworks…" />
      ) : generations.isError ? (
        <ErrorBox message={errorMessage(generations.error)} />
      ) : generations.data.data.length === 0 ? (
        <p className="empty-state">
          {searchTerm ? `No artwork matches “${searchTerm}”.` : 'No artworks yet.'}
        </p>
      ) : (
        <ul className="grid-cards artwork-grid">
          {generations.data.data.map((generation) => (
            <li key={generation._id} className="card artwork-card">
              <Link to={`/shop/${encodeURIComponent(generation.url)}`}>
                {generation.image ? (
                  <img src={generation.image} alt="" width={300} height={300} loading="lazy" />
                ) : null}
                <span className="artwork-prompt">{generation.prompt}</span>
              </Link>
              <p className="muted artwork-meta">
                @{generation.creatorUsername} · {formatShortDate(generation.createdOnDate)} ·{' '}
                {generation.views} {generation.views === 1 ? 'view' : 'views'}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
