import { splitParagraphs } from '@chapterwise/shared';
import { normaliseForMatch } from '../../llm/quality.js';
import type { Passage } from '../types.js';

/** A paragraph of the text an answer is about, and where it is. */
export class SourceParagraph {
  private cached: string | undefined;
  constructor(
    readonly at: Omit<Passage, 'text'>,
    readonly text: string,
  ) {}

  /** The text with quotes, dashes, whitespace and case evened out (made when first needed). */
  get normalised(): string {
    this.cached ??= normaliseForMatch(this.text);
    return this.cached;
  }
}

export interface Sentence {
  text: string;
  /** Index of its paragraph in the source. */
  p: number;
  /** Position in the whole source, for keeping the text's order. */
  order: number;
  words: number;
}

const ABBREVIATIONS = /(?:\b(?:Mr|Mrs|Ms|Dr|St|Sr|Jr|Mt|Capt|Col|Gen|Rev|vs|etc|No|M))$/;

/** Sentences of a paragraph: ends at . ! ? (and closing quotes) before a capital, abbreviations kept. */
export function splitSentences(paragraph: string): string[] {
  const flat = paragraph.replace(/\s+/g, ' ').trim();
  const out: string[] = [];
  let start = 0;
  const re = /[.!?]+[”"’')\]]*\s+(?=[“"‘'([]?[A-Z0-9])/g;
  for (const match of flat.matchAll(re)) {
    const end = (match.index ?? 0) + match[0].length;
    const candidate = flat.slice(start, end).trim();
    if (ABBREVIATIONS.test(candidate.replace(/[.!?]+[”"’')\]]*$/, ''))) continue;
    out.push(candidate);
    start = end;
  }
  const rest = flat.slice(start).trim();
  if (rest) out.push(rest);
  return out;
}

/**
 * The text an answer quotes: a chapter, a pasted text, or passages retrieved from a book, as
 * numbered paragraphs that know where they are, so any quote can be traced to its paragraph.
 */
export class Source {
  readonly paragraphs: SourceParagraph[];
  readonly text: string;
  private sentenceCache: Sentence[] | undefined;

  constructor(paragraphs: Array<{ at: Omit<Passage, 'text'>; text: string }>) {
    this.paragraphs = paragraphs
      .filter((p) => p.text.trim())
      .map((p) => new SourceParagraph(p.at, p.text));
    this.text = this.paragraphs.map((p) => p.text).join('\n\n');
  }

  /** A whole chapter or pasted text, numbered as the chapter page numbers it. */
  static ofText(text: string, at: Omit<Passage, 'text' | 'paragraph'>): Source {
    return new Source(
      splitParagraphs(text).map((p, i) => ({ at: { ...at, paragraph: i + 1 }, text: p })),
    );
  }

  static ofPassages(passages: Passage[]): Source {
    return new Source(passages.map(({ text, ...at }) => ({ at, text })));
  }

  get words(): number {
    return this.text.split(/\s+/).filter(Boolean).length;
  }

  /** The passage that holds a quote (whitespace, quotation marks and case evened out), or null. */
  locate(quote: string): Passage | null {
    const needle = normaliseForMatch(quote).replace(/^[\s"'([{-]+|[\s"')\]}.,;:!?-]+$/g, '');
    if (!needle) return null;
    const found = this.paragraphs.find((p) => p.normalised.includes(needle));
    return found ? { ...found.at, text: quote } : null;
  }

  sentences(): Sentence[] {
    if (!this.sentenceCache) {
      const all: Sentence[] = [];
      this.paragraphs.forEach((p, i) => {
        // Headings, illustrations and notes are not sentences to quote.
        if (/^\s*\[/.test(p.text)) return;
        for (const text of splitSentences(p.text)) {
          const words = text.split(' ').length;
          all.push({ text, p: i, order: all.length, words });
        }
      });
      this.sentenceCache = all;
    }
    return this.sentenceCache;
  }

  passageOf(sentence: Sentence): Passage {
    return { ...this.paragraphs[sentence.p]!.at, text: sentence.text };
  }
}
