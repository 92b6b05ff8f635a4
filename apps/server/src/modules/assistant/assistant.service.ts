import type { FastifyBaseLogger } from 'fastify';
import { randomUUID } from 'node:crypto';
import {
  ASSISTANT_DEFAULT_GRADE,
  ASSISTANT_LIMITS,
  formatAuthorName,
  passageHref,
  type AssistantCitation,
  type AssistantContext,
  type AssistantConversation,
  type AssistantMessage,
  type AssistantQuoteCheck,
  type AssistantStreamEvent,
  type AssistantContextInput,
} from '@chapterwise/shared';
import type { Db } from '../../db/client.js';
import type {
  AssistantConversationRow,
  AssistantMessageRow,
  StoredAssistantContext,
  UserRow,
} from '../../db/schema/index.js';
import { AppError, badRequest, notFound, unauthorized } from '../../lib/errors.js';
import {
  AssistantEngineError,
  type AssistantEngine,
  type AssistantTools,
  type BookHit,
  type Passage,
  type TurnContext,
} from '../../providers/assistant/index.js';
import { ReferenceIndex } from '../../providers/llm/index.js';
import type { BooksService } from '../books/books.service.js';
import { fleschKincaidGrade, measureText, readingMinutes } from '../books/text/readability.js';
import { verifyChatToken } from '../chat/chat.service.js';
import type { MaterialsService } from '../materials/materials.service.js';
import { shortTitle } from '../materials/pregenerate.js';
import { findUserById } from '../users/users.repository.js';
import * as repo from './assistant.repository.js';
import type { AssistantSessions } from './assistant.session.js';
import { CARDINALS, ORDINALS } from '../../lib/number-words.js';

export const DEFAULT_TITLE = 'New conversation';
const OPEN_FROM_DASHBOARD = 'Open the assistant from your dashboard.';

export interface AssistantServiceDeps {
  db: Db;
  books: BooksService;
  materials: MaterialsService;
  engine: AssistantEngine;
  sessions: AssistantSessions;
  jwtSecret: string;
  log: FastifyBaseLogger;
}

const ROMAN: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100 };
function fromRoman(s: string): number {
  let total = 0;
  for (let i = 0; i < s.length; i++) {
    const v = ROMAN[s[i]!] ?? 0;
    const next = ROMAN[s[i + 1] ?? ''] ?? 0;
    total += v < next ? -v : v;
  }
  return total;
}
const ORDINAL_NUMBERS: Record<string, number> = { ...CARDINALS, ...ORDINALS };

/** Lower case, letters and digits only, roman and word numbers after "chapter" etc. as digits. */
function normaliseTitle(text: string): string {
  return ` ${text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .replace(
      /\b(chapter|letter|book|part|act|scene|stave|canto|volume|section)\s+([ivxlc]+|one|two|three|four|five|six|seven|eight|nine|ten|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)\b/g,
      (_, word: string, n: string) => `${word} ${ORDINAL_NUMBERS[n] ?? fromRoman(n)}`,
    )
    .replace(/\s+/g, ' ')
    .trim()} `;
}

/** Words of a query as a tsquery of plain words (letters and digits only: nothing to escape). */
function tsqueryOf(query: string, join: '&' | '|'): string {
  const words = [
    ...new Set(
      query
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, ' ')
        .split(' ')
        .filter((w) => w.length > 2),
    ),
  ].slice(0, 12);
  return words.join(` ${join} `);
}

/** Quotations in an answer: blockquote lines and text in quotation marks, markdown escapes undone. */
export function quotationsOf(markdown: string): string[] {
  const unescape = (s: string) => s.replace(/\\(.)/g, '$1');
  const clean = (s: string) =>
    unescape(s)
      .replace(/\s*\[\d+\](?:\s*\[\d+\])*\s*$/, '')
      .replace(/\s+/g, ' ')
      .trim();
  const quotes: string[] = [];
  for (const match of markdown.matchAll(/^[ \t]*>[ \t]?(.+)$/gm)) quotes.push(clean(match[1]!));
  const prose = markdown.replace(/^[ \t]*>.*$/gm, '');
  for (const match of prose.matchAll(/“([^“”]{10,})”|"([^"\n]{10,})"/g))
    quotes.push(clean(match[1] ?? match[2] ?? ''));
  return [...new Set(quotes)].filter((q) => q.split(' ').length >= 3);
}

