import { and, asc, desc, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  assistantConversations,
  assistantMessages,
  assistantTokenUses,
  books,
  type AssistantMessageDetails,
  type StoredAssistantContext,
} from '../../db/schema/index.js';
import type { AssistantMaterialLink } from '@chapterwise/shared';

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows?: T[] }).rows ?? [];
}

/* Conversations and messages: every read and write names the owner. */

export async function insertConversation(
  db: Db,
  userId: string,
  values: { title: string; grade: string; context: StoredAssistantContext },
) {
  const [row] = await db
    .insert(assistantConversations)
    .values({ userId, ...values })
    .returning();
  return row!;
}

export function listConversations(db: Db, userId: string, limit: number) {
  return db
    .select()
    .from(assistantConversations)
    .where(eq(assistantConversations.userId, userId))
    .orderBy(desc(assistantConversations.updatedAt), desc(assistantConversations.id))
    .limit(limit);
}

export async function findConversation(db: Db, userId: string, id: string) {
  const [row] = await db
    .select()
    .from(assistantConversations)
    .where(and(eq(assistantConversations.id, id), eq(assistantConversations.userId, userId)))
    .limit(1);
  return row;
}

export async function updateConversation(
  db: Db,
  userId: string,
  id: string,
  patch: Partial<{ title: string; grade: string; context: StoredAssistantContext }>,
) {
  const [row] = await db
    .update(assistantConversations)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(and(eq(assistantConversations.id, id), eq(assistantConversations.userId, userId)))
    .returning();
  return row;
}

/** Deletes a conversation and (by cascade) its messages; false when it is not the user's. */
export async function deleteConversation(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(assistantConversations)
    .where(and(eq(assistantConversations.id, id), eq(assistantConversations.userId, userId)))
    .returning({ id: assistantConversations.id });
  return rows.length > 0;
}

export function listMessages(db: Db, conversationId: string) {
  return db
    .select()
    .from(assistantMessages)
    .where(eq(assistantMessages.conversationId, conversationId))
    .orderBy(asc(assistantMessages.createdAt), asc(assistantMessages.role));
}

export async function insertMessage(
  db: Db,
  values: {
    id?: string;
    conversationId: string;
    role: 'user' | 'assistant';
    content: string;
    status?: 'complete' | 'stopped' | 'failed';
    details?: AssistantMessageDetails;
    createdAt?: Date;
  },
) {
  const [row] = await db.insert(assistantMessages).values(values).returning();
  return row!;
}

export async function deleteMessage(db: Db, conversationId: string, id: string): Promise<void> {
  await db
    .delete(assistantMessages)
    .where(and(eq(assistantMessages.id, id), eq(assistantMessages.conversationId, conversationId)));
}

/** Links a material made from an answer to that answer (in the teacher's own conversation). */
export async function addMaterialLink(
  db: Db,
  conversationId: string,
  messageId: string,
  link: AssistantMaterialLink,
): Promise<void> {
  await db
    .update(assistantMessages)
    .set({
      details: sql`jsonb_set(${assistantMessages.details}, '{materials}', coalesce(${assistantMessages.details}->'materials', '[]'::jsonb) || ${JSON.stringify([link])}::jsonb)`,
    })
    .where(
      and(
        eq(assistantMessages.id, messageId),
        eq(assistantMessages.conversationId, conversationId),
        eq(assistantMessages.role, 'assistant'),
      ),
    );
}

/* Chat tokens: each is exchanged once. */

/** Records a token's use; false when it was used before. */
export async function useChatToken(db: Db, jti: string, expiresAt: Date): Promise<boolean> {
  const rows = await db
    .insert(assistantTokenUses)
    .values({ jti, expiresAt })
    .onConflictDoNothing()
    .returning({ jti: assistantTokenUses.jti });
  return rows.length > 0;
}

export async function pruneChatTokenUses(db: Db): Promise<void> {
  await db.delete(assistantTokenUses).where(lt(assistantTokenUses.expiresAt, sql`now()`));
}

/* Retrieval over chapter paragraphs (the chapter_paragraphs index, kept by a trigger). */

export interface ParagraphHit {
  bookUrl: string;
  bookTitle: string;
  chapterUrl: string;
  chapterTitle: string;
  n: number;
  text: string;
}

