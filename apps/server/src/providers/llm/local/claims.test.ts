import { describe, expect, it } from 'vitest';
import { analyse } from './analyse.js';
import { hasFiniteVerb, notAClaim, unresolvedPronoun } from './claims.js';

// Our own sentences, not taken from any evaluation passage.
const sentence = (text: string) => analyse(text).sentences[0]!;
const none = () => false;

describe('true/false statements are claims (notAClaim)', () => {
  it('turns down questions and exclamations, even inside closing quotation marks', () => {
    expect(notAClaim(sentence('Who could have built a bridge so long?'))).toBe('question');
    expect(notAClaim(sentence('How bright the harbour looked that night!'))).toBe('exclamation');
    expect(notAClaim(sentence('The baker shut the shop early, and nobody knew why!”'))).toBe(
      'exclamation',
    );
  });

  it('turns down a cry or an address that opens with an interjection', () => {
    expect(notAClaim(sentence('O the cold grey stones where the sailor sleeps.'))).toBe(
      'interjection',
    );
    expect(notAClaim(sentence('Alas, the little boat was gone before the dawn.'))).toBe(
      'interjection',
    );
  });

  it('turns down a fragment of verse: an opening "not", or no finite verb', () => {
    expect(notAClaim(sentence('Not though the miller knew the wheel had cracked.'))).toBe(
      'fragment',
    );
    expect(notAClaim(sentence('Ours not to wonder, ours but to plough and sow.'))).toBe('fragment');
    expect(notAClaim(sentence('Far over the hills and the shining lakes of the north.'))).toBe(
      'fragment',
    );
  });

  it('keeps plain statements, inverted ones and those with a verb after "to"', () => {
    expect(notAClaim(sentence('The miller sold his mill to pay the debt.'))).toBeNull();
    expect(notAClaim(sentence('Over the hill came the farmer with his cart.'))).toBeNull();
    expect(notAClaim(sentence('The girls had to walk to school in the snow.'))).toBeNull();
  });

  it('finds a finite verb after infinitives joined by "and"', () => {
    expect(hasFiniteVerb(sentence('To plough and sow kept the farmer busy all spring.'))).toBe(
      true,
    );
    expect(hasFiniteVerb(sentence('Only to plough and sow, and never to rest.'))).toBe(false);
  });
});

describe('a pronoun needs someone before it in the statement (unresolvedPronoun)', () => {
  it('finds "he" or "her" with no person or animal named before it', () => {
    expect(unresolvedPronoun('Slowly, along the lane, he carries the heavy sacks.', none)).toBe(
      'he',
    );
    expect(unresolvedPronoun('Green were her gloves, like the leaves of spring.', none)).toBe(
      'her',
    );
  });

  it('accepts a name, the narrator, or a noun for a person or an animal', () => {
    const named = (w: string) => w === 'Tilda';
    expect(unresolvedPronoun('Tilda packed her bag before the train left.', named)).toBeNull();
    expect(unresolvedPronoun('The narrator closed his book.', none)).toBeNull();
    expect(unresolvedPronoun('The fisherman mended his nets on the beach.', none)).toBeNull();
    expect(unresolvedPronoun('The old fox hid his food under the leaves.', none)).toBeNull();
  });

  it('lets "it" or "they" stand for any thing named before them', () => {
    expect(unresolvedPronoun('The kettle boiled until it was dry.', none)).toBeNull();
    expect(unresolvedPronoun('Quickly and quietly they loaded the wagons.', none)).toBe('they');
  });
});
