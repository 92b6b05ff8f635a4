import { describe, expect, it } from 'vitest';
import { analyse } from './analyse.js';
import { optionFitsBlank, personOptions, verbFitsBlank } from './swaps.js';

// Sentences written for these tests and the gen-q dev passages (not held-out text).
const STORY = [
  'Nora lived with her grandfather in a stone cottage by the sea.',
  'Grandpa Tom was quiet for a long moment.',
  'The old lantern hung from a tall iron pole.',
  'The steps were wet and slippery.',
  'She pulled on her heavy coat and ran down to the beach.',
  'The waves were high, and the boats were safe.',
  'The captain bowed and shook her hand.',
  'He said a few words to the crowd.',
  'The other half stays dark.',
  'Something happens every night.',
].join(' ');

const BIOGRAPHY = [
  'Mary Anning was born in 1799.',
  'Mary taught herself to read scientific papers.',
  'She kept searching for fossils.',
  'Her father, Richard Anning, collected fossils.',
  'Richard died in 1810, and his debts were large.',
  'A year later, Joseph found a strange skull.',
  'He showed it to his sister.',
].join(' ');

describe('every cloze option fits the blank as the key does (issue 22, trivial)', () => {
  it('offers describing words for a describing word, not nouns such as "stone" or "iron"', () => {
    const a = analyse(STORY);
    expect(optionFitsBlank(a, 'adjective', 'quiet', 'stone')).toBe(false);
    expect(optionFitsBlank(a, 'adjective', 'quiet', 'iron')).toBe(false);
    expect(optionFitsBlank(a, 'adjective', 'quiet', 'slippery')).toBe(true);
  });

  it('offers nouns of the key’s number for a noun', () => {
    const a = analyse(STORY);
    expect(optionFitsBlank(a, 'noun', 'lantern', 'boats')).toBe(false);
    expect(optionFitsBlank(a, 'noun', 'lantern', 'cottage')).toBe(true);
    expect(optionFitsBlank(a, 'noun', 'waves', 'boats')).toBe(true);
  });

  it('offers verbs used in the same frame (with an object, a describing word, or none)', () => {
    const a = analyse(STORY);
    const bowed = a.sentences.find((s) => s.text.startsWith('The captain'))!;
    const at = bowed.tokens.find((t) => t.value === 'bowed')!.start;
    expect(verbFitsBlank(a, bowed, at, 'said')).toBe(false);
    const dark = a.sentences.find((s) => s.text.startsWith('The other half'))!;
    const stays = dark.tokens.find((t) => t.value === 'stays')!.start;
    expect(verbFitsBlank(a, dark, stays, 'happens')).toBe(false);
  });

  it('offers no two names of one person, and only names of the gender the sentence shows', () => {
    const a = analyse(BIOGRAPHY);
    const options = personOptions(a, '_____ taught herself to read scientific papers.', 'Mary', [
      'Joseph',
      'Richard Anning',
    ]);
    expect(options).toEqual([]);
    const names = personOptions(a, 'A year later, _____ found a strange skull.', 'Joseph', [
      'Richard',
      'Richard Anning',
      'Mary Anning',
    ]);
    expect(names).toEqual(['Richard', 'Mary Anning']);
  });
});
