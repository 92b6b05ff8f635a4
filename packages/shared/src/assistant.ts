import './zod-setup.js';
import { z } from 'zod';
import { GRADES, REFERENCE_TEXT_MAX_CHARS } from './materials.js';

/*
 * The AI Teaching Assistant: a chat grounded in the catalogue's chapters. The chat site opens
 * at `/assistant?a=TOKEN` (the dashboard's short-lived chat token), exchanges the token for a
 * chat session, and talks to `/api/v1/assistant/*`.
 */

/** Limits of the chat, checked by the composer and by the API. */
export const ASSISTANT_LIMITS = {
  /** One message of the teacher, in characters. */
  messageChars: 4000,
  /** A pasted text the chat is about (the generator's limit: a long chapter). */
  pastedTextChars: REFERENCE_TEXT_MAX_CHARS,
  /** A conversation's title. */
  titleChars: 120,
  /** A pasted text's label. */
  labelChars: 120,
  /** Conversations listed (newest first). */
  conversations: 200,
} as const;

/** The grade the chat's actions use until the teacher picks one. */
export const ASSISTANT_DEFAULT_GRADE = '8th Grade (Year 9)';

/** What the chat page shows without a token or with an expired one (and its heading). */
export const ASSISTANT_NO_SESSION_TITLE = 'Open the assistant from your dashboard';

/** The material types the chat's "Make a … from this" actions offer. */
export const ASSISTANT_MATERIAL_TYPES = ['Quiz', 'Lesson', 'Worksheet'] as const;

/* ------------------------------------------------------------------------------------------ */
/* Paragraphs of a chapter: one numbering for the chapter page's anchors and the assistant.   */
/* ------------------------------------------------------------------------------------------ */

/**
 * A chapter's text as the paragraphs the chapter page shows, in order: paragraph N (from 1) is
 * `splitParagraphs(text)[N - 1]` and has the anchor `p-N`. The database's paragraph index
 * splits the same way (`regexp_split_to_table(text, '\n{2,}')`).
 */
export function splitParagraphs(text: string): string[] {
  return text.split(/\n{2,}/);
}

/** The anchor of paragraph `n` (from 1) on a chapter page. */
export function paragraphAnchor(n: number): string {
  return `p-${n}`;
}

/** The link to one paragraph of a chapter: `/book/{url}/{chapterUrl}#p-N`. */
export function passageHref(bookUrl: string, chapterUrl: string, paragraph: number): string {
  return `/book/${encodeURIComponent(bookUrl)}/${encodeURIComponent(chapterUrl)}#${paragraphAnchor(paragraph)}`;
}

/* ------------------------------------------------------------------------------------------ */
/* Contracts                                                                                   */
/* ------------------------------------------------------------------------------------------ */

const shortText = (max: number) =>
  z.string().trim().min(1, 'is required').max(max, `must be at most ${max} characters`);

/** What a conversation is about: anything, a book, a chapter, or a text the teacher pasted. */
export const AssistantContextInputSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('any') }),
  z.object({ kind: z.literal('book'), bookUrl: shortText(300) }),
  z.object({ kind: z.literal('chapter'), bookUrl: shortText(300), chapterUrl: shortText(300) }),
  z.object({
    kind: z.literal('text'),
    label: z.string().trim().max(ASSISTANT_LIMITS.labelChars).default(''),
    text: z
      .string()
      .trim()
      .min(1, 'is required')
      .max(
        ASSISTANT_LIMITS.pastedTextChars,
        `must be at most ${ASSISTANT_LIMITS.pastedTextChars.toLocaleString('en-US')} characters`,
      ),
  }),
]);
export type AssistantContextInput = z.input<typeof AssistantContextInputSchema>;

/** A context as the API answers it: titles resolved; a pasted text's words only in lists. */
export const AssistantContextSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('any') }),
  z.object({ kind: z.literal('book'), bookUrl: z.string(), bookTitle: z.string() }),
  z.object({
    kind: z.literal('chapter'),
    bookUrl: z.string(),
    bookTitle: z.string(),
    chapterUrl: z.string(),
    chapterTitle: z.string(),
  }),
  z.object({
    kind: z.literal('text'),
    label: z.string(),
    words: z.number().int().nonnegative(),
    /** Present when one conversation is read; left out of lists. */
    text: z.string().optional(),
  }),
]);
export type AssistantContext = z.infer<typeof AssistantContextSchema>;

