import { useCallback, useEffect, useId, useRef, useState } from 'react';
import {
  ASSISTANT_LIMITS,
  ASSISTANT_NO_SESSION_TITLE,
  GRADES,
  type AssistantContextInput,
  type AssistantConversation,
  type AssistantMaterialLink,
  type AssistantSessionAnswer,
} from '@chapterwise/shared';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Loading } from '../../../components/ui/loading';
import { ApiClientError, errorMessage } from '../../../lib/api';
import { assistantApi, streamAnswer } from '../api';
import { ContextPicker, describeContext } from './context-picker';
import { MessageView, productHref, type ShownMessage } from './message';

const SUGGESTIONS = [
  'Give me three discussion questions',
  'Summarise this chapter',
  'Who are the characters?',
  'What is the reading level?',
  'Key passages',
];

/** The page without a session: no token, or an expired or used one. */
export function NoSession({ reason, publicUrl }: { reason: string | null; publicUrl: string }) {
  return (
    <div className="container page chat-no-session">
      <div className="card chat-no-session-card">
        <h1>{ASSISTANT_NO_SESSION_TITLE}</h1>
        <p>
          {reason ??
            'The AI Teaching Assistant opens from your dashboard, which signs you in to it for the day.'}
        </p>
        <div className="button-row">
          <a className="button button-primary" href={productHref('/dashboard', publicUrl)}>
            Go to your dashboard
          </a>
          <a className="button button-ghost" href={productHref('/login', publicUrl)}>
            Log in
          </a>
        </div>
      </div>
    </div>
  );
}

/**
 * The chat: conversations on the left (new, rename, delete), the open conversation with what
 * it is about, its grade, its messages and the composer. Answers stream in as they are written;
 * Stop ends one and keeps what was written.
 */
