import { formatCents, MAX_ORDER_QUANTITY, type ProductWithGeneration } from '@chapterwise/shared';
import { useId, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { ErrorBox } from '../../../components/ui/error-box';
import { errorMessage } from '../../../lib/api';
import { useSession } from '../../../lib/session';
import { createProductCheckout } from '../api';

/**
 * A product page's body: the mockup gallery, the variant (size) picker, quantity, the price in
 * dollars, 'Free Shipping' and 'Buy now' (the hosted checkout asks for the address).
 */
export function ProductView({ product }: { product: ProductWithGeneration }) {
  const id = useId();
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [imageIndex, setImageIndex] = useState(
    Math.max(
      0,
      product.images.findIndex((image) => image.src === product.cardImage),
    ),
  );
  const [variantId, setVariantId] = useState(product.variants[0]?.id ?? 0);
  const [quantity, setQuantity] = useState(1);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const variant = product.variants.find((v) => v.id === variantId) ?? product.variants[0];
  const image = product.images[imageIndex] ?? product.images[0];

  const buy = async () => {
    if (!session.user) {
      void navigate(`/login?redirectTo=${encodeURIComponent(location.pathname)}`);
      return;
    }
    if (!variant) return;
    setBusy(true);
    setError('');
    try {
      const { url } = await createProductCheckout({
        productId: product._id,
        variantId: variant.id,
        quantity,
      });
      window.location.assign(url);
    } catch (caught) {
      setError(errorMessage(caught));
      setBusy(false);
    }
  };

  return (
    <div className="product-view">
      <section className="product-gallery" aria-label="Pictures">
        {image ? (
          <img
            className="product-main-image"
            src={image.src}
            alt={`${product.title}: ${product.prompt}`}
            width={600}
            height={600}
          />
        ) : null}
        <ul className="product-thumbs">
          {product.images.map((thumb, index) => (
            <li key={thumb.src}>
              <button
                type="button"
                className="product-thumb"
                aria-label={`Picture ${index + 1} of ${product.images.length}`}
                aria-pressed={index === imageIndex}
                onClick={() => setImageIndex(index)}
              >
                <img src={thumb.src} alt="" width={72} height={72} loading="lazy" />
              </button>
            </li>
          ))}
        </ul>
      </section>
      <section className="product-buy">
        <p className="eyebrow">
          Artwork by{' '}
          <Link to={`/profile/${product.creatorUsername}`}>@{product.creatorUsername}</Link>
        </p>
        <h1>{product.title}</h1>
        <p className="product-prompt">“{product.prompt}”</p>
        {product.testMode ? (
          <p className="alert alert-info test-mode-note">
            Test mode: these mockups are drawn by Chapterwise and nothing is printed or shipped.
          </p>
        ) : null}
        <p className="product-price">
          <strong>{variant ? formatCents(variant.price * quantity) : ''}</strong>
          <span className="free-shipping">Free Shipping</span>
        </p>
        <p>{product.description}</p>
        {product.variants.length > 1 ? (
          <fieldset className="variant-picker">
            <legend>{product.kind === 'tshirt' ? 'Size' : 'Option'}</legend>
            {product.variants.map((v) => (
              <label
                key={v.id}
                className={`variant-option${v.id === variantId ? ' is-selected' : ''}`}
              >
                <input
                  type="radio"
                  name={`${id}-variant`}
                  value={v.id}
                  checked={v.id === variantId}
                  onChange={() => setVariantId(v.id)}
                />
                <span>{v.title}</span>
                <span className="muted">{formatCents(v.price)}</span>
              </label>
            ))}
          </fieldset>
        ) : variant ? (
          <p className="muted">Size: {variant.title}</p>
        ) : null}
        <label htmlFor={`${id}-quantity`}>Quantity</label>
        <select
          id={`${id}-quantity`}
          className="quantity-select"
          value={quantity}
          onChange={(e) => setQuantity(Number(e.target.value))}
        >
          {Array.from({ length: MAX_ORDER_QUANTITY }, (_, i) => i + 1).map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
        <ErrorBox message={error} />
        <button
          type="button"
          className="button button-primary button-lg buy-now"
          disabled={busy || !variant}
          onClick={() => void buy()}
        >
          {busy ? <span className="spinner" aria-hidden="true" /> : null}
          Buy now
        </button>
        <p className="muted">
          More from this artwork:{' '}
          <Link to={`/shop/${encodeURIComponent(product.generationUrl)}`}>all its products</Link>
        </p>
      </section>
    </div>
  );
}
