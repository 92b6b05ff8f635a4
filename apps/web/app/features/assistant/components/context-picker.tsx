import { useEffect, useId, useState } from 'react';
import {
  ASSISTANT_LIMITS,
  formatAuthorName,
  type AssistantContext,
  type AssistantContextInput,
  type Book,
  type ChapterSummary,
} from '@chapterwise/shared';
import { apiRequest, errorMessage } from '../../../lib/api';

type Mode = 'any' | 'book' | 'chapter' | 'text';

/** "Letter 1 · Frankenstein", "your text “Handout”", "any text". */
export function describeContext(context: AssistantContext): string {
  switch (context.kind) {
    case 'any':
      return 'any text';
    case 'book':
      return context.bookTitle;
    case 'chapter':
      return `${context.chapterTitle} · ${context.bookTitle}`;
    case 'text':
      return `your text${context.label ? ` “${context.label}”` : ''} (${context.words.toLocaleString('en-US')} words)`;
  }
}

/**
 * "About: any text / a book / a chapter / pasted text". Books come from the catalogue search
 * (only books whose text we hold); a chapter is then chosen from the book's list.
 */
export function ContextPicker({
  context,
  onChange,
  onClose,
}: {
  context: AssistantContext;
  onChange: (context: AssistantContextInput) => Promise<void>;
  onClose: () => void;
}) {
  const id = useId();
  const [mode, setMode] = useState<Mode>(context.kind);
  const [query, setQuery] = useState('');
  const [books, setBooks] = useState<Book[] | null>(null);
  const [book, setBook] = useState<{ url: string; title: string } | null>(
    context.kind === 'book' || context.kind === 'chapter'
      ? { url: context.bookUrl, title: context.bookTitle }
      : null,
  );
  const [chapters, setChapters] = useState<ChapterSummary[] | null>(null);
  const [chapterUrl, setChapterUrl] = useState(
    context.kind === 'chapter' ? context.chapterUrl : '',
  );
  const [text, setText] = useState(context.kind === 'text' ? (context.text ?? '') : '');
  const [label, setLabel] = useState(context.kind === 'text' ? context.label : '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (mode !== 'chapter' || !book) return;
    let current = true;
    apiRequest<{ data: { chapters: ChapterSummary[] } }>('/getgutenbergbook', {
      query: { url: book.url },
      auth: false,
    })
      .then((answer) => {
        if (!current) return;
        setChapters(answer.data.chapters);
        setChapterUrl((url) => url || answer.data.chapters[0]?.url || '');
      })
      .catch((e: unknown) => current && setError(errorMessage(e)));
    return () => {
      current = false;
    };
  }, [mode, book]);

  const search = async () => {
    setError(null);
    try {
      const answer = await apiRequest<{ data: Book[] }>('/getgutenbergbooks', {
        query: { searchTerm: query.trim(), limit: 24, sort: 'download_count' },
        auth: false,
      });
      setBooks(answer.data.filter((b) => b.chapterCount > 0).slice(0, 8));
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  const save = async () => {
    setError(null);
    let next: AssistantContextInput;
    if (mode === 'any') next = { kind: 'any' };
    else if (mode === 'book' && book) next = { kind: 'book', bookUrl: book.url };
    else if (mode === 'chapter' && book && chapterUrl)
      next = { kind: 'chapter', bookUrl: book.url, chapterUrl };
    else if (mode === 'text' && text.trim()) next = { kind: 'text', text, label };
    else {
      setError(
        mode === 'text'
          ? 'Paste the text first.'
          : mode === 'chapter'
            ? 'Choose a book and a chapter first.'
            : 'Choose a book first.',
      );
      return;
    }
    setBusy(true);
    try {
      await onChange(next);
      onClose();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="chat-context card"
      aria-label="What the conversation is about"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <fieldset className="chat-context-modes">
        <legend>About</legend>
        {(
          [
            ['any', 'any text'],
            ['book', 'a book'],
            ['chapter', 'a chapter'],
            ['text', 'pasted text'],
          ] as const
        ).map(([value, text]) => (
          <label key={value} className="chat-radio">
            <input
              type="radio"
              name={`${id}-mode`}
              value={value}
              checked={mode === value}
              onChange={() => setMode(value)}
            />{' '}
            {text}
          </label>
        ))}
      </fieldset>

      {mode === 'book' || mode === 'chapter' ? (
        <div className="chat-context-book">
          <div className="field">
            <label htmlFor={`${id}-q`}>Search the catalogue</label>
            <div className="chat-inline">
              <input
                id={`${id}-q`}
                type="search"
                value={query}
                placeholder="Title or author"
                onChange={(e) => setQuery(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    void search();
                  }
                }}
              />
              <button type="button" className="button button-ghost" onClick={() => void search()}>
                Search
              </button>
            </div>
          </div>
          {books ? (
            books.length ? (
              <ul className="chat-book-results">
                {books.map((b) => (
                  <li key={b.url}>
                    <button
                      type="button"
                      className={`chat-book${book?.url === b.url ? ' is-selected' : ''}`}
                      aria-pressed={book?.url === b.url}
                      onClick={() => {
                        setBook({ url: b.url, title: b.title });
                        setChapters(null);
                        setChapterUrl('');
                      }}
                    >
                      <strong>{b.title}</strong>
                      {b.authors[0] ? (
                        <span className="muted"> · {formatAuthorName(b.authors[0].name)}</span>
                      ) : null}
                    </button>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">No book with its text matches. Try another title or author.</p>
            )
          ) : null}
          {book ? (
            <p className="chat-chosen">
              Book: <strong>{book.title}</strong>
            </p>
          ) : null}
          {mode === 'chapter' && book ? (
            <div className="field">
              <label htmlFor={`${id}-chapter`}>Chapter</label>
              <select
                id={`${id}-chapter`}
                value={chapterUrl}
                onChange={(e) => setChapterUrl(e.target.value)}
                disabled={!chapters}
              >
                {(chapters ?? []).map((c) => (
                  <option key={c.url} value={c.url}>
                    {c.title}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
        </div>
      ) : null}

      {mode === 'text' ? (
        <div>
          <div className="field">
            <label htmlFor={`${id}-label`}>Name (optional)</label>
            <input
              id={`${id}-label`}
              value={label}
              maxLength={ASSISTANT_LIMITS.labelChars}
              onChange={(e) => setLabel(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-text`}>Text</label>
            <textarea
              id={`${id}-text`}
              rows={8}
              value={text}
              maxLength={ASSISTANT_LIMITS.pastedTextChars}
              onChange={(e) => setText(e.target.value)}
              placeholder="Paste a passage, a chapter or your own handout"
            />
          </div>
        </div>
      ) : null}

      {error ? (
        <p className="chat-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="button-row">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Saving…' : 'Use this'}
        </button>
        <button type="button" className="button button-ghost" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