export function ChatScreen({
  session,
  onSessionEnded,
}: {
  session: AssistantSessionAnswer;
  onSessionEnded: (reason: string) => void;
}) {
  const composerId = useId();
  const [conversations, setConversations] = useState<AssistantConversation[] | null>(null);
  const [active, setActive] = useState<AssistantConversation | null>(null);
  const [messages, setMessages] = useState<ShownMessage[]>([]);
  const [loadingConversation, setLoadingConversation] = useState(false);
  const [draft, setDraft] = useState('');
  const [streaming, setStreaming] = useState<AbortController | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [picking, setPicking] = useState(false);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<AssistantConversation | null>(null);
  const [listOpen, setListOpen] = useState(false);
  const endRef = useRef<HTMLDivElement>(null);
  const composerRef = useRef<HTMLTextAreaElement>(null);

  const fail = useCallback(
    (e: unknown) => {
      if (e instanceof ApiClientError && e.status === 401) onSessionEnded(e.message);
      else setError(errorMessage(e));
    },
    [onSessionEnded],
  );

  const open = useCallback(
    async (id: string) => {
      setLoadingConversation(true);
      setError(null);
      try {
        const answer = await assistantApi.get(id);
        setActive(answer.conversation);
        setMessages(answer.messages);
        setListOpen(false);
      } catch (e) {
        fail(e);
      } finally {
        setLoadingConversation(false);
      }
    },
    [fail],
  );

  useEffect(() => {
    assistantApi
      .list()
      .then(async ({ data }) => {
        setConversations(data);
        if (data[0]) await open(data[0].id);
      })
      .catch(fail);
  }, [open, fail]);

  useEffect(() => {
    endRef.current?.scrollIntoView({ block: 'end' });
  }, [messages]);

  const upsert = (conversation: AssistantConversation) =>
    setConversations((list) => [
      conversation,
      ...(list ?? []).filter((c) => c.id !== conversation.id),
    ]);

  const startNew = async (): Promise<AssistantConversation | null> => {
    setError(null);
    try {
      const created = await assistantApi.create(active ? { grade: active.grade } : {});
      upsert(created);
      setActive(created);
      setMessages([]);
      setListOpen(false);
      composerRef.current?.focus();
      return created;
    } catch (e) {
      fail(e);
      return null;
    }
  };

  const send = async (body: { content?: string; retry?: boolean }) => {
    if (streaming) return;
    const conversation = active ?? (await startNew());
    if (!conversation) return;
    setError(null);
    const controller = new AbortController();
    setStreaming(controller);
    let pendingId = '';
    if (body.retry) {
      // The answer being retried is replaced by the new one.
      setMessages((list) => {
        const lastQuestion = list.map((m) => m.role).lastIndexOf('user');
        return list.slice(0, lastQuestion + 1);
      });
    }
    try {
      await streamAnswer(
        conversation.id,
        body,
        (event) => {
          switch (event.type) {
            case 'start':
              pendingId = event.messageId;
              setMessages((list) => [
                ...list,
                ...(event.userMessage ? [event.userMessage] : []),
                {
                  id: event.messageId,
                  role: 'assistant',
                  content: '',
                  status: 'streaming',
                  citations: [],
                  quoteChecks: [],
                  materials: [],
                  createdAt: new Date().toISOString(),
                },
              ]);
              if (body.content) setDraft('');
              break;
            case 'delta':
              setMessages((list) =>
                list.map((m) =>
                  m.id === pendingId ? { ...m, content: m.content + event.text } : m,
                ),
              );
              break;
            case 'citation':
              setMessages((list) =>
                list.map((m) =>
                  m.id === pendingId ? { ...m, citations: [...m.citations, event.citation] } : m,
                ),
              );
              break;
            case 'error':
              setError(event.message);
              break;
            case 'done':
              setMessages((list) => list.map((m) => (m.id === pendingId ? event.message : m)));
              setActive((current) =>
                current?.id === event.conversation.id
                  ? {
                      ...event.conversation,
                      context: {
                        ...event.conversation.context,
                        ...(current.context.kind === 'text' &&
                        event.conversation.context.kind === 'text'
                          ? { text: current.context.text }
                          : {}),
                      },
                    }
                  : current,
              );
              upsert(event.conversation);
              break;
          }
        },
        controller.signal,
      );
      if (controller.signal.aborted) {
        setMessages((list) =>
          list.map((m) =>
            m.id === pendingId && m.status === 'streaming' ? { ...m, status: 'stopped' } : m,
          ),
        );
      }
    } catch (e) {
      setMessages((list) => list.filter((m) => m.id !== pendingId || m.content));
      fail(e);
    } finally {
      setStreaming(null);
    }
  };

  const submit = () => {
    const content = draft.trim();
    if (!content) return;
    void send({ content });
  };

  const changeContext = async (context: AssistantContextInput) => {
    if (!active) {
      const created = await assistantApi.create({ context });
      upsert(created);
      setActive(created);
      setMessages([]);
      return;
    }
    const updated = await assistantApi.update(active.id, { context });
    setActive(updated);
    upsert(updated);
  };

  const changeGrade = async (grade: string) => {
    if (!active) return;
    try {
      const updated = await assistantApi.update(active.id, { grade });
      setActive(updated);
      upsert(updated);
    } catch (e) {
      fail(e);
    }
  };

  const rename = async (conversation: AssistantConversation, title: string) => {
    setRenaming(null);
    if (!title.trim() || title.trim() === conversation.title) return;
    try {
      const updated = await assistantApi.update(conversation.id, { title: title.trim() });
      upsert(updated);
      if (active?.id === updated.id) setActive({ ...active, title: updated.title });
    } catch (e) {
      fail(e);
    }
  };

  const remove = async () => {
    const target = deleting;
    setDeleting(null);
    if (!target) return;
    try {
      await assistantApi.remove(target.id);
      setConversations((list) => (list ?? []).filter((c) => c.id !== target.id));
      if (active?.id === target.id) {
        setActive(null);
        setMessages([]);
      }
    } catch (e) {
      fail(e);
    }
  };

  const addMaterial = (link: AssistantMaterialLink, messageId: string) =>
    setMessages((list) =>
      list.map((m) => (m.id === messageId ? { ...m, materials: [...m.materials, link] } : m)),
    );

  const lastAssistant = messages.map((m) => m.role).lastIndexOf('assistant');
  const hasText = active?.context.kind === 'chapter' || active?.context.kind === 'text';
  const nearLimit = draft.length > ASSISTANT_LIMITS.messageChars - 400;

  return (
    <div className="chat">
      <aside className={`chat-sidebar${listOpen ? ' is-open' : ''}`} aria-label="Conversations">
        <div className="chat-sidebar-head">
          <h2>Conversations</h2>
          <button
            type="button"
            className="button button-primary button-sm"
            onClick={() => void startNew()}
          >
            New conversation
          </button>
        </div>
        {conversations === null ? (
          <Loading label="Loading conversations…" />
        ) : conversations.length === 0 ? (
          <p className="muted chat-empty-list">
            No conversations yet. Ask a question to start one.
          </p>
        ) : (
          <ul className="chat-list">
            {conversations.map((c) => (
              <li key={c.id} className={c.id === active?.id ? 'is-active' : undefined}>
                {renaming === c.id ? (
                  <form
                    className="chat-rename"
                    onSubmit={(e) => {
                      e.preventDefault();
                      const input = e.currentTarget.elements.namedItem('title') as HTMLInputElement;
                      void rename(c, input.value);
                    }}
                  >
                    <label className="visually-hidden" htmlFor={`rename-${c.id}`}>
                      New name
                    </label>
                    <input
                      id={`rename-${c.id}`}
                      name="title"
                      defaultValue={c.title}
                      maxLength={ASSISTANT_LIMITS.titleChars}
                      autoFocus
                      onKeyDown={(e) => e.key === 'Escape' && setRenaming(null)}
                    />
                    <button type="submit" className="button button-primary button-sm">
                      Save
                    </button>
                  </form>
                ) : (
                  <>
                    <button
                      type="button"
                      className="chat-list-open"
                      aria-current={c.id === active?.id ? 'true' : undefined}
                      onClick={() => void open(c.id)}
                    >
                      <span className="chat-list-title">{c.title}</span>
                      <span className="chat-list-about muted">{describeContext(c.context)}</span>
                    </button>
                    <span className="chat-list-tools">
                      <button
                        type="button"
                        className="button button-ghost button-sm"
                        onClick={() => setRenaming(c.id)}
                        aria-label={`Rename “${c.title}”`}
                      >
                        Rename
                      </button>
                      <button
                        type="button"
                        className="button button-ghost button-sm"
                        onClick={() => setDeleting(c)}
                        aria-label={`Delete “${c.title}”`}
                      >
                        Delete
                      </button>
                    </span>
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
      </aside>

      <section className="chat-main" aria-label="Conversation">
        <header className="chat-head">
          <button
            type="button"
            className="button button-ghost button-sm chat-list-toggle"
            aria-expanded={listOpen}
            onClick={() => setListOpen((v) => !v)}
          >
            Conversations
          </button>
          <h1 className="chat-title">{active?.title ?? 'AI Teaching Assistant'}</h1>
          <div className="chat-settings">
            <p className="chat-about">
              <span className="muted">About:</span>{' '}
              <strong>{active ? describeContext(active.context) : 'any text'}</strong>{' '}
              <button
                type="button"
                className="button button-ghost button-sm"
                aria-expanded={picking}
                onClick={() => setPicking((v) => !v)}
              >
                Change
              </button>
            </p>
            {active ? (
              <p className="chat-grade">
                <label htmlFor={`${composerId}-grade`} className="muted">
                  Class:
                </label>{' '}
                <select
                  id={`${composerId}-grade`}
                  className="chat-select"
                  value={active.grade}
                  onChange={(e) => void changeGrade(e.target.value)}
                >
                  {GRADES.map((g) => (
                    <option key={g}>{g}</option>
                  ))}
                </select>
              </p>
            ) : null}
          </div>
        </header>
        {picking ? (
          <ContextPicker
            context={active?.context ?? { kind: 'any' }}
            onChange={changeContext}
            onClose={() => setPicking(false)}
          />
        ) : null}

        <div className="chat-scroll">
          {loadingConversation ? (
            <Loading label="Opening the conversation…" />
          ) : messages.length === 0 ? (
            <div className="chat-welcome">
              <h2>Hello {session.user.firstName || 'there'}!</h2>
              <p className="muted">
                Ask about a book or chapter, or paste a text under <strong>About</strong>. Every
                passage I quote links to its paragraph in the book.
                {session.engine === 'local'
                  ? ' I run offline, from the books’ own words: I say so when a request is beyond me.'
                  : ''}
              </p>
              <ul className="chat-suggestions">
                {[
                  'Give me three discussion questions about Letter 1 of Frankenstein',
                  ...SUGGESTIONS.slice(1),
                  'Find books about whales',
                ].map((s) => (
                  <li key={s}>
                    <button
                      type="button"
                      className="button button-ghost button-sm"
                      onClick={() => setDraft(s)}
                    >
                      {s}
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          ) : (
            <ol className="chat-messages" aria-live="polite" aria-relevant="additions">
              {messages.map((m, i) => (
                <MessageView
                  key={m.id}
                  message={m}
                  actions={{
                    hasText: !!hasText,
                    grade: active?.grade ?? GRADES[8],
                    publicUrl: session.publicUrl,
                    conversationId: active?.id ?? '',
                    isLast: i === lastAssistant,
                    busy: !!streaming,
                    onRetry: () => void send({ retry: true }),
                    onAsk: (content) => void send({ content }),
                    onMaterial: addMaterial,
                  }}
                />
              ))}
            </ol>
          )}
          <div ref={endRef} />
        </div>

        {error ? (
          <p className="alert alert-error chat-alert" role="alert">
            {error}
          </p>
        ) : null}
        <form
          className="chat-composer"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <label htmlFor={composerId} className="visually-hidden">
            Message the assistant
          </label>
          <textarea
            id={composerId}
            ref={composerRef}
            rows={2}
            value={draft}
            maxLength={ASSISTANT_LIMITS.messageChars}
            placeholder="Ask for discussion questions, a summary, vocabulary…"
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                submit();
              }
            }}
            aria-describedby={nearLimit ? `${composerId}-count` : undefined}
          />
          {nearLimit ? (
            <span id={`${composerId}-count`} className="chat-count muted">
              {draft.length} / {ASSISTANT_LIMITS.messageChars}
            </span>
          ) : null}
          {streaming ? (
            <button
              type="button"
              className="button button-danger"
              onClick={() => streaming.abort()}
            >
              Stop
            </button>
          ) : (
            <button type="submit" className="button button-primary" disabled={!draft.trim()}>
              Send
            </button>
          )}
        </form>
      </section>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this conversation?"
        message={`“${deleting?.title ?? ''}” and all its messages will be deleted for good.`}
        confirmLabel="Delete"
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}