/**
 * The AI Teaching Assistant: chat sessions from chat tokens, a teacher's conversations, and
 * answers streamed from the engine, grounded in chapter paragraphs that are cited with links and
 * whose quotations are checked word for word against the text (the generator's ReferenceIndex).
 */
export class AssistantService {
  private textBooks:
    { at: number; list: Array<{ url: string; title: string; key: string }> } | undefined;

  constructor(private readonly deps: AssistantServiceDeps) {}

  private get db() {
    return this.deps.db;
  }

  get engineName(): string {
    return this.deps.engine.name;
  }

  /* ------------------------------------------------------------------------------------- */
  /* Sessions                                                                               */
  /* ------------------------------------------------------------------------------------- */

  /**
   * Exchanges a chat token (audience "chat", 10 minutes, single use) for a chat session token.
   * Expired, reused, forged and other tokens (an API session token) are refused with a 401 that
   * tells the teacher what to do.
   */
  async exchangeToken(token: string): Promise<{ user: UserRow; session: string }> {
    const check = await verifyChatToken(this.deps.jwtSecret, token);
    if (!check.ok) {
      throw unauthorized(
        check.reason === 'expired'
          ? `This link to the assistant has expired. ${OPEN_FROM_DASHBOARD}`
          : `This is not a valid link to the assistant. ${OPEN_FROM_DASHBOARD}`,
      );
    }
    const user = await findUserById(this.db, check.userId);
    if (!user || user.tokenVersion !== check.version) {
      throw unauthorized(`This link to the assistant is no longer valid. ${OPEN_FROM_DASHBOARD}`);
    }
    if (!(await repo.useChatToken(this.db, check.jti, check.expiresAt))) {
      throw unauthorized(`This link to the assistant was already used. ${OPEN_FROM_DASHBOARD}`);
    }
    void repo.pruneChatTokenUses(this.db).catch(() => undefined);
    return { user, session: await this.deps.sessions.sign(user) };
  }

  /** The teacher of a chat session cookie, or a 401. */
  async userOfSession(cookie: string | undefined): Promise<UserRow> {
    const claims = cookie ? await this.deps.sessions.verify(cookie) : null;
    const user = claims ? await findUserById(this.db, claims.userId) : undefined;
    if (!claims || !user || user.tokenVersion !== claims.version) {
      throw unauthorized(
        cookie
          ? `Your assistant session has ended. ${OPEN_FROM_DASHBOARD}`
          : `Please open the assistant from your dashboard.`,
      );
    }
    return user;
  }

  /* ------------------------------------------------------------------------------------- */
  /* Conversations                                                                          */
  /* ------------------------------------------------------------------------------------- */

  async listConversations(user: UserRow): Promise<AssistantConversation[]> {
    const rows = await repo.listConversations(this.db, user.id, ASSISTANT_LIMITS.conversations);
    return rows.map((r) => presentConversation(r, false));
  }

  async createConversation(
    user: UserRow,
    input: {
      title?: string | undefined;
      context?: AssistantContextInput | undefined;
      grade?: string | undefined;
    },
  ): Promise<AssistantConversation> {
    const context = input.context
      ? await this.storeContext(input.context)
      : { kind: 'any' as const };
    const row = await repo.insertConversation(this.db, user.id, {
      title: input.title?.trim() || DEFAULT_TITLE,
      grade: input.grade ?? ASSISTANT_DEFAULT_GRADE,
      context,
    });
    return presentConversation(row, true);
  }

  async getConversation(
    user: UserRow,
    id: string,
  ): Promise<{ conversation: AssistantConversation; messages: AssistantMessage[] }> {
    const row = await this.ownConversation(user, id);
    const messages = await repo.listMessages(this.db, row.id);
    return { conversation: presentConversation(row, true), messages: messages.map(presentMessage) };
  }

  async updateConversation(
    user: UserRow,
    id: string,
    input: {
      title?: string | undefined;
      context?: AssistantContextInput | undefined;
      grade?: string | undefined;
    },
  ): Promise<AssistantConversation> {
    await this.ownConversation(user, id);
    const row = await repo.updateConversation(this.db, user.id, id, {
      ...(input.title ? { title: input.title } : {}),
      ...(input.grade ? { grade: input.grade } : {}),
      ...(input.context ? { context: await this.storeContext(input.context) } : {}),
    });
    if (!row) throw notFound('Conversation not found.');
    return presentConversation(row, true);
  }

