import { formatShortDate, type PublicUser } from '@chapterwise/shared';
import { Avatar } from './avatar';

const LINKS = [
  { key: 'websiteUrl', label: 'Website' },
  { key: 'instagramUrl', label: 'Instagram' },
  { key: 'twitterUrl', label: 'Twitter' },
  { key: 'facebookUrl', label: 'Facebook' },
] as const;

/** The public face of a teacher: name, avatar, bio, join date and links. Never the email. */
export function ProfileCard({ user, actions }: { user: PublicUser; actions?: React.ReactNode }) {
  const name = `${user.firstName} ${user.lastName}`.trim() || user.username;
  const links = LINKS.filter((link) => user[link.key]);
  return (
    <section className="profile-card card" aria-labelledby="profile-name">
      <Avatar src={user.avatar} name={name} size="xl" />
      <div className="profile-main">
        <h1 id="profile-name">{name}</h1>
        <p className="profile-username">@{user.username}</p>
        <p className="profile-joined">
          Joined <time dateTime={user.createdAt}>{formatShortDate(user.createdAt)}</time>
        </p>
        {user.bio ? (
          <p className="profile-bio">{user.bio}</p>
        ) : (
          <p className="profile-bio muted">This teacher has not written a bio yet.</p>
        )}
        {links.length ? (
          <ul className="social-links" aria-label="Links">
            {links.map((link) => (
              <li key={link.key}>
                <a href={user[link.key]} target="_blank" rel="noopener noreferrer nofollow ugc">
                  {link.label}
                  <span className="visually-hidden"> (opens in a new tab)</span>
                </a>
              </li>
            ))}
          </ul>
        ) : null}
        {actions ? <div className="button-row profile-actions">{actions}</div> : null}
      </div>
    </section>
  );
}
