import { productPath } from '@chapterwise/shared';
import { data, Link } from 'react-router';
import { notFoundBoundary } from '../components/layout/not-found';
import { JsonLd } from '../features/books/components/json-ld';
import { getProductPage, ProductView } from '../features/shop';
import { ApiClientError } from '../lib/api';
import { seo } from '../lib/seo';
import shopCss from '../styles/shop.css?url';
import type { Route } from './+types/shop-product';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: shopCss }];

/** Server-rendered: the product is in the first HTML, with its Open Graph image and JSON-LD. */
export async function loader({ params, context }: Route.LoaderArgs) {
  try {
    const answer = await getProductPage(params.generationUrl, params.title, context.apiFetch);
    return { product: answer.data, publicUrl: context.publicConfig.publicUrl };
  } catch (error) {
    if (error instanceof ApiClientError && (error.status === 404 || error.status === 400)) {
      throw data('Not Found', { status: 404 });
    }
    throw error;
  }
}

export function meta({ data: loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: 'Product not found | Chapterwise' }];
  const { product, publicUrl } = loaderData;
  return seo({
    title: `${product.title}: ${product.prompt.slice(0, 60)}`,
    description: `${product.description} Free Shipping.`,
    path: productPath(product.generationUrl, product.url),
    publicUrl,
    type: 'website',
    ...(product.cardImage ? { image: product.cardImage } : {}),
  });
}

const absolute = (publicUrl: string, src: string) =>
  src.startsWith('http') ? src : `${publicUrl}${src}`;

/** /shop/{generationUrl}/{title}: a product (spec §2: params generationurl and title). */
export default function ShopProductRoute({ loaderData }: Route.ComponentProps) {
  const { product, publicUrl } = loaderData;
  const url = `${publicUrl}${productPath(product.generationUrl, product.url)}`;
  return (
    <div className="container page product-page">
      <nav className="breadcrumbs" aria-label="Breadcrumb">
        <Link to="/shop">Shop</Link> <span aria-hidden="true">›</span>{' '}
        <Link to={`/shop/${encodeURIComponent(product.generationUrl)}`}>Artwork</Link>{' '}
        <span aria-hidden="true">›</span> <span aria-current="page">{product.title}</span>
      </nav>
      <ProductView key={product._id} product={product} />
      <JsonLd
        data={{
          '@context': 'https://schema.org',
          '@type': 'Product',
          name: `${product.title}: ${product.prompt}`,
          description: product.description,
          image: product.images.slice(0, 5).map((image) => absolute(publicUrl, image.src)),
          url,
          offers: {
            '@type': product.variants.length > 1 ? 'AggregateOffer' : 'Offer',
            priceCurrency: 'USD',
            ...(product.variants.length > 1
              ? {
                  lowPrice: (Math.min(...product.variants.map((v) => v.price)) / 100).toFixed(2),
                  highPrice: (Math.max(...product.variants.map((v) => v.price)) / 100).toFixed(2),
                  offerCount: product.variants.length,
                }
              : { price: (product.price / 100).toFixed(2) }),
            availability: 'https://schema.org/InStock',
            url,
            shippingDetails: {
              '@type': 'OfferShippingDetails',
              shippingRate: { '@type': 'MonetaryAmount', value: '0', currency: 'USD' },
            },
          },
        }}
      />
    </div>
  );
}

/** A missing product is a 404 page saying so (the loader throws it). */
export const ErrorBoundary = notFoundBoundary({
  thing: 'product',
  explanation: 'It may have been deleted by its creator.',
  actions: [{ to: '/shop', label: 'Back to the shop' }],
});