  async deleteConversation(user: UserRow, id: string): Promise<void> {
    if (!(await repo.deleteConversation(this.db, user.id, id)))
      throw notFound('Conversation not found.');
  }

  private async ownConversation(user: UserRow, id: string): Promise<AssistantConversationRow> {
    const row = await repo.findConversation(this.db, user.id, id);
    if (!row) throw notFound('Conversation not found.');
    return row;
  }

  /** Checks a chosen book or chapter against the catalogue and keeps its titles. */
  private async storeContext(input: AssistantContextInput): Promise<StoredAssistantContext> {
    switch (input.kind) {
      case 'any':
        return { kind: 'any' };
      case 'text':
        return { kind: 'text', label: (input.label ?? '').trim(), text: input.text.trim() };
      case 'book': {
        const book = await this.deps.books.getBook(input.bookUrl).catch(() => null);
        if (!book) throw badRequest('Invalid field "context": we could not find that book.');
        return { kind: 'book', bookUrl: book.data.url, bookTitle: book.data.title };
      }
      case 'chapter': {
        const found = await this.deps.books
          .getChapter(input.bookUrl, input.chapterUrl)
          .catch(() => null);
        if (!found) throw badRequest('Invalid field "context": we could not find that chapter.');
        return {
          kind: 'chapter',
          bookUrl: found.data.book.url,
          bookTitle: found.data.book.title,
          chapterUrl: found.data.chapter.url,
          chapterTitle: found.data.chapter.title,
        };
      }
    }
  }

  /* ------------------------------------------------------------------------------------- */
  /* Answers                                                                                */
  /* ------------------------------------------------------------------------------------- */

  /**
   * Checks a message before the answer streams (so a bad request is a plain 4xx): the
   * conversation is the teacher's, the text is there (or a retry has a question to answer).
   * Saves the question and returns what `answer` needs.
   */
  async prepareAnswer(
    user: UserRow,
    conversationId: string,
    input: { content: string; retry: boolean },
  ): Promise<PreparedTurn> {
    const conversation = await this.ownConversation(user, conversationId);
    const earlier = await repo.listMessages(this.db, conversation.id);
    let question: AssistantMessageRow;
    let userMessage: AssistantMessageRow | null = null;
    if (input.retry) {
      const lastQuestion = [...earlier].reverse().find((m) => m.role === 'user');
      if (!lastQuestion) throw badRequest('There is no question to answer again.');
      question = lastQuestion;
      // The answer being retried is replaced.
      for (const m of earlier)
        if (m.role === 'assistant' && m.createdAt >= lastQuestion.createdAt)
          await repo.deleteMessage(this.db, conversation.id, m.id);
    } else {
      if (!input.content.trim()) throw badRequest('Invalid field "content": is required');
      userMessage = await repo.insertMessage(this.db, {
        conversationId: conversation.id,
        role: 'user',
        content: input.content.trim(),
      });
      question = userMessage;
    }
    const history = earlier
      .filter((m) => m.createdAt < question.createdAt && m.status !== 'failed')
      .map((m) => ({ role: m.role, content: m.content }));
    return { user, conversation, question, userMessage, history };
  }

