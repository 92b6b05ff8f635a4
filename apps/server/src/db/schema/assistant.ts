import { sql } from 'drizzle-orm';
import {
  customType,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type {
  AssistantCitation,
  AssistantMaterialLink,
  AssistantQuoteCheck,
} from '@chapterwise/shared';
import { bookChapters } from './books.js';
import { users } from './users.js';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/** What a conversation is about, as stored (with the titles it had when it was chosen). */
export type StoredAssistantContext =
  | { kind: 'any' }
  | { kind: 'book'; bookUrl: string; bookTitle: string }
  | {
      kind: 'chapter';
      bookUrl: string;
      bookTitle: string;
      chapterUrl: string;
      chapterTitle: string;
    }
  | { kind: 'text'; label: string; text: string };

/** A teacher's conversation with the AI Teaching Assistant. Only its teacher reads it. */
export const assistantConversations = pgTable(
  'assistant_conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    grade: text('grade').notNull(),
    context: jsonb('context').$type<StoredAssistantContext>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('assistant_conversations_user_idx').on(t.userId, t.updatedAt.desc())],
);

export interface AssistantMessageDetails {
  citations: AssistantCitation[];
  quoteChecks: AssistantQuoteCheck[];
  materials: AssistantMaterialLink[];
  engine?: string;
}

/** One message of a conversation; `details` holds an answer's citations, checks and materials. */
export const assistantMessages = pgTable(
  'assistant_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => assistantConversations.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['user', 'assistant'] }).notNull(),
    content: text('content').notNull(),
    status: text('status', { enum: ['complete', 'stopped', 'failed'] })
      .notNull()
      .default('complete'),
    details: jsonb('details')
      .$type<AssistantMessageDetails>()
      .notNull()
      .default({ citations: [], quoteChecks: [], materials: [] }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('assistant_messages_conversation_idx').on(t.conversationId, t.createdAt)],
);

/**
 * Chat tokens already exchanged (their `jti`), so each opens one chat session only. Rows are
 * kept until the token would have expired anyway.
 */
export const assistantTokenUses = pgTable('assistant_token_uses', {
  jti: text('jti').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * Every chapter's paragraphs (numbered from 1 as the chapter page's `#p-N` anchors), with a
 * full-text vector: what the assistant retrieves passages from. Kept in step with
 * `book_chapters` by a trigger (migration), so every importer path fills it.
 */
export const chapterParagraphs = pgTable(
  'chapter_paragraphs',
  {
    bookId: integer('book_id').notNull(),
    chapterIndex: integer('chapter_index').notNull(),
    n: integer('n').notNull(),
    text: text('text').notNull(),
    search: tsvector('search').generatedAlwaysAs(sql`to_tsvector('english'::regconfig, text)`),
  },
  (t) => [
    primaryKey({ columns: [t.bookId, t.chapterIndex, t.n] }),
    foreignKey({
      columns: [t.bookId, t.chapterIndex],
      foreignColumns: [bookChapters.bookId, bookChapters.index],
    })
      .onDelete('cascade')
      .onUpdate('cascade'),
    index('chapter_paragraphs_search_idx').using('gin', t.search),
  ],
);

export type AssistantConversationRow = typeof assistantConversations.$inferSelect;
export type AssistantMessageRow = typeof assistantMessages.$inferSelect;
