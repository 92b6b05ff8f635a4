import { useState } from 'react';
import { useRouteLoaderData } from 'react-router';
import { Loading } from '../components/ui/loading';
import { BuyCreditsButton, BuyCreditsDialog, PastDueNotice } from '../features/billing';
import { DashboardCards, FolderSidebar } from '../features/materials';
import { requireSession } from '../lib/guard';
import { seo } from '../lib/seo';
import { useSession } from '../lib/session';
import billingCss from '../styles/billing.css?url';
import materialsCss from '../styles/materials.css?url';
import type { Route } from './+types/dashboard';

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: materialsCss },
  { rel: 'stylesheet', href: billingCss },
];

export function meta() {
  return seo({
    title: 'Dashboard',
    description: 'Your assistant, your generator and your folders.',
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

/** /dashboard (spec §2): the two cards, the Folders sidebar and the Buy Credits modal. */
export default function DashboardRoute() {
  const root = useRouteLoaderData('root') as { publicConfig?: { chatUrl: string } } | undefined;
  const chatUrl = root?.publicConfig?.chatUrl ?? '/assistant';
  const { user } = useSession();
  const [buying, setBuying] = useState(false);
  return (
    <div className="container page dashboard">
      <div className="dashboard-head">
        <h1>Dashboard</h1>
        <BuyCreditsButton onOpen={() => setBuying(true)} />
      </div>
      <PastDueNotice subscribed={!!user?.isSubscribed} />
      <BuyCreditsDialog open={buying} onClose={() => setBuying(false)} user={user} />
      <div className="dashboard-layout">
        <DashboardCards chatUrl={chatUrl} />
        <FolderSidebar />
      </div>
    </div>
  );
}