  /**
   * Runs the engine for a prepared question, sending events as the answer grows, and saves the
   * answer: complete, stopped (the teacher pressed Stop: what was written is kept) or failed.
   */
  async answer(
    prepared: PreparedTurn,
    emit: (event: AssistantStreamEvent) => void,
    signal: AbortSignal,
  ): Promise<void> {
    const { conversation, question } = prepared;
    const messageId = randomUUID();
    let context = await this.turnContext(conversation.context);
    emit({
      type: 'start',
      userMessage: prepared.userMessage ? presentMessage(prepared.userMessage) : null,
      messageId,
      conversation: presentConversation(conversation, false),
    });

    let content = '';
    const registered: AssistantCitation[] = [];
    const sent = new Set<number>();
    const sources: string[] = [];
    let chosen: TurnContext | null = null;
    const emitNewCitations = () => {
      for (const match of content.matchAll(/\[(\d+)\]/g)) {
        const n = Number(match[1]);
        const citation = registered[n - 1];
        if (citation && !sent.has(n)) {
          sent.add(n);
          emit({ type: 'citation', citation });
        }
      }
    };
    const sink = {
      write: (markdown: string) => {
        if (signal.aborted || !markdown) return;
        content += markdown;
        emit({ type: 'delta', text: markdown });
        if (markdown.includes(']')) emitNewCitations();
      },
      cite: (passage: Passage) => {
        const same = registered.findIndex(
          (c) =>
            c.source === passage.source &&
            c.bookUrl === passage.bookUrl &&
            c.chapterUrl === passage.chapterUrl &&
            c.paragraph === passage.paragraph &&
            c.quote === displayQuote(passage.text),
        );
        if (same !== -1) return same + 1;
        sources.push(passage.text);
        registered.push({
          n: registered.length + 1,
          quote: displayQuote(passage.text),
          paragraph: passage.paragraph,
          source: passage.source,
          ...(passage.source === 'chapter' && passage.bookUrl && passage.chapterUrl
            ? {
                bookUrl: passage.bookUrl,
                bookTitle: passage.bookTitle ?? '',
                chapterUrl: passage.chapterUrl,
                chapterTitle: passage.chapterTitle ?? '',
                href: passageHref(passage.bookUrl, passage.chapterUrl, passage.paragraph),
              }
            : {}),
        });
        return registered.length;
      },
      useContext: (found: TurnContext) => {
        chosen = found;
        context = found;
      },
    };

    let status: 'complete' | 'stopped' | 'failed' = 'complete';
    let failure: { message: string; code: string } | null = null;
    try {
      await this.deps.engine.answer(
        {
          message: question.content,
          history: prepared.history,
          context,
          grade: conversation.grade,
        },
        this.tools(),
        sink,
        signal,
      );
      if (signal.aborted) status = 'stopped';
    } catch (error) {
      if (signal.aborted) status = 'stopped';
      else {
        status = 'failed';
        failure =
          error instanceof AssistantEngineError
            ? { message: error.message, code: error.code }
            : error instanceof AppError
              ? { message: error.message, code: error.code }
              : {
                  message: 'The assistant failed unexpectedly. Please try again.',
                  code: 'INTERNAL',
                };
        if (!(error instanceof AssistantEngineError) && !(error instanceof AppError))
          this.deps.log.error(
            { err: error, conversationId: conversation.id },
            'assistant answer crashed',
          );
        else
          this.deps.log.warn(
            { code: failure.code, engine: this.engineName },
            'assistant answer failed',
          );
      }
    }

    // Only passages the answer refers to are listed; every quotation is looked up in the text.
    const referenced = new Set([...content.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])));
    const citations = registered.filter((c) => referenced.has(c.n));
    const reference = new ReferenceIndex([context.text ?? '', ...sources].join('\n\n'));
    const quoteChecks: AssistantQuoteCheck[] = quotationsOf(content).map((quote) => ({
      quote,
      found: reference.hasEvidence(quote),
    }));
    const stored = await repo.insertMessage(this.db, {
      id: messageId,
      conversationId: conversation.id,
      role: 'assistant',
      content: failure ? `${content}${content ? '\n\n' : ''}_${failure.message}_` : content,
      status,
      details: { citations, quoteChecks, materials: [], engine: this.engineName },
      // After the question, even when the clock of the database and ours disagree.
      createdAt: new Date(Math.max(Date.now(), question.createdAt.getTime() + 1)),
    });
    const patch: Parameters<typeof repo.updateConversation>[3] = {};
    if (conversation.title === DEFAULT_TITLE) patch.title = titleFrom(question.content);
    const found = chosen as TurnContext | null;
    if (found) patch.context = storedOf(found);
    const updated =
      (await repo.updateConversation(this.db, prepared.user.id, conversation.id, patch)) ??
      conversation;
    if (failure) emit({ type: 'error', ...failure });
    emit({
      type: 'done',
      message: presentMessage(stored),
      conversation: presentConversation(updated, false),
    });
  }

  /** What the engine reads for a stored context: the chapter's or pasted text, titles. */
  private async turnContext(stored: StoredAssistantContext): Promise<TurnContext> {
    switch (stored.kind) {
      case 'text':
        return {
          kind: 'text',
          label: stored.label ? `“${stored.label}”` : 'the text you pasted',
          text: stored.text,
        };
      case 'chapter':
        return (
          (await this.loadChapter(stored.bookUrl, stored.chapterUrl)) ?? {
            kind: 'any',
            label: 'any text',
          }
        );
      case 'book': {
        const book = await this.deps.books.getBook(stored.bookUrl).catch(() => null);
        if (!book) return { kind: 'any', label: 'any text' };
        return {
          kind: 'book',
          label: `*${shortTitle(book.data.title)}*`,
          book: {
            url: book.data.url,
            title: book.data.title,
            author: book.data.authors[0] ? formatAuthorName(book.data.authors[0].name) : '',
          },
        };
      }
      default:
        return { kind: 'any', label: 'any text' };
    }
  }

  async loadChapter(bookUrl: string, chapterUrl: string): Promise<TurnContext | null> {
    const found = await this.deps.books.getChapter(bookUrl, chapterUrl).catch(() => null);
    if (!found) return null;
    const { book, chapter } = found.data;
    return {
      kind: 'chapter',
      label: `**${chapter.title}** of *${shortTitle(book.title)}*`,
      book: {
        url: book.url,
        title: book.title,
        author: book.authors[0] ? formatAuthorName(book.authors[0].name) : '',
      },
      chapter: { url: chapter.url, title: chapter.title, readingGrade: chapter.readingGrade },
      text: chapter.text,
    };
  }

  /** What engines may use. */
  tools(): AssistantTools {
    return {
      searchPassages: (query, scope, limit = 6) => this.searchPassages(query, scope, limit),
      findBooks: (topic, limit = 8) => this.findBooks(topic, limit),
      resolveMention: (message) => this.resolveMention(message),
      loadChapter: (bookUrl, chapterUrl) => this.loadChapter(bookUrl, chapterUrl),
      generate: (request, signal) =>
        this.deps.materials.preview(
          {
            type: request.type,
            grade: request.grade,
            referenceText: request.text,
            descriptionText: request.description,
          },
          signal,
        ),
      measure: (text) => {
        const stats = measureText(text);
        return {
          words: stats.wordCount,
          sentences: stats.sentenceCount,
          grade: fleschKincaidGrade(stats),
          minutes: readingMinutes(stats.wordCount),
        };
      },
    };
  }

  /**
   * Paragraphs that match the words of a query: all words first, any word when that finds too
   * few. Within a chapter any word counts from the start (the chapter already narrows it).
   */
  async searchPassages(
    query: string,
    scope: { bookUrl?: string | undefined; chapterUrl?: string | undefined },
    limit: number,
  ): Promise<Passage[]> {
    let bookId: number | undefined;
    let chapterIndex: number | undefined;
    if (scope.bookUrl) {
      bookId = await repo.findBookId(this.db, scope.bookUrl);
      if (bookId === undefined) return [];
      if (scope.chapterUrl) {
        const book = await this.deps.books.getBook(scope.bookUrl).catch(() => null);
        chapterIndex = book?.data.chapters.find((c) => c.url === scope.chapterUrl)?.index;
        if (chapterIndex === undefined) return [];
      }
    }
    const where = { bookId, chapterIndex };
    let hits: repo.ParagraphHit[];
    if (!tsqueryOf(query, '|')) {
      if (bookId === undefined) return [];
      hits = await repo.searchParagraphs(this.db, '', where, limit);
    } else if (chapterIndex !== undefined) {
      hits = await repo.searchParagraphs(this.db, tsqueryOf(query, '|'), where, limit);
    } else {
      hits = await repo.searchParagraphs(this.db, tsqueryOf(query, '&'), where, limit);
      if (hits.length < Math.ceil(limit / 2) && query.trim().includes(' ')) {
        const more = await repo.searchParagraphs(this.db, tsqueryOf(query, '|'), where, limit);
        const seen = new Set(hits.map((h) => `${h.chapterUrl}|${h.n}`));
        hits = [...hits, ...more.filter((h) => !seen.has(`${h.chapterUrl}|${h.n}`))].slice(
          0,
          limit,
        );
      }
    }
    return hits.map((h) => ({
      source: 'chapter',
      bookUrl: h.bookUrl,
      bookTitle: h.bookTitle,
      chapterUrl: h.chapterUrl,
      chapterTitle: h.chapterTitle,
      paragraph: h.n,
      text: h.text,
    }));
  }

  /** Books about a topic: those whose text speaks of it (with the passage), then catalogue matches. */
  async findBooks(topic: string, limit: number): Promise<BookHit[]> {
    const hits: BookHit[] = [];
    const all = tsqueryOf(topic, '&');
    if (all) {
      let byText = await repo.searchBooksByText(this.db, all, limit);
      if (byText.length === 0 && topic.includes(' '))
        byText = await repo.searchBooksByText(this.db, tsqueryOf(topic, '|'), limit);
      for (const h of byText) {
        const book = await this.deps.books.getBook(h.bookUrl).catch(() => null);
        hits.push({
          url: h.bookUrl,
          title: h.bookTitle,
          author: book?.data.authors[0] ? formatAuthorName(book.data.authors[0].name) : '',
          chapterCount: book?.data.chapterCount ?? 1,
          passage: {
            source: 'chapter',
            bookUrl: h.bookUrl,
            bookTitle: h.bookTitle,
            chapterUrl: h.chapterUrl,
            chapterTitle: h.chapterTitle,
            paragraph: h.n,
            text: firstSentence(h.text, topic),
          },
        });
      }
    }
    if (hits.length < limit && topic.trim()) {
      const listed = await this.deps.books.listBooks({
        sort: 'download_count',
        searchTerm: topic.slice(0, 100),
        limit,
        page: 1,
      });
      for (const b of listed.data) {
        if (hits.some((h) => h.url === b.url)) continue;
        hits.push({
          url: b.url,
          title: b.title,
          author: b.authors[0] ? formatAuthorName(b.authors[0].name) : '',
          chapterCount: b.chapterCount,
        });
      }
    }
    return hits.slice(0, limit);
  }

  /**
   * The book, and chapter, a message names: the longest title of a book with text found in the
   * message, then a chapter named by number ("Letter 1", "chapter V") or by its whole title.
   */
  async resolveMention(message: string): Promise<TurnContext | null> {
    const text = normaliseTitle(message);
    const books = await this.booksWithText();
    const book = books
      .filter((b) => b.key.length >= 4 && text.includes(b.key))
      .sort((a, b) => b.key.length - a.key.length)[0];
    if (!book) return null;
    const detail = await this.deps.books.getBook(book.url).catch(() => null);
    if (!detail) return null;
    const chapters = detail.data.chapters.map((c) => ({ ...c, key: normaliseTitle(c.title) }));
    let chapter: (typeof chapters)[number] | undefined;
    for (const match of text.matchAll(
      / (chapter|letter|book|part|act|scene|stave|canto|volume|section) (\d+) /g,
    )) {
      const key = ` ${match[1]} ${match[2]} `;
      chapter = chapters.find((c) => c.key.startsWith(key) || c.key === key);
      if (chapter) break;
    }
    chapter ??= chapters
      .filter(
        (c) => c.key.trim().split(' ').length >= 2 && text.includes(c.key) && c.key !== book.key,
      )
      .sort((a, b) => b.key.length - a.key.length)[0];
    if (chapter) return this.loadChapter(book.url, chapter.url);
    return {
      kind: 'book',
      label: `*${shortTitle(detail.data.title)}*`,
      book: {
        url: detail.data.url,
        title: detail.data.title,
        author: detail.data.authors[0] ? formatAuthorName(detail.data.authors[0].name) : '',
      },
    };
  }

  private async booksWithText(): Promise<Array<{ url: string; title: string; key: string }>> {
    if (!this.textBooks || Date.now() - this.textBooks.at > 60_000) {
      const rows = await repo.listBooksWithText(this.db);
      this.textBooks = {
        at: Date.now(),
        list: rows.map((r) => ({
          url: r.url,
          title: r.title,
          key: normaliseTitle(shortTitle(r.title)),
        })),
      };
    }
    return this.textBooks.list;
  }

  /* ------------------------------------------------------------------------------------- */
  /* Actions                                                                                */
  /* ------------------------------------------------------------------------------------- */

  /**
   * "Make a quiz / lesson / worksheet from this": hands the conversation's chapter or pasted
   * text to the material generator with the same credit rules as the generator page (402
   * without credits), and links the material from the answer.
   */
  async makeMaterial(
    user: UserRow,
    conversationId: string,
    input: { type: string; messageId?: string | undefined },
  ): Promise<{ materialId: string; name: string; type: string }> {
    const conversation = await this.ownConversation(user, conversationId);
    const context = await this.turnContext(conversation.context);
    if (!context.text) {
      throw badRequest(
        'Choose a chapter or paste a text under “About” first: the generator makes materials from a text.',
      );
    }
    const name =
      context.kind === 'chapter' && context.book && context.chapter
        ? `${input.type}: ${context.chapter.title}, ${shortTitle(context.book.title)}`.slice(0, 200)
        : `${input.type}: ${conversation.context.kind === 'text' && conversation.context.label ? conversation.context.label : 'pasted text'}`.slice(
            0,
            200,
          );
    const { materialId } = await this.deps.materials.startGeneration(user, {
      name,
      subject: 'English',
      grade: conversation.grade as never,
      type: input.type,
      referenceText: context.text,
      descriptionText: '',
      setId: null,
      bookUrl: context.book?.url ?? null,
      chapterUrl: context.chapter?.url ?? null,
    });
    if (input.messageId)
      await repo.addMaterialLink(this.db, conversation.id, input.messageId, {
        id: materialId,
        name,
        type: input.type,
      });
    return { materialId, name, type: input.type };
  }

  materialStatus(user: UserRow, id: string) {
    return this.deps.materials.checkGeneration(user, id);
  }
}

