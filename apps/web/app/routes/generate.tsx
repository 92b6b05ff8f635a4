import { Loading } from '../components/ui/loading';
import { BuyCreditsDialog } from '../features/billing';
import { Studio } from '../features/images';
import { SectionTabs } from '../features/users/components/section-tabs';
import { requireSession } from '../lib/guard';
import { seo } from '../lib/seo';
import billingCss from '../styles/billing.css?url';
import imagesCss from '../styles/images.css?url';
import type { Route } from './+types/generate';

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: billingCss },
  { rel: 'stylesheet', href: imagesCss },
];

export function meta() {
  return seo({
    title: 'Image Studio',
    description: 'Generate pictures for lessons, train a model of your own, upscale and share.',
    noindex: true,
  });
}

export function clientLoader(args: Route.ClientLoaderArgs) {
  requireSession(args);
  return null;
}

export function HydrateFallback() {
  return (
    <div className="container page">
      <Loading />
    </div>
  );
}

/** /generate: the image studio (logged-in only). */
export default function GenerateRoute() {
  return <Studio Tabs={SectionTabs} BuyDialog={BuyCreditsDialog} />;
}
