import { describe, expect, it } from 'vitest';
import type { Question, QuestionKind } from '@chapterwise/shared';
import { rebalanced } from './mix.js';

/** `n` questions of a kind (multiple choice with the given form). */
function qs(kind: QuestionKind, n: number, form = 'wh'): Question[] {
  return Array.from(
    { length: n },
    (_, i) => ({ id: `${kind}${i}`, kind, form }) as unknown as Question,
  );
}

describe('moving the places of a default mix', () => {
  const counts = { multiple_choice: 5, true_false: 3, short_answer: 2 };

  it('keeps the counts when every kind fills its places well', () => {
    const written = {
      multiple_choice: [...qs('multiple_choice', 3), ...qs('multiple_choice', 3, 'cloze')],
      true_false: qs('true_false', 4),
      short_answer: qs('short_answer', 3),
    };
    expect(rebalanced(counts, written, 4)).toEqual(counts);
  });

  it('gives places a kind cannot fill to short answers first', () => {
    const written = {
      multiple_choice: qs('multiple_choice', 2),
      true_false: qs('true_false', 6),
      short_answer: qs('short_answer', 4),
    };
    // Three multiple-choice places are free: two to short answers (all they wrote), one to
    // true/false (one at most).
    expect(rebalanced(counts, written, 4)).toEqual({
      multiple_choice: 2,
      true_false: 4,
      short_answer: 4,
    });
  });

  it('counts blanks past the cloze budget as places not filled well', () => {
    const written = {
      multiple_choice: qs('multiple_choice', 7, 'cloze'),
      true_false: qs('true_false', 3),
      short_answer: qs('short_answer', 4),
    };
    // Budget 3: two multiple-choice places would hold blanks past it; short answers take them.
    expect(rebalanced(counts, written, 3)).toEqual({
      multiple_choice: 3,
      true_false: 3,
      short_answer: 4,
    });
  });

  it('lets true/false grow by one place at most, and returns the rest', () => {
    const written = {
      multiple_choice: qs('multiple_choice', 1),
      true_false: qs('true_false', 10),
      short_answer: [],
    };
    // Six places free (four of multiple choice, two of short answer); true/false takes one, the
    // rest go back to multiple choice, where spare blanks may fill them.
    const out = rebalanced(counts, written, 4);
    expect(out).toEqual({ multiple_choice: 5, true_false: 4, short_answer: 1 });
    expect(Object.values(out).reduce((a, b) => a + (b ?? 0), 0)).toBe(10);
  });

  it('leaves a mix of one movable kind alone', () => {
    const only = { multiple_choice: 10 };
    expect(rebalanced(only, { multiple_choice: qs('multiple_choice', 2) }, 4)).toEqual(only);
  });
});
