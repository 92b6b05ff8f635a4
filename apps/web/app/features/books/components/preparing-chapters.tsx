import type { BookTextStage, BookTextState } from '@chapterwise/shared';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useRevalidator } from 'react-router';
import { errorMessage } from '../../../lib/api';
import { fetchBookText, retryBookText } from '../api';

const STAGES: Record<BookTextStage, string> = {
  download: 'Downloading the text',
  cleaning: 'Cleaning it up',
  splitting: 'Finding the chapters',
  saving: 'Saving the chapters',
};

const POLL_MS = 1000;

/**
 * The chapter list's place on a book without chapters yet: asks the server for the text (from
 * the browser only), shows "Preparing the chapters…" with the stage and progress while the
 * server fetches it, then reloads the page's data so the chapters appear (or opens the chapter
 * the reader came for). A failure is said in plain words, with "Try again" and the link to
 * read the book at Project Gutenberg.
 */
export function PreparingChapters({
  bookUrl,
  gutenbergHref,
  wantedChapter,
}: {
  bookUrl: string;
  gutenbergHref: string | undefined;
  /** A chapter url the reader opened before the chapters existed. */
  wantedChapter?: string | null;
}) {
  const [state, setState] = useState<BookTextState | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [retrying, setRetrying] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const revalidator = useRevalidator();
  const navigate = useNavigate();
  const generation = useRef(0);

  useEffect(() => {
    const mine = ++generation.current;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const { data } = await fetchBookText(bookUrl, controller.signal);
        if (generation.current !== mine) return;
        setState(data);
        setProblem(null);
        if (data.status === 'queued' || data.status === 'running') {
          timer = setTimeout(() => void poll(), POLL_MS);
        } else if (data.status === 'ready') {
          if (wantedChapter) {
            void navigate(
              `/book/${encodeURIComponent(bookUrl)}/${encodeURIComponent(wantedChapter)}`,
              { replace: true },
            );
          } else {
            void revalidator.revalidate();
          }
        }
      } catch (error) {
        if (controller.signal.aborted || generation.current !== mine) return;
        setProblem(errorMessage(error));
        timer = setTimeout(() => void poll(), POLL_MS * 3);
      }
    };
    void poll();
    return () => {
      controller.abort();
      if (timer) clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [bookUrl, retrying]);

  // "Try again" waits until the server allows it; tick so the button enables itself.
  useEffect(() => {
    if (state?.status !== 'failed' || !state.retryAfter) return;
    const wait = Date.parse(state.retryAfter) - Date.now();
    if (wait <= 0) return;
    const timer = setTimeout(() => setNow(Date.now()), wait + 50);
    return () => clearTimeout(timer);
  }, [state]);

  const tryAgain = async () => {
    setProblem(null);
    try {
      const { data } = await retryBookText(bookUrl);
      setState(data);
      if (data.status === 'failed') setProblem('Please wait a few seconds before trying again.');
      else setRetrying((r) => !r);
    } catch (error) {
      setProblem(errorMessage(error));
    }
  };

  const readThere = gutenbergHref ? (
    <a href={gutenbergHref} rel="noopener noreferrer" target="_blank">
      Read it at Project Gutenberg (opens in a new tab)
    </a>
  ) : null;

  if (!state || state.status === 'queued' || state.status === 'running') {
    const percent = Math.round((state?.progress ?? 0) * 100);
    const stage = state?.stage ? STAGES[state.stage] : 'Waiting for its turn';
    return (
      <div className="empty-state preparing-chapters" role="status" aria-live="polite">
        <p>
          <strong>Preparing the chapters…</strong>
        </p>
        <progress max={100} value={percent} aria-label="Preparing the chapters">
          {percent}%
        </progress>
        <p className="muted">
          {state ? `${stage} (${percent}%)` : 'Looking for the text of this book'}
        </p>
        {problem ? <p className="muted">{problem}</p> : null}
        {readThere}
      </div>
    );
  }
  if (state.status === 'failed') {
    const waitMs = state.retryAfter ? Date.parse(state.retryAfter) - now : 0;
    return (
      <div className="empty-state" role="alert">
        <p>We could not prepare the chapters of this book. {state.error?.message}</p>
        {state.error ? (
          <p className="muted">
            Last tried{' '}
            <time dateTime={state.error.at}>{new Date(state.error.at).toLocaleString()}</time>.
          </p>
        ) : null}
        <p>
          <button
            type="button"
            className="button"
            onClick={() => void tryAgain()}
            disabled={waitMs > 0}
          >
            Try again
          </button>
        </p>
        {problem ? <p className="muted">{problem}</p> : null}
        {readThere}
      </div>
    );
  }
  if (state.status === 'ready') {
    return (
      <div className="empty-state" role="status">
        <p>The chapters are ready.</p>
      </div>
    );
  }
  return (
    <div className="empty-state">
      <p>The chapters of this book are not in our library yet.</p>
      {readThere}
    </div>
  );
}
