import { describe, expect, it } from 'vitest';
import { createMaterialGenerator } from '../index.js';
import { analyse, isVerseText, joinVerseLines } from './analyse.js';
import { standAloneStatement } from './common.js';

// Our own short poem: four-line stanzas, sentences running across lines and joined by
// semicolons, as a teacher pastes a poem for a class.
const KITE = `My sister keeps a paper kite that hangs behind the door,
And every windy afternoon she takes it to the shore;
She runs along the empty sand until the string pulls tight,
And then the kite goes up so high it nearly leaves her sight.

One Sunday, just before the rain, the string slipped from her hand;
The kite flew out across the bay and never came to land.
My sister watched the water long, and then she wiped her eyes;
She folded up a brand-new kite of twice the size.

Now every windy afternoon she ties the string with care,
And I go with her to the shore to hold it in the air.`;

const generator = createMaterialGenerator({ provider: 'local', timeoutMs: 4000, localThreads: 0 });

describe('verse read across its line breaks (a short poem gets a quiz)', () => {
  it('knows verse from prose by its short lines that end no sentence', () => {
    expect(isVerseText(KITE)).toBe(true);
    expect(
      isVerseText(
        'The river rose all night.\nBy morning the bridge was gone.\nNobody could cross.\n'.repeat(3),
      ),
    ).toBe(false);
  });

  it("lower-cases a line's opening capital after a comma or dash, not I or a name", () => {
    expect(joinVerseLines('She waved to me, And then to Tom, And Tom waved back;')).toBe(
      'She waved to me, and then to Tom, and Tom waved back.',
    );
    expect(joinVerseLines('It grew so tall-- Taller than I, I thought.')).toBe(
      'It grew so tall-- taller than I, I thought.',
    );
  });

  it('splits a stanza at its semicolons into sentences of their own, still found in the text', () => {
    const a = analyse(KITE);
    const texts = a.sentences.map((s) => s.text);
    expect(texts).toContain(
      'She runs along the empty sand until the string pulls tight, and then the kite goes up so high it nearly leaves her sight.',
    );
    expect(texts).toContain('The kite flew out across the bay and never came to land.');
    for (const s of a.sentences) {
      // Token offsets still point at the words of the sentence text.
      for (const t of s.tokens) expect(s.text.slice(t.start, t.end)).toBe(t.value);
      expect(s.words).toBeLessThan(30);
    }
  });

  it('leaves prose sentences with a semicolon whole', () => {
    const prose =
      'The ferry left at noon; Maya missed it by a minute. She waited on the pier for the next one, which came at three. It was a long afternoon, but she read her book.';
    expect(analyse(prose).sentences[0]!.text).toBe(
      'The ferry left at noon; Maya missed it by a minute.',
    );
  });

  it('does not guess what "I\'d" stands for in a statement', () => {
    const a = analyse("I'd rather walk along the sand than ride the bus to town.");
    expect(standAloneStatement(a.sentences[0]!)).toBeNull();
  });

  it('makes a quiz of several checked questions from the short poem', async () => {
    const doc = await generator.generate({
      name: 'Verse quiz',
      subject: 'English',
      grade: '4th Grade (Year 5)',
      type: 'Quiz',
      referenceText: KITE,
      descriptionText: '',
    });
    const questions = doc.sections.flatMap((s) => s.questions);
    expect(questions.length).toBeGreaterThanOrEqual(3);
  });
});