/** A passage an answer cites, with where it is. */
export const AssistantCitationSchema = z.object({
  /** The number the answer uses for it ("[1]"). */
  n: z.number().int().positive(),
  quote: z.string(),
  /** Paragraph number in its chapter (or in the pasted text), from 1. */
  paragraph: z.number().int().positive(),
  source: z.enum(['chapter', 'text']),
  bookUrl: z.string().optional(),
  bookTitle: z.string().optional(),
  chapterUrl: z.string().optional(),
  chapterTitle: z.string().optional(),
  /** `/book/{url}/{chapterUrl}#p-N` for chapters. */
  href: z.string().optional(),
});
export type AssistantCitation = z.infer<typeof AssistantCitationSchema>;

/** Each quotation in an answer, looked up word for word in the text it claims to quote. */
export const AssistantQuoteCheckSchema = z.object({ quote: z.string(), found: z.boolean() });
export type AssistantQuoteCheck = z.infer<typeof AssistantQuoteCheckSchema>;

export const AssistantMaterialLinkSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
});
export type AssistantMaterialLink = z.infer<typeof AssistantMaterialLinkSchema>;

export const ASSISTANT_MESSAGE_STATUSES = ['complete', 'stopped', 'failed'] as const;

export const AssistantMessageSchema = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  /** Markdown (the page renders it without raw HTML). */
  content: z.string(),
  status: z.enum(ASSISTANT_MESSAGE_STATUSES),
  citations: z.array(AssistantCitationSchema),
  quoteChecks: z.array(AssistantQuoteCheckSchema),
  /** Materials made from this answer with "Make a … from this". */
  materials: z.array(AssistantMaterialLinkSchema),
  /** Which engine wrote it: "local" or "openai". */
  engine: z.string().optional(),
  createdAt: z.string(),
});
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>;

export const AssistantConversationSchema = z.object({
  id: z.string(),
  title: z.string(),
  grade: z.string(),
  context: AssistantContextSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AssistantConversation = z.infer<typeof AssistantConversationSchema>;

export const AssistantSessionBodySchema = z.object({
  token: z.string().trim().min(1, 'is required').max(4000),
});
export const AssistantSessionAnswerSchema = z.object({
  user: z.object({ firstName: z.string(), username: z.string() }),
  engine: z.string(),
  /** The product's address, for links back from a chat site on another origin. */
  publicUrl: z.string(),
});
export type AssistantSessionAnswer = z.infer<typeof AssistantSessionAnswerSchema>;

export const CreateConversationBodySchema = z.object({
  title: z.string().trim().max(ASSISTANT_LIMITS.titleChars).optional(),
  context: AssistantContextInputSchema.optional(),
  grade: z.enum(GRADES).optional(),
});
export const UpdateConversationBodySchema = z.object({
  title: shortText(ASSISTANT_LIMITS.titleChars).optional(),
  context: AssistantContextInputSchema.optional(),
  grade: z.enum(GRADES).optional(),
});
export const ConversationsAnswerSchema = z.object({ data: z.array(AssistantConversationSchema) });
export const ConversationAnswerSchema = z.object({
  conversation: AssistantConversationSchema,
  messages: z.array(AssistantMessageSchema),
});
export type ConversationAnswer = z.infer<typeof ConversationAnswerSchema>;

export const SendMessageBodySchema = z.object({
  content: z
    .string()
    .trim()
    .max(
      ASSISTANT_LIMITS.messageChars,
      `must be at most ${ASSISTANT_LIMITS.messageChars.toLocaleString('en-US')} characters`,
    )
    .default(''),
  /** Answer the last question again (the previous answer is replaced); `content` is ignored. */
  retry: z.boolean().default(false),
});

export const MakeMaterialBodySchema = z.object({
  type: z.enum(ASSISTANT_MATERIAL_TYPES),
  /** The answer the button was under; the material is linked from it. */
  messageId: z.uuid().optional(),
});
export const MakeMaterialAnswerSchema = z.object({
  materialId: z.string(),
  name: z.string(),
  type: z.string(),
});
export const AssistantMaterialStatusSchema = z.object({
  finished: z.boolean(),
  status: z.string(),
  error: z.string().optional(),
});

/**
 * The events of a streamed answer (`text/event-stream`, one JSON object per `data:` line):
 * `start` (the saved question), `delta` (a piece of the answer's Markdown), `citation`, then
 * `done` (the saved answer) or `error`.
 */
export type AssistantStreamEvent =
  | {
      type: 'start';
      userMessage: AssistantMessage | null;
      messageId: string;
      conversation: AssistantConversation;
    }
  | { type: 'delta'; text: string }
  | { type: 'citation'; citation: AssistantCitation }
  | { type: 'done'; message: AssistantMessage; conversation: AssistantConversation }
  | { type: 'error'; message: string; code: string };