export interface PreparedTurn {
  user: UserRow;
  conversation: AssistantConversationRow;
  question: AssistantMessageRow;
  userMessage: AssistantMessageRow | null;
  history: Array<{ role: 'user' | 'assistant'; content: string }>;
}

/** A citation's quote as listed: a long paragraph is cut after about 60 words, at a sentence end. */
function displayQuote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const words = flat.split(' ');
  if (words.length <= 70) return flat;
  const cut = words.slice(0, 60).join(' ');
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('! '), cut.lastIndexOf('? '));
  return end > 40 ? cut.slice(0, end + 1) : `${cut} …`;
}

/** The sentence of a paragraph with the most words of the topic. */
function firstSentence(paragraph: string, topic: string): string {
  const words = topic
    .toLowerCase()
    .split(/\W+/)
    .filter((w) => w.length > 2);
  const sentences = paragraph.replace(/\s+/g, ' ').match(/[^.!?]+[.!?]+[”"’)]*|[^.!?]+$/g) ?? [
    paragraph,
  ];
  const best = sentences
    .map((s) => ({ s: s.trim(), hits: words.filter((w) => s.toLowerCase().includes(w)).length }))
    .sort((a, b) => b.hits - a.hits)[0];
  return best && best.s.split(' ').length >= 5 ? best.s : displayQuote(paragraph);
}

function titleFrom(question: string): string {
  const flat = question.replace(/\s+/g, ' ').trim();
  if (flat.length <= 60) return flat;
  const cut = flat.slice(0, 60);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 30 ? cut.lastIndexOf(' ') : 60)}…`;
}

function storedOf(context: TurnContext): StoredAssistantContext {
  if (context.kind === 'chapter' && context.book && context.chapter)
    return {
      kind: 'chapter',
      bookUrl: context.book.url,
      bookTitle: context.book.title,
      chapterUrl: context.chapter.url,
      chapterTitle: context.chapter.title,
    };
  if (context.kind === 'book' && context.book)
    return { kind: 'book', bookUrl: context.book.url, bookTitle: context.book.title };
  return { kind: 'any' };
}

function presentContext(stored: StoredAssistantContext, withText: boolean): AssistantContext {
  if (stored.kind === 'text') {
    return {
      kind: 'text',
      label: stored.label,
      words: stored.text.split(/\s+/).filter(Boolean).length,
      ...(withText ? { text: stored.text } : {}),
    };
  }
  return stored;
}

export function presentConversation(
  row: AssistantConversationRow,
  withText: boolean,
): AssistantConversation {
  return {
    id: row.id,
    title: row.title,
    grade: row.grade,
    context: presentContext(row.context, withText),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentMessage(row: AssistantMessageRow): AssistantMessage {
  return {
    id: row.id,
    role: row.role,
    content: row.content,
    status: row.status,
    citations: row.details.citations ?? [],
    quoteChecks: row.details.quoteChecks ?? [],
    materials: row.details.materials ?? [],
    ...(row.details.engine ? { engine: row.details.engine } : {}),
    createdAt: row.createdAt.toISOString(),
  };
}
