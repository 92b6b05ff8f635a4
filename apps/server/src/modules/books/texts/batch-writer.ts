import type { PreparedText } from '../text/prepare.js';

/** A prepared text waiting to be stored. */
export interface PreparedBook {
  bookId: number;
  prepared: PreparedText;
  source: string;
  bytes: number;
}

/** Books a batch holds at most, and characters of text (a few MB per transaction). */
export const BATCH_BOOKS = 16;
const BATCH_CHARS = 16_000_000;

function textLength(prepared: PreparedText): number {
  let n = 0;
  for (const c of prepared.chapters) n += c.text.length;
  return n;
}

/**
 * Stores prepared books in batches: `add` resolves once its book is committed. While one
 * batch is written, the books that become ready wait and go together in the next one, so the
 * batches grow exactly when storing is the bottleneck. A batch that fails is written again
 * book by book, so one bad book fails alone.
 */
export class BatchWriter {
  private readonly queue: Array<{ book: PreparedBook; resolve(): void; reject(e: unknown): void }> =
    [];
  private writing = false;

  constructor(private readonly write: (books: PreparedBook[]) => Promise<void>) {}

  add(book: PreparedBook): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ book, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length > 0) {
        let chars = 0;
        let n = 0;
        while (n < this.queue.length && n < BATCH_BOOKS) {
          const size = textLength(this.queue[n]!.book.prepared);
          if (n > 0 && chars + size > BATCH_CHARS) break;
          chars += size;
          n++;
        }
        const batch = this.queue.splice(0, n);
        try {
          await this.write(batch.map((b) => b.book));
          for (const b of batch) b.resolve();
        } catch (error) {
          if (batch.length === 1) {
            batch[0]!.reject(error);
            continue;
          }
          for (const b of batch) {
            await this.write([b.book]).then(b.resolve, b.reject);
          }
        }
      }
    } finally {
      this.writing = false;
    }
  }
}
