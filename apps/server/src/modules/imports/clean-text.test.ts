import { describe, expect, it } from 'vitest';
import {
  capText,
  cleanImportedText,
  joinHyphenatedLines,
  normaliseCharacters,
  reflowLines,
  removePageFurniture,
  tidyWhitespace,
} from './clean-text.js';

describe('cleaning imported text', () => {
  it('makes one kind of space and line end, and drops invisible characters', () => {
    expect(normaliseCharacters('a\u00A0b\r\nc\rd\u200Be\u00ADf\uFEFF\u0007g')).toBe('a b\nc\ndefg');
    expect(normaliseCharacters('\uFB01sh and \uFB02ower')).toBe('fish and flower');
  });

  it('joins words hyphenated at a line end, but not compounds inside a line', () => {
    expect(joinHyphenatedLines('This pro-\ncess works')).toBe('This process works');
    expect(joinHyphenatedLines('This pro-\n\ncess works')).toBe('This process works');
    expect(joinHyphenatedLines('a well-known fact')).toBe('a well-known fact');
    // A capital after the break is a new sentence or a name: kept apart.
    expect(joinHyphenatedLines('North-\nAmerica')).toBe('North-\nAmerica');
  });

  it('flows wrapped lines back into paragraphs and keeps list items apart', () => {
    expect(
      reflowLines(
        'The sun warms the\nsurface of lakes.\nIt rains,\nThen it snows.\n● First item\n• Second item',
      ),
    ).toBe(
      'The sun warms the surface of lakes.\nIt rains, Then it snows.\n- First item\n- Second item',
    );
  });

  it('joins a sentence across one empty line, but not after a full stop', () => {
    expect(reflowLines('it takes place in the\n\nleaves. Oxygen')).toBe(
      'it takes place in the leaves. Oxygen',
    );
    expect(reflowLines('The end.\n\nnext paragraph')).toBe('The end.\n\nnext paragraph');
  });

  it('tidies spaces and keeps at most one empty line', () => {
    expect(tidyWhitespace('  a   b \t c  \n\n\n\n d  ')).toBe('a b c\n\nd');
  });

  it('drops running headers and page numbers found on most pages', () => {
    const pages = [
      ['Grade 5 Science Unit 4', 'The Water Cycle', 'Water moves.', 'Page 1'],
      ['Grade 5 Science Unit 4', 'Key words', 'Vapour is a gas.', 'Page 2 of 3'],
      ['Grade 5 Science Unit 4', 'Quiz', 'Where does rain come from?', '- 3 -'],
    ];
    expect(removePageFurniture(pages)).toEqual([
      ['The Water Cycle', 'Water moves.'],
      ['Key words', 'Vapour is a gas.'],
      ['Quiz', 'Where does rain come from?'],
    ]);
  });

  it('keeps a line that recurs but is not at a page edge, and leaves a single page alone', () => {
    const pages = [
      ['Intro', 'Rain', 'Remember: water is precious.', 'Snow', 'Hail'],
      ['Next', 'Fog', 'Remember: water is precious.', 'Dew', 'Frost'],
    ];
    expect(removePageFurniture(pages)).toEqual(pages);
    expect(removePageFurniture([['Only page header', 'text']])).toEqual([
      ['Only page header', 'text'],
    ]);
  });

  it('does not take ordinary words for roman page numbers', () => {
    const pages = [
      ['mix', 'civic duty', 'x'],
      ['dim', 'text', 'iv'],
    ];
    expect(removePageFurniture(pages)).toEqual([
      ['mix', 'civic duty'],
      ['dim', 'text'],
    ]);
  });

  it('cleans a paged PDF text end to end', () => {
    const pages = [
      ['Unit 4', 'The sun warms the', 'surface of lakes. This pro-', 'cess is evaporation.', '1'],
      ['Unit 4', 'Clouds form when vapour', 'cools.', '2'],
    ];
    expect(cleanImportedText('', { pages, reflow: true })).toBe(
      'The sun warms the surface of lakes. This process is evaporation.\n\nClouds form when vapour cools.',
    );
  });
});

describe('capping at the reference-text limit', () => {
  it('leaves short text alone', () => {
    expect(capText('short', 10)).toEqual({ text: 'short', truncated: false });
  });

  it('cuts at a paragraph or sentence end near the limit', () => {
    const text = `${'First sentence here. '.repeat(40)}\n\n${'More words. '.repeat(40)}`;
    const capped = capText(text, 1000);
    expect(capped.truncated).toBe(true);
    expect(capped.text.length).toBeLessThanOrEqual(1000);
    expect(capped.text.endsWith('.')).toBe(true);
  });

  it('never splits a surrogate pair', () => {
    const text = `${'a'.repeat(9)}😀${'b'.repeat(10)}`;
    const capped = capText(text, 10);
    expect(capped.text).toBe('a'.repeat(9));
  });
});
