import { useEffect, useRef, useState } from 'react';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import {
  ASSISTANT_MATERIAL_TYPES,
  GENERATION_CHECK_INTERVAL_MS,
  GRADES,
  type AssistantCitation,
  type AssistantMaterialLink,
  type AssistantMessage,
} from '@chapterwise/shared';
import { errorMessage } from '../../../lib/api';
import { assistantApi } from '../api';

/** A message as the screen shows it: saved, or the answer still streaming. */
export interface ShownMessage extends Omit<AssistantMessage, 'status'> {
  status: AssistantMessage['status'] | 'streaming';
}

/** Where the product lives: links to chapters open there, even from a chat site on another origin. */
export function productHref(href: string, publicUrl: string): string {
  if (!href.startsWith('/') || href.startsWith('//')) return href;
  if (
    typeof window !== 'undefined' &&
    publicUrl &&
    new URL(publicUrl).origin === window.location.origin
  )
    return href;
  return `${publicUrl}${href}`;
}

/** "[2]" in an answer becomes a link to passage 2 (once its citation is known). */
function linkCitations(markdown: string, citations: AssistantCitation[]): string {
  return markdown.replace(/(?<!\\)\[(\d+)\](?!\()/g, (marker, n: string) => {
    const citation = citations.find((c) => c.n === Number(n));
    if (!citation) return marker;
    return citation.href ? `[\\[${n}\\]](${citation.href} "Passage ${n}")` : marker;
  });
}

function citationLabel(c: AssistantCitation): string {
  return c.source === 'chapter'
    ? `${c.chapterTitle}, ${c.bookTitle}, paragraph ${c.paragraph}`
    : `Your text, paragraph ${c.paragraph}`;
}

export interface MessageActions {
  /** The conversation has a chapter or pasted text: the material and passage actions apply. */
  hasText: boolean;
  grade: string;
  publicUrl: string;
  conversationId: string;
  isLast: boolean;
  busy: boolean;
  onRetry: () => void;
  onAsk: (text: string) => void;
  onMaterial: (link: AssistantMaterialLink, messageId: string) => void;
}

/** One message: the teacher's words, or an answer in Markdown with its sources and actions. */
export function MessageView({
  message,
  actions,
}: {
  message: ShownMessage;
  actions: MessageActions;
}) {
  if (message.role === 'user') {
    return (
      <li className="chat-message chat-message-user">
        <p className="visually-hidden">You said:</p>
        <div className="chat-bubble">{message.content}</div>
      </li>
    );
  }
  const components: Components = {
    a: ({ href, children, title }) => {
      const target = productHref(href ?? '', actions.publicUrl);
      const isCitation = title?.startsWith('Passage ');
      const citation = isCitation
        ? message.citations.find((c) => `Passage ${c.n}` === title)
        : undefined;
      return (
        <a
          href={target}
          target="_blank"
          rel="noopener noreferrer"
          className={isCitation ? 'chat-cite' : undefined}
          aria-label={citation ? `Passage ${citation.n}: ${citationLabel(citation)}` : undefined}
        >
          {children}
        </a>
      );
    },
  };
  const missing = message.quoteChecks.filter((q) => !q.found);
  return (
    <li className="chat-message chat-message-assistant" aria-busy={message.status === 'streaming'}>
      <p className="visually-hidden">The assistant answered:</p>
      <div className="chat-answer">
        {message.content ? (
          <Markdown remarkPlugins={[remarkGfm]} components={components}>
            {linkCitations(message.content, message.citations)}
          </Markdown>
        ) : message.status === 'streaming' ? (
          <p className="muted" role="status">
            <span className="spinner" aria-hidden="true" /> Reading the text…
          </p>
        ) : null}
        {message.status === 'stopped' ? <p className="chat-note">Stopped.</p> : null}
        {missing.length ? (
          <div className="alert alert-warning chat-quote-warning">
            <strong>Not found in the text</strong>, word for word:
            <ul>
              {missing.map((q) => (
                <li key={q.quote}>“{q.quote}”</li>
              ))}
            </ul>
          </div>
        ) : null}
        {message.citations.length ? (
          <section className="chat-sources" aria-label="Sources">
            <h3>Sources</h3>
            <ol>
              {message.citations.map((c) => (
                <li key={c.n} value={c.n}>
                  {c.href ? (
                    <a
                      href={productHref(c.href, actions.publicUrl)}
                      target="_blank"
                      rel="noopener noreferrer"
                    >
                      {citationLabel(c)}
                    </a>
                  ) : (
                    <span>{citationLabel(c)}</span>
                  )}
                  <blockquote>{c.quote}</blockquote>
                </li>
              ))}
            </ol>
          </section>
        ) : null}
        {message.materials.length ? (
          <ul className="chat-materials">
            {message.materials.map((m) => (
              <MaterialLink key={m.id} link={m} publicUrl={actions.publicUrl} />
            ))}
          </ul>
        ) : null}
      </div>
      {message.status !== 'streaming' ? (
        <AnswerToolbar message={message} actions={actions} />
      ) : null}
    </li>
  );
}

function AnswerToolbar({ message, actions }: { message: ShownMessage; actions: MessageActions }) {
  const [copied, setCopied] = useState(false);
  const [making, setMaking] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [grade, setGrade] = useState(actions.grade);
  useEffect(() => setGrade(actions.grade), [actions.grade]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(message.content);
      setCopied(true);
      // Spec §4: the copy button reads "Copied" for one second.
      setTimeout(() => setCopied(false), 1000);
    } catch {
      setError('Your browser did not allow copying. Select the text and copy it instead.');
    }
  };
  const make = async (type: string) => {
    setMaking(type);
    setError(null);
    try {
      const made = await assistantApi.makeMaterial(actions.conversationId, {
        type,
        messageId: message.id,
      });
      actions.onMaterial({ id: made.materialId, name: made.name, type: made.type }, message.id);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setMaking(null);
    }
  };
  const gradeNumber = GRADES.indexOf(grade as (typeof GRADES)[number]);
  const gradeWords =
    gradeNumber <= 0 ? 'kindergarten' : gradeNumber >= 13 ? 'college' : `grade ${gradeNumber}`;
  return (
    <div className="chat-toolbar">
      <div className="chat-toolbar-row">
        <button type="button" className="button button-ghost button-sm" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </button>
        {actions.isLast ? (
          <button
            type="button"
            className="button button-ghost button-sm"
            onClick={actions.onRetry}
            disabled={actions.busy}
          >
            Retry
          </button>
        ) : null}
      </div>
      {actions.hasText && actions.isLast ? (
        <div className="chat-toolbar-row chat-actions" role="group" aria-label="Use this text">
          {ASSISTANT_MATERIAL_TYPES.map((type) => (
            <button
              key={type}
              type="button"
              className="button button-primary button-sm"
              disabled={making !== null || actions.busy}
              onClick={() => void make(type)}
            >
              {making === type ? 'Starting…' : `Make a ${type.toLowerCase()} from this`}
            </button>
          ))}
          <span className="chat-adapt">
            <button
              type="button"
              className="button button-ghost button-sm"
              disabled={actions.busy}
              onClick={() => actions.onAsk(`Adapt this passage to ${gradeWords}`)}
            >
              Adapt this passage to
            </button>
            <label className="visually-hidden" htmlFor={`adapt-${message.id}`}>
              Grade to adapt to
            </label>
            <select
              id={`adapt-${message.id}`}
              value={grade}
              onChange={(e) => setGrade(e.target.value)}
              className="chat-select"
            >
              {GRADES.map((g) => (
                <option key={g} value={g}>
                  {g}
                </option>
              ))}
            </select>
          </span>
          <button
            type="button"
            className="button button-ghost button-sm"
            disabled={actions.busy}
            onClick={() => actions.onAsk('Vocabulary list')}
          >
            Vocabulary list
          </button>
        </div>
      ) : null}
      {error ? (
        <p className="chat-error" role="alert">
          {error}
          {/subscription/i.test(error) ? (
            <>
              {' '}
              <a href={productHref('/subscription', actions.publicUrl)}>Manage your subscription</a>
            </>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}

/** A material made from the chat: "Generating…" until it has finished, then a link to it. */
function MaterialLink({ link, publicUrl }: { link: AssistantMaterialLink; publicUrl: string }) {
  const [state, setState] = useState<{ finished: boolean; failed?: string }>({ finished: false });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    let stopped = false;
    const check = async () => {
      try {
        const status = await assistantApi.materialStatus(link.id);
        if (stopped) return;
        if (status.finished) return setState({ finished: true });
        if (status.status === 'failed')
          return setState({ finished: false, failed: status.error ?? 'The generation failed.' });
      } catch {
        // Try again at the next tick.
      }
      if (!stopped) timer.current = setTimeout(() => void check(), GENERATION_CHECK_INTERVAL_MS);
    };
    void check();
    return () => {
      stopped = true;
      clearTimeout(timer.current);
    };
  }, [link.id]);
  return (
    <li className="chat-material" aria-live="polite">
      {state.finished ? (
        <a
          href={productHref(`/material/${link.id}/edit`, publicUrl)}
          target="_blank"
          rel="noopener noreferrer"
        >
          Open “{link.name}”
        </a>
      ) : state.failed ? (
        <span className="chat-error">
          {link.name}: {state.failed}
        </span>
      ) : (
        <span>
          <span className="spinner" aria-hidden="true" /> Generating “{link.name}”…
        </span>
      )}
    </li>
  );
}
