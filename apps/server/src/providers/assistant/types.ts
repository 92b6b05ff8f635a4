import type { MaterialDocument } from '@chapterwise/shared';

/** A paragraph an answer can quote: from a catalogue chapter or from the teacher's pasted text. */
export interface Passage {
  source: 'chapter' | 'text';
  /** Paragraph number in its chapter or text, from 1 (the chapter page's `#p-N`). */
  paragraph: number;
  text: string;
  bookUrl?: string;
  bookTitle?: string;
  chapterUrl?: string;
  chapterTitle?: string;
}

/** A book of the catalogue, as the assistant names and links it. */
export interface BookHit {
  url: string;
  title: string;
  author: string;
  /** Chapters whose text the catalogue holds (0: the book is listed without its text). */
  chapterCount: number;
  /** A passage of the book that matches the topic, when one does. */
  passage?: Passage;
}

/** What the conversation is about, resolved: titles, and the whole text for a chapter or a pasted text. */
export interface TurnContext {
  kind: 'any' | 'book' | 'chapter' | 'text';
  /** "Letter 1 of Frankenstein", "the text you pasted", "Frankenstein". */
  label: string;
  book?: { url: string; title: string; author: string };
  chapter?: { url: string; title: string; readingGrade: number };
  /** The chapter's or pasted text (chapter and text contexts). */
  text?: string;
}

export interface TextMeasure {
  words: number;
  sentences: number;
  /** Flesch–Kincaid grade. */
  grade: number;
  minutes: number;
}

/** What engines may use: the catalogue, retrieval and the material generator. */
export interface AssistantTools {
  /** Full-text search over chapter paragraphs, best first (within a book or chapter when given). */
  searchPassages(
    query: string,
    scope: { bookUrl?: string | undefined; chapterUrl?: string | undefined },
    limit?: number,
  ): Promise<Passage[]>;
  /** Catalogue search for "find books about X", with a matching passage for books that have text. */
  findBooks(topic: string, limit?: number): Promise<BookHit[]>;
  /** The book (and chapter) a message names, e.g. "Letter 1 of Frankenstein"; null when none. */
  resolveMention(message: string): Promise<TurnContext | null>;
  /** A chapter's context (its whole text); null when the catalogue has no such chapter. */
  loadChapter(bookUrl: string, chapterUrl: string): Promise<TurnContext | null>;
  /**
   * The material generator's document for a text, not stored and not charged: the questions,
   * vocabulary and key passages it writes, each checked against the text by its quality gate.
   */
  generate(
    request: { type: string; description: string; text: string; grade: string },
    signal?: AbortSignal,
  ): Promise<MaterialDocument>;
  /** Length and Flesch–Kincaid grade of a text. */
  measure(text: string): TextMeasure;
}

/** One turn: the teacher's message, the conversation so far and what it is about. */
export interface AssistantTurn {
  message: string;
  history: Array<{ role: 'user' | 'assistant'; content: string }>;
  context: TurnContext;
  /** The class's grade for the chat's actions. */
  grade: string;
}

/** Where an engine writes its answer while it is being made. */
export interface AnswerSink {
  /** A piece of the answer's Markdown, sent to the teacher at once. */
  write(markdown: string): void;
  /** Registers a cited passage; returns its number for "[n]" in the answer. */
  cite(passage: Passage): number;
  /** The engine found what the teacher is talking about (a book or chapter named in the message). */
  useContext(context: TurnContext): void;
}

/**
 * One way of answering teachers: `local` (offline: understood requests answered from the text
 * and the material generator) or `openai` (an OpenAI-compatible chat model with the retrieved
 * passages as data). Both write Markdown through the sink and cite passages through it.
 */
export interface AssistantEngine {
  readonly name: 'local' | 'openai';
  answer(
    turn: AssistantTurn,
    tools: AssistantTools,
    sink: AnswerSink,
    signal: AbortSignal,
  ): Promise<void>;
}

/** An answer that could not be made; the message is for the teacher. */
export class AssistantEngineError extends Error {
  constructor(
    message: string,
    readonly code: 'UNAVAILABLE' | 'RATE_LIMITED' | 'BAD_GATEWAY' = 'UNAVAILABLE',
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AssistantEngineError';
  }
}
