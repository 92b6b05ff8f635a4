import { BLOG_CATEGORIES, PRODUCT_NAME, SUBJECTS } from '@chapterwise/shared';
import { Link } from 'react-router';
import { Logo } from './logo';
import { NewsletterForm } from './newsletter-form';

const POLICIES = [
  { label: 'Privacy Policy', href: '/legal/privacy' },
  { label: 'Terms of Service', href: '/legal/terms' },
  { label: 'Cookie Policy', href: '/legal/cookies' },
  { label: 'Acceptable Use Policy', href: '/legal/acceptable-use' },
  { label: 'Return Policy', href: '/legal/returns' },
];

const POPULAR_SUBJECTS = [
  'british-literature',
  'american-literature',
  'poetry',
  'drama',
  'science-fiction',
];

/** The site footer (spec §2): link lists, contact, newsletter, copyright and policies. */
export function Footer() {
  const subjects = SUBJECTS.filter((s) => POPULAR_SUBJECTS.includes(s.slug));
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <div className="footer-brand">
          <Logo />
          <p className="footer-text">
            Craft, customize and curate resources for your students in minutes, from classic books
            or your own texts.
          </p>
          <address className="footer-contact">
            <span className="footer-heading">Contact</span>
            <a href="mailto:hello@chapterwise.app">hello@chapterwise.app</a>
          </address>
        </div>
        <nav aria-label="Book materials" className="footer-links">
          <span className="footer-heading">Book Materials</span>
          <ul>
            <li>
              <Link to="/books">Book Teaching Materials</Link>
            </li>
            {subjects.map((s) => (
              <li key={s.slug}>
                <Link to={`/books/${s.slug}`}>{s.name}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-label="Product" className="footer-links">
          <span className="footer-heading">Product</span>
          <ul>
            <li>
              <Link to="/material-generator">Material Generator</Link>
            </li>
            <li>
              <Link to="/generate">Image Studio</Link>
            </li>
            <li>
              <Link to="/shop">Shop</Link>
            </li>
            <li>
              <Link to="/dashboard">Dashboard</Link>
            </li>
            <li>
              <Link to="/subscription">Pricing</Link>
            </li>
            <li>
              <Link to="/register">Create Account</Link>
            </li>
          </ul>
        </nav>
        <nav aria-label="Blog" className="footer-links">
          <span className="footer-heading">Blog</span>
          <ul>
            <li>
              <Link to="/blog">All posts</Link>
            </li>
            {BLOG_CATEGORIES.slice(0, 4).map((c) => (
              <li key={c.slug}>
                <Link to={`/blog/category/${c.slug}`}>{c.name}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <NewsletterForm />
      </div>
      <div className="container footer-bottom">
        <p>© 2023 {PRODUCT_NAME}. All rights reserved.</p>
        <ul className="policy-links">
          {POLICIES.map((p) => (
            <li key={p.href}>
              <Link to={p.href}>{p.label}</Link>
            </li>
          ))}
        </ul>
      </div>
    </footer>
  );
}
