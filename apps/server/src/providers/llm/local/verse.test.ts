import { describe, expect, it } from 'vitest';
import { createMaterialGenerator } from '../index.js';
import { analyse, isVerseText, joinVerseLines, midLineCapitals } from './analyse.js';
import { seededRandom, standAloneStatement, type WriterContext } from './common.js';
import { buildPlan } from '../plan.js';
import { ReferenceIndex } from '../quality.js';
import { incidental, paraphrase, personifiedThing, statementOf } from './questions.js';
import { detectGenre } from './genre.js';

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
        'The river rose all night.\nBy morning the bridge was gone.\nNobody could cross.\n'.repeat(
          3,
        ),
      ),
    ).toBe(false);
  });

  it("lower-cases a line's opening capital after a comma or dash, not I or a name", () => {
    const names = midLineCapitals('She waved to Tom and me,\nAnd then Tom waved back;');
    expect(names.has('Tom')).toBe(true);
    expect(names.has('And')).toBe(false);
    expect(joinVerseLines('She waved to me, And then to Tom, Tom waved back;', names)).toBe(
      'She waved to me, and then to Tom, Tom waved back.',
    );
    expect(joinVerseLines('It grew so tall-- Taller than I, I thought.')).toBe(
      'It grew so tall-- taller than I, I thought.',
    );
    // A line that ends on a word, and a name of two capitalised words at a line's start.
    expect(joinVerseLines('The gulls fly high Above the bay, Captain Reed beside them.')).toBe(
      'The gulls fly high above the bay, Captain Reed beside them.',
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

  it('takes no verse line without a finite verb for a statement', () => {
    const a = analyse(
      'Across the meadow drifting slow, over the fence and into the lane.\nThe dog barked at the gate.',
    );
    const ctx = {
      analysis: a,
      plan: buildPlan({ type: 'Quiz', grade: '4th Grade (Year 5)', descriptionText: '' }),
      reference: new ReferenceIndex(a.prepared.body),
      random: seededRandom('v'),
      usedSentences: new Set<number>(),
      usedAnswers: new Set<string>(),
      stats: { distractorRejections: 0 },
    } as unknown as WriterContext;
    expect(statementOf(ctx, a.sentences[0]!)).toBeNull();
    expect(statementOf(ctx, a.sentences[1]!)).toBe('The dog barked at the gate.');
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

describe('true statements of sentences that matter (issue 22, trivial)', () => {
  const first = (text: string, i = 0) => analyse(text).sentences[i]!;
  it('keeps back a story opening, a scene-setting line and a plain description of a thing', () => {
    const story =
      'Long ago there lived a potter in a village by the river. The road to the market was long and dusty. One spring the potter decided to sell her bowls in the city. She was afraid of the crowds, but she went anyway.';
    expect(incidental(first(story, 0), true)).toBe(true);
    expect(incidental(first(story, 1), true)).toBe(true);
    expect(incidental(first(story, 2), true)).toBe(false);
    expect(incidental(first(story, 3), true)).toBe(false);
  });

  it('never keeps back a cause, a person described or an informational opening', () => {
    expect(incidental(first('The bridge was closed because the river was high.'), false)).toBe(
      false,
    );
    expect(incidental(first('The boat came in at noon. Tomas was tall and quiet.', 1), true)).toBe(
      false,
    );
    expect(
      incidental(first('Bees carry pollen from one flower to the next. They need nectar.'), false),
    ).toBe(false);
  });
});

describe('a poem that speaks of a thing as "he"', () => {
  it('names the thing the poem repeats in a true statement about "he"', () => {
    const poem = `The wind came down the hill last night
And rattled every pane;
He shook the apple tree so hard
It dropped its fruit like rain.

I heard the wind around the barn,
I heard him at the door;
He is the loudest thing I heard
In all the world before.

At dawn the wind was tired out
And slept upon the sea;
I ran outside to see the tree,
And not one apple left for me.`;
    const a = analyse(poem);
    const ctx = {
      analysis: a,
      plan: buildPlan({ type: 'Quiz', grade: '4th Grade (Year 5)', descriptionText: '' }),
      reference: new ReferenceIndex(a.prepared.body),
      random: seededRandom('w'),
      usedSentences: new Set<number>(),
      usedAnswers: new Set<string>(),
      stats: { distractorRejections: 0 },
    } as unknown as WriterContext;
    detectGenre(a, poem);
    expect(personifiedThing(ctx)).toBe('the wind');
    const s = a.sentences.find((x) => x.text.startsWith('He is the loudest'))!;
    expect(statementOf(ctx, s)).toBe(
      'The wind is the loudest thing the narrator heard in all the world before.',
    );
  });
});

describe('a true statement not copied word for word', () => {
  it('moves an opening time phrase to the end', () => {
    const a = analyse(
      'The potter lived by the river. One spring, the potter sold her bowls in the city. That night, the river rose over the road, so nobody came.',
    );
    const ctx = {
      analysis: a,
      plan: buildPlan({ type: 'Quiz', grade: '4th Grade (Year 5)', descriptionText: '' }),
      reference: new ReferenceIndex(a.prepared.body),
      random: seededRandom('p'),
      usedSentences: new Set<number>(),
      usedAnswers: new Set<string>(),
      stats: { distractorRejections: 0 },
    } as unknown as WriterContext;
    const s = a.sentences[1]!;
    expect(paraphrase(ctx, s, s.text)).toBe('The potter sold her bowls in the city one spring.');
    // More than one clause after it: left as it is.
    const t = a.sentences[2]!;
    expect(paraphrase(ctx, t, t.text)).toBe(t.text);
  });
});
