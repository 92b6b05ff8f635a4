import { BLOG_CATEGORIES, SUBJECTS } from '@chapterwise/shared';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { openAssistant } from '../../lib/chat';
import { useSession } from '../../lib/session';
import { Logo } from './logo';
import { ThemeToggle } from './theme-toggle';

interface HeaderProps {
  chatUrl: string;
}

/** Closes a disclosure on Escape or a click outside it. */
function useDismiss(open: boolean, close: () => void) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (ref.current && !ref.current.contains(event.target as Node)) close();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, close]);
  return ref;
}

function MegaMenu(props: {
  label: string;
  allLabel: string;
  allHref: string;
  items: ReadonlyArray<{ name: string; href: string }>;
  open: boolean;
  onToggle: () => void;
  onClose: () => void;
}) {
  const id = useId();
  const ref = useDismiss(props.open, props.onClose);
  return (
    <div className={`nav-item has-mega${props.open ? ' is-open' : ''}`} ref={ref}>
      <button
        type="button"
        className="nav-link nav-trigger chevron"
        aria-expanded={props.open}
        aria-controls={id}
        onClick={props.onToggle}
      >
        {props.label}
      </button>
      {/* The links are made when the menu opens: a page does not carry them hidden (issue 18). */}
      <div className="mega-menu" id={id} hidden={!props.open}>
        {props.open ? (
          <>
            <ul className="mega-grid">
              {props.items.map((item) => (
                <li key={item.href}>
                  <Link to={item.href} onClick={props.onClose}>
                    {item.name}
                  </Link>
                </li>
              ))}
            </ul>
            <Link className="mega-all" to={props.allHref} onClick={props.onClose}>
              {props.allLabel} →
            </Link>
          </>
        ) : null}
      </div>
    </div>
  );
}

function UserMenu({ chatUrl, onNavigate }: { chatUrl: string; onNavigate: () => void }) {
  const { user, signOut } = useSession();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  const ref = useDismiss(open, close);
  const id = useId();
  const firstName = user?.firstName || user?.username || '';

  return (
    <div className={`nav-item user-menu${open ? ' is-open' : ''}`} ref={ref}>
      <button
        type="button"
        className="user-trigger"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        {user?.avatar ? (
          <img className="avatar avatar-sm" src={user.avatar} alt="" width="32" height="32" />
        ) : (
          <span className="avatar avatar-sm avatar-initial" aria-hidden="true">
            {(firstName[0] ?? '?').toUpperCase()}
          </span>
        )}
        <span className="user-greeting">Welcome {firstName}!</span>
      </button>
      <div className="dropdown" id={id} hidden={!open}>
        <Link to="/dashboard" onClick={() => (close(), onNavigate())}>
          Dashboard
        </Link>
        <button
          type="button"
          onClick={() => {
            close();
            openAssistant(chatUrl, true);
          }}
        >
          AI Assistant
        </button>
        <Link to="/material-generator" onClick={() => (close(), onNavigate())}>
          Worksheet/Material Generator
        </Link>
        <Link to="/account" onClick={() => (close(), onNavigate())}>
          Account
        </Link>
        {user?.isAdmin ? (
          <Link to="/admin/blog" onClick={() => (close(), onNavigate())}>
            Blog posts (admin)
          </Link>
        ) : null}
        <button
          type="button"
          onClick={() => {
            close();
            onNavigate();
            // Leave the page first, so that a logged-in-only page does not react to the
            // ending session; then end it on the server and forget it here.
            void Promise.resolve(navigate('/')).then(() => signOut());
          }}
        >
          Logout
        </button>
      </div>
    </div>
  );
}

/**
 * The site header (spec §2): logo, guest navigation with the two mega menus, Login and
 * Create Account, or the signed-in dropdown. Collapses into a menu at 992 px or less and
 * stays fixed at the top once the page scrolls.
 */
export function Header({ chatUrl }: HeaderProps) {
  const { status } = useSession();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [openMega, setOpenMega] = useState<'books' | 'blog' | null>(null);
  const [scrolled, setScrolled] = useState(false);

  useEffect(() => {
    setMenuOpen(false);
    setOpenMega(null);
  }, [location.pathname]);

  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > 8);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  const signedIn = status === 'authenticated';
  const subjectItems = SUBJECTS.map((s) => ({ name: s.name, href: `/books/${s.slug}` }));
  const categoryItems = BLOG_CATEGORIES.map((c) => ({
    name: c.name,
    href: `/blog/category/${c.slug}`,
  }));

  return (
    <header className={`site-header${scrolled ? ' is-fixed' : ''}`}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <div className="container header-inner">
        <Logo defineMark />
        <button
          type="button"
          className="icon-button menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="site-nav"
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          onClick={() => setMenuOpen(!menuOpen)}
        >
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
            {menuOpen ? (
              <path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth="2" />
            ) : (
              <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2" />
            )}
          </svg>
        </button>
        <nav id="site-nav" className={`site-nav${menuOpen ? ' is-open' : ''}`} aria-label="Main">
          <div className="nav-item">
            <NavLink to="/" end className="nav-link">
              Home
            </NavLink>
          </div>
          <div className="nav-item">
            <a
              className="nav-link"
              href={chatUrl}
              target="_blank"
              rel="noopener noreferrer"
              onClick={(event) => {
                event.preventDefault();
                openAssistant(chatUrl, signedIn);
              }}
            >
              AI Assistant
            </a>
          </div>
          <MegaMenu
            label="Book Materials"
            allLabel="All books"
            allHref="/books"
            items={subjectItems}
            open={openMega === 'books'}
            onToggle={() => setOpenMega(openMega === 'books' ? null : 'books')}
            onClose={() => setOpenMega(null)}
          />
          <MegaMenu
            label="Blog"
            allLabel="All posts"
            allHref="/blog"
            items={categoryItems}
            open={openMega === 'blog'}
            onToggle={() => setOpenMega(openMega === 'blog' ? null : 'blog')}
            onClose={() => setOpenMega(null)}
          />
          <div className="nav-actions">
            <ThemeToggle />
            {signedIn ? (
              <UserMenu chatUrl={chatUrl} onNavigate={() => setMenuOpen(false)} />
            ) : (
              <>
                <Link to="/login" className="button button-ghost">
                  Login
                </Link>
                <Link to="/register" className="button button-primary">
                  Create Account
                </Link>
              </>
            )}
          </div>
        </nav>
      </div>
    </header>
  );
}
