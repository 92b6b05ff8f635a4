import { useRouteLoaderData } from 'react-router';
import { Loading } from '../components/ui/loading';
import { DashboardCards, FolderSidebar } from '../features/materials';
import { requireSession } from '../lib/guard';
import { seo } from '../lib/seo';
import materialsCss from '../styles/materials.css?url';
import type { Route } from './+types/dashboard';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: materialsCss }];

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

/** /dashboard (spec §2): the two cards and the Folders sidebar. */
export default function DashboardRoute() {
  const root = useRouteLoaderData('root') as { publicConfig?: { chatUrl: string } } | undefined;
  const chatUrl = root?.publicConfig?.chatUrl ?? 'https://chat.chapterwise.app';
  return (
    <div className="container page dashboard">
      <h1>Dashboard</h1>
      <div className="dashboard-layout">
        <DashboardCards chatUrl={chatUrl} />
        <FolderSidebar />
      </div>
    </div>
  );
}
