import { HOME_BOOK_COUNT } from '@chapterwise/shared';
import { Link } from 'react-router';
import { fetchBooks, toBookCard } from '../features/books/api';
import { BookGrid } from '../features/books/components/book-card';
import { seo } from '../lib/seo';
import booksCss from '../styles/books.css?url';
import type { Route } from './+types/home';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: booksCss }];

/** The first 8 books by download_count (spec §2, §9); the home page works without them. */
export async function loader({ context }: Route.LoaderArgs) {
  try {
    const list = await fetchBooks(
      { sort: 'download_count', limit: HOME_BOOK_COUNT },
      context.apiFetch,
    );
    return { books: list.data.slice(0, HOME_BOOK_COUNT).map(toBookCard) };
  } catch {
    return { books: [] };
  }
}

export function meta({ matches }: Route.MetaArgs) {
  const root = matches.find((m) => m?.id === 'root')?.data as
    { publicConfig?: { publicUrl: string } } | undefined;
  return seo({
    title: 'Chapterwise: quizzes, tests and lessons from classic books',
    description:
      'Free public-domain books with a page per chapter, and a generator that turns any chapter or text into quizzes, tests, lessons and worksheets with answer keys checked against the text.',
    path: '/',
    ...(root?.publicConfig ? { publicUrl: root.publicConfig.publicUrl } : {}),
  });
}

const STEPS = [
  {
    title: 'Pick a chapter or paste a text',
    body: 'Start from any chapter of tens of thousands of public-domain books, or bring your own reading, slides or worksheet.',
  },
  {
    title: 'Describe what you need',
    body: 'Choose a quiz, test, lesson or worksheet and a grade. Add a note such as "10 questions, true/false only".',
  },
  {
    title: 'Check, edit and export',
    body: 'Every answer points to the sentence it comes from. Keep materials in folders and export to Word or print.',
  },
];

const PROMISES = [
  {
    title: 'Answer keys you can trust',
    body: 'Each answer is checked against the source text and shown with its evidence quote. Unsupported questions are dropped.',
  },
  {
    title: 'Reading levels measured',
    body: 'Every book and chapter shows its length, reading time and grade level, so you can match texts to your class.',
  },
  {
    title: 'Works without an AI account',
    body: 'The built-in generator runs on our own server with no API key. Connect a language model when you want more.',
  },
];

export default function Home({ loaderData }: Route.ComponentProps) {
  const { books } = loaderData;
  return (
    <>
      <section className="hero">
        <div className="container hero-inner">
          <p className="eyebrow">For teachers, from the classics</p>
          <h1>Turn any chapter into a quiz, lesson or worksheet in minutes</h1>
          <p className="hero-lead">
            Browse public-domain books chapter by chapter and generate teaching materials with
            answer keys checked against the text. Your first 5 generations are free, with no credit
            card.
          </p>
          <div className="button-row">
            <Link className="button button-primary button-lg" to="/register">
              Create a free account
            </Link>
            <Link className="button button-ghost button-lg" to="/books">
              Browse books
            </Link>
          </div>
        </div>
      </section>

      {books.length > 0 ? (
        <section className="section" aria-labelledby="popular-title">
          <div className="container">
            <div className="section-head">
              <h2 id="popular-title">Popular books</h2>
              <Link to="/books">Browse all books →</Link>
            </div>
            <BookGrid books={books} />
          </div>
        </section>
      ) : null}

      <section className="section section-alt" aria-labelledby="how-title">
        <div className="container">
          <h2 id="how-title" className="section-title">
            How it works
          </h2>
          <ol className="steps">
            {STEPS.map((step, i) => (
              <li key={step.title} className="card step">
                <span className="step-number" aria-hidden="true">
                  {i + 1}
                </span>
                <h3>{step.title}</h3>
                <p>{step.body}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="section" aria-labelledby="why-title">
        <div className="container">
          <h2 id="why-title" className="section-title">
            Why teachers choose it
          </h2>
          <ul className="feature-grid">
            {PROMISES.map((p) => (
              <li key={p.title} className="card">
                <h3>{p.title}</h3>
                <p>{p.body}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section cta" aria-labelledby="cta-title">
        <div className="container cta-inner">
          <h2 id="cta-title">Ready for tomorrow's lesson?</h2>
          <p>Five free generations, then $9.99 a month for unlimited materials. Cancel any time.</p>
          <Link className="button button-primary button-lg" to="/register">
            Get started free
          </Link>
        </div>
      </section>
    </>
  );
}
