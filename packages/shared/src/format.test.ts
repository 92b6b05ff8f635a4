import { describe, expect, it } from 'vitest';
import { formatAuthorName, formatCents, formatShortDate } from './format.js';

describe('formatAuthorName', () => {
  it.each([
    ['Austen, Jane', 'Jane Austen'],
    ['Shelley, Mary Wollstonecraft', 'Mary Wollstonecraft Shelley'],
    ['Carroll, Lewis', 'Lewis Carroll'],
    ['Twain, Mark (Samuel Langhorne Clemens)', 'Mark Twain'],
    ['Doyle, Arthur Conan, Sir', 'Arthur Conan Doyle Sir'],
    ['King, Martin Luther, Jr.', 'Martin Luther King Jr.'],
    ['Homer', 'Homer'],
    ['Anonymous (Unknown)', 'Anonymous'],
    ['United States', 'United States'],
    ['', ''],
  ])('%s → %s', (input, expected) => {
    expect(formatAuthorName(input)).toBe(expected);
  });
});

describe('formatShortDate', () => {
  it('shows a short US date with a three-letter month', () => {
    expect(formatShortDate('2024-03-04T12:00:00Z')).toBe('Mar 4, 2024');
  });
  it('gives an empty string for an invalid date', () => {
    expect(formatShortDate('not a date')).toBe('');
  });
});

describe('formatCents', () => {
  it('divides by 100 and shows dollars', () => {
    expect(formatCents(999)).toBe('$9.99');
    expect(formatCents(1000)).toBe('$10.00');
  });
});
