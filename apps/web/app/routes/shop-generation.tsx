import { formatShortDate } from '@chapterwise/shared';
import { data, Link } from 'react-router';
import { notFoundBoundary } from '../components/layout/not-found';
import { getGeneration, listProductsForGeneration, ProductGrid } from '../features/shop';
import { ApiClientError } from '../lib/api';
import { seo } from '../lib/seo';
import shopCss from '../styles/shop.css?url';
import type { Route } from './+types/shop-generation';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: shopCss }];

/** Server-rendered: the artwork and its products. */
export async function loader({ params, context }: Route.LoaderArgs) {
  try {
    const [generation, products] = await Promise.all([
      getGeneration(params.generationUrl, context.apiFetch),
      listProductsForGeneration(params.generationUrl, context.apiFetch),
    ]);
    return {
      generation: generation.data,
      products: products.data,
      publicUrl: context.publicConfig.publicUrl,
    };
  } catch (error) {
    if (error instanceof ApiClientError && (error.status === 404 || error.status === 400)) {
      throw data('Not Found', { status: 404 });
    }
    throw error;
  }
}

export function meta({ data: loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: 'Artwork not found | Chapterwise' }];
  const { generation, publicUrl } = loaderData;
  return seo({
    title: `${generation.prompt.slice(0, 70)}: prints`,
    description: `“${generation.prompt}” on a framed poster, a mug, a t-shirt and a tote bag. Free Shipping.`,
    path: `/shop/${encodeURIComponent(generation.url)}`,
    publicUrl,
    ...(generation.image ? { image: generation.image } : {}),
  });
}

/** /shop/{generationUrl}: an artwork and the products made from it. */
export default function ShopGenerationRoute({ loaderData }: Route.ComponentProps) {
  const { generation, products } = loaderData;
  return (
    <div className="container page generation-page">
      <nav className="breadcrumbs" aria-label="Breadcrumb">
        <Link to="/shop">Shop</Link> <span aria-hidden="true">›</span>{' '}
        <span aria-current="page">Artwork</span>
      </nav>
      <div className="generation-head">
        {generation.image ? (
          <img
            className="generation-artwork"
            src={generation.image}
            alt={`Artwork: ${generation.prompt}`}
            width={320}
            height={320}
          />
        ) : null}
        <div>
          <p className="eyebrow">
            Artwork by{' '}
            <Link to={`/profile/${generation.creatorUsername}`}>@{generation.creatorUsername}</Link>
          </p>
          <h1>“{generation.prompt}”</h1>
          <p className="muted">
            {formatShortDate(generation.createdOnDate)} · {generation.views}{' '}
            {generation.views === 1 ? 'view' : 'views'}
          </p>
          {generation.testMode ? (
            <p className="alert alert-info test-mode-note">
              Test mode: mockups drawn by Chapterwise; nothing is printed or shipped.
            </p>
          ) : null}
        </div>
      </div>
      <h2>Products</h2>
      {products.length ? (
        <ProductGrid products={products} label="Products of this artwork" />
      ) : (
        <p className="empty-state">This artwork has no products yet.</p>
      )}
    </div>
  );
}

/** A missing artwork is a 404 page saying so (the loader throws it). */
export const ErrorBoundary = notFoundBoundary({
  thing: 'artwork',
  explanation: 'It may have been deleted by its creator, or it is still being made.',
  actions: [{ to: '/shop', label: 'Back to the shop' }],
});
