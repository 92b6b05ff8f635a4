import { formatCents, productPath, type Product } from '@chapterwise/shared';
import { Link } from 'react-router';

/** A shop card (spec §2): the card image, title, price in dollars, 'Free Shipping', 'Buy now'. */
export function ProductCard({ product }: { product: Product }) {
  const href = productPath(product.generationUrl, product.url);
  return (
    <li className="card product-card">
      <Link to={href} className="product-card-image" tabIndex={-1} aria-hidden="true">
        {product.cardImage ? (
          <img src={product.cardImage} alt="" width={600} height={600} loading="lazy" />
        ) : null}
      </Link>
      <h3 className="product-card-title">
        <Link to={href}>{product.title}</Link>
      </h3>
      <p className="product-card-prompt muted">{product.prompt}</p>
      <p className="product-card-price">
        <strong>{formatCents(product.price)}</strong>
        <span className="free-shipping">Free Shipping</span>
      </p>
      <Link className="button button-primary button-sm" to={href}>
        Buy now
      </Link>
    </li>
  );
}

/** A grid of product cards. */
export function ProductGrid({ products, label }: { products: Product[]; label: string }) {
  return (
    <ul className="grid-cards product-grid" aria-label={label}>
      {products.map((product) => (
        <ProductCard key={product._id} product={product} />
      ))}
    </ul>
  );
}
