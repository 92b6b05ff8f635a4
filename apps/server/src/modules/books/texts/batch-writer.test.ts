import { describe, expect, it } from 'vitest';
import type { PreparedText } from '../text/prepare.js';
import { BATCH_BOOKS, BatchWriter, type PreparedBook } from './batch-writer.js';

const book = (bookId: number): PreparedBook => ({
  bookId,
  source: `pg${bookId}.txt`,
  bytes: 10,
  prepared: {
    chapters: [
      {
        index: 1,
        title: 'Part 1',
        url: 'part-1',
        text: 'Some words.',
        wordCount: 2,
        readingMinutes: 1,
        readingGrade: 1,
      },
    ],
    totals: { wordCount: 2, readingMinutes: 1, readingGrade: 1 },
  } satisfies PreparedText,
});

describe('BatchWriter (the bulk loader stores several books per transaction)', () => {
  it('writes the books that wait while a batch is written together, at most BATCH_BOOKS', async () => {
    const batches: number[][] = [];
    const writer = new BatchWriter(async (books) => {
      batches.push(books.map((b) => b.bookId));
      await new Promise((r) => setTimeout(r, 20));
    });
    const ids = Array.from({ length: BATCH_BOOKS + 5 }, (_, i) => i + 1);
    await Promise.all(ids.map((id) => writer.add(book(id))));
    // The first book goes alone (nothing else was waiting); the others queue meanwhile.
    expect(batches).toEqual([[1], ids.slice(1, BATCH_BOOKS + 1), ids.slice(BATCH_BOOKS + 1)]);
  });

  it('writes a failed batch again book by book, so only the bad book fails', async () => {
    const written: number[] = [];
    const writer = new BatchWriter(async (books) => {
      await new Promise((r) => setTimeout(r, 5));
      if (books.some((b) => b.bookId === 3)) throw new Error('bad row');
      written.push(...books.map((b) => b.bookId));
    });
    const results = await Promise.allSettled([1, 2, 3, 4].map((id) => writer.add(book(id))));
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect(written.sort()).toEqual([1, 2, 4]);
  });
});
