import { describe, expect, it } from 'vitest';
import { slugify } from './slug.js';

describe('slugify (the spec slug rule)', () => {
  it.each([
    ['Science Fiction', 'science-fiction'],
    ["Children's Literature", 'children-s-literature'],
    ['Folklore & Mythology', 'folklore-mythology'],
    ['  Leading and trailing!  ', 'leading-and-trailing'],
    ['CHAPTER I. Down the Rabbit-Hole', 'chapter-i-down-the-rabbit-hole'],
    ['Brontë, Charlotte', 'bronte-charlotte'],
    ['1984', '1984'],
    ['---', ''],
  ])('%s → %s', (input, expected) => {
    expect(slugify(input)).toBe(expected);
  });
});
