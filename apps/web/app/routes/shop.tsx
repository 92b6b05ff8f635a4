import { useState } from 'react';
import { Link } from 'react-router';
import { BuyCreditsDialog } from '../features/billing';
import { GenerationForm, ShopBrowser } from '../features/shop';
import { seo } from '../lib/seo';
import { useSession } from '../lib/session';
import billingCss from '../styles/billing.css?url';
import shopCss from '../styles/shop.css?url';
import type { Route } from './+types/shop';

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: shopCss },
  { rel: 'stylesheet', href: billingCss },
];

export function meta({ matches }: Route.MetaArgs) {
  const root = matches.find((m) => m?.id === 'root')?.data as
    { publicConfig?: { publicUrl: string } } | undefined;
  return seo({
    title: 'Shop: classroom art on posters, mugs, t-shirts and totes',
    description:
      'Artworks teachers made from a prompt, printed on framed posters, mugs, t-shirts and tote bags. Free Shipping.',
    path: '/shop',
    ...(root?.publicConfig ? { publicUrl: root.publicConfig.publicUrl } : {}),
  });
}

/** /shop: make products from a prompt (logged in), featured products, the shop and the gallery. */
export default function ShopRoute() {
  const session = useSession();
  const [buying, setBuying] = useState(false);
  return (
    <div className="container page shop-page">
      <header className="page-header">
        <p className="eyebrow">Shop</p>
        <h1>Classroom art, printed</h1>
        <p className="lead">
          Artworks made by teachers from a prompt, on framed posters, mugs, t-shirts and tote bags.
          Free Shipping on every order.
        </p>
      </header>
      {session.user ? (
        <GenerationForm onNoCredits={() => setBuying(true)} />
      ) : session.status === 'guest' ? (
        <p className="card generation-form">
          <Link to="/login?redirectTo=%2Fshop">Log in</Link> to turn your own prompt into products.
        </p>
      ) : null}
      <ShopBrowser />
      <BuyCreditsDialog open={buying} onClose={() => setBuying(false)} user={session.user} />
    </div>
  );
}