/**
 * Paragraphs matching a tsquery (as `to_tsquery('english', …)` text), best first by cover
 * density, within one book or chapter when given. An empty query lists a book's paragraphs in
 * order (its opening). Ties keep the text's order.
 */
export async function searchParagraphs(
  db: Db,
  tsquery: string,
  scope: { bookId?: number | undefined; chapterIndex?: number | undefined },
  limit: number,
): Promise<ParagraphHit[]> {
  const conditions = [
    scope.bookId !== undefined ? sql`p.book_id = ${scope.bookId}` : sql`true`,
    scope.chapterIndex !== undefined ? sql`p.chapter_index = ${scope.chapterIndex}` : sql`true`,
  ];
  const query = tsquery
    ? sql`
      WITH q AS (SELECT to_tsquery('english', ${tsquery}) AS q),
      hits AS (
        -- Ranks on the vectors alone; the texts of the few best are read afterwards.
        SELECT p.book_id, p.chapter_index, p.n, ts_rank_cd(p.search, q.q) AS rank
        FROM chapter_paragraphs p, q
        WHERE p.search @@ q.q AND ${conditions[0]} AND ${conditions[1]}
        ORDER BY rank DESC, p.book_id, p.chapter_index, p.n
        LIMIT ${limit}
      )
      SELECT b.url AS "bookUrl", b.title AS "bookTitle", c.url AS "chapterUrl", c.title AS "chapterTitle", h.n, t.text
      FROM hits h
      JOIN chapter_paragraphs t ON t.book_id = h.book_id AND t.chapter_index = h.chapter_index AND t.n = h.n
      JOIN book_chapters c ON c.book_id = h.book_id AND c.index = h.chapter_index
      JOIN books b ON b.id = h.book_id
      ORDER BY h.rank DESC, h.book_id, h.chapter_index, h.n`
    : sql`
      SELECT b.url AS "bookUrl", b.title AS "bookTitle", c.url AS "chapterUrl", c.title AS "chapterTitle", p.n, p.text
      FROM chapter_paragraphs p
      JOIN book_chapters c ON c.book_id = p.book_id AND c.index = p.chapter_index
      JOIN books b ON b.id = p.book_id
      WHERE ${conditions[0]} AND ${conditions[1]} AND length(p.text) > 200
      ORDER BY p.chapter_index, p.n
      LIMIT ${limit}`;
  const result = await db.execute(query);
  return rowsOf<ParagraphHit>(result).map((r) => ({ ...r, n: Number(r.n) }));
}

/** The best-matching paragraph of each book that has one, best books first. */
export async function searchBooksByText(
  db: Db,
  tsquery: string,
  limit: number,
): Promise<Array<ParagraphHit & { bookId: number }>> {
  const result = await db.execute(sql`
    WITH q AS (SELECT to_tsquery('english', ${tsquery}) AS q),
    ranked AS (
      SELECT p.book_id, p.chapter_index, p.n, p.text, ts_rank_cd(p.search, q.q) AS rank,
        row_number() OVER (PARTITION BY p.book_id ORDER BY ts_rank_cd(p.search, q.q) DESC, p.chapter_index, p.n) AS nth
      FROM chapter_paragraphs p, q
      WHERE p.search @@ q.q
    )
    SELECT r.book_id AS "bookId", b.url AS "bookUrl", b.title AS "bookTitle", c.url AS "chapterUrl", c.title AS "chapterTitle", r.n, r.text
    FROM ranked r
    JOIN book_chapters c ON c.book_id = r.book_id AND c.index = r.chapter_index
    JOIN books b ON b.id = r.book_id
    WHERE r.nth = 1
    ORDER BY r.rank DESC, b.download_count DESC
    LIMIT ${limit}`);
  return rowsOf<ParagraphHit & { bookId: number }>(result).map((r) => ({
    ...r,
    n: Number(r.n),
    bookId: Number(r.bookId),
  }));
}

/** The books whose text the catalogue holds: what a message can name ("Letter 1 of Frankenstein"). */
export function listBooksWithText(db: Db) {
  return db
    .select({ id: books.id, url: books.url, title: books.title, authors: books.authors })
    .from(books)
    .where(sql`${books.chapterCount} > 0`);
}

export async function findBookId(db: Db, url: string): Promise<number | undefined> {
  const [row] = await db.select({ id: books.id }).from(books).where(eq(books.url, url)).limit(1);
  return row?.id;
}
