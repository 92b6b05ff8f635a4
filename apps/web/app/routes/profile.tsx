import { data, Link } from 'react-router';
import { notFoundBoundary } from '../components/layout/not-found';
import { ProfileCard } from '../features/users/components/profile-card';
import { getPublicProfile } from '../features/users/api';
import { ApiClientError } from '../lib/api';
import { seo } from '../lib/seo';
import { useSession } from '../lib/session';
import { listPosts, ProfilePosts } from '../features/images';
import accountsCss from '../styles/accounts.css?url';
import imagesCss from '../styles/images.css?url';
import type { Route } from './+types/profile';

export const links = () => [
  { rel: 'stylesheet', href: accountsCss },
  { rel: 'stylesheet', href: imagesCss },
];

/** Server-rendered: the profile is in the first HTML (search engines, link previews). */
export async function loader({ params, context }: Route.LoaderArgs) {
  try {
    const answer = await getPublicProfile(params.username, context.apiFetch);
    const posts = await listPosts(answer.data.user.username, context.apiFetch);
    return {
      user: answer.data.user,
      posts: posts.data.posts,
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
  if (!loaderData) return [{ title: 'Teacher not found | Chapterwise' }];
  const { user, publicUrl } = loaderData;
  const name = `${user.firstName} ${user.lastName}`.trim() || user.username;
  return seo({
    title: `${name} (@${user.username})`,
    description: user.bio || `${name} makes teaching materials on Chapterwise.`,
    path: `/profile/${user.username}`,
    publicUrl,
    type: 'profile',
    ...(user.avatar ? { image: user.avatar } : {}),
  });
}

export default function ProfileRoute({ loaderData }: Route.ComponentProps) {
  const { user } = loaderData;
  const session = useSession();
  const isOwn = session.user?.username.toLowerCase() === user.username.toLowerCase();
  return (
    <div className="container page profile-page">
      <ProfileCard
        user={user}
        actions={
          isOwn ? (
            <Link to="/account" className="button button-ghost">
              Edit profile
            </Link>
          ) : null
        }
      />
      <ProfilePosts username={user.username} canDelete={isOwn} initial={loaderData.posts} />
    </div>
  );
}

/** A missing teacher is a 404 page saying so (the loader throws it). */
export const ErrorBoundary = notFoundBoundary({
  thing: 'teacher',
  explanation:
    'No profile has this username. It may have been mistyped, or the account may be gone.',
  actions: [
    { to: '/books', label: 'Browse books' },
    { to: '/', label: 'Go home' },
  ],
});
