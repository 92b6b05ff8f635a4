import { describe, expect, it } from 'vitest';
import { buildPlan } from '../plan.js';
import { ReferenceIndex } from '../quality.js';
import { analyse } from './analyse.js';
import { seededRandom, type WriterContext } from './common.js';
import { writeSupported, writeTrueFalse } from './questions.js';
import {
  fixArticles,
  genderOf,
  insideCompound,
  numberSwapFalse,
  oppositeFits,
  personSwapFits,
  placeSwapFits,
  statementNeedsReferent,
  subjectNeedsReferent,
  swapContradicted,
} from './swaps.js';

// Sentences written for these tests (and for the dev passages added with them), not held-out text.
const STORY = [
  'Nora lived with her grandfather in a stone cottage at the edge of a fishing village.',
  'Every evening, Grandpa Tom rowed out to Gull Rock and lit the old lantern.',
  'One afternoon in November, Grandpa Tom slipped on the wet steps of the cottage and hurt his ankle.',
  'Nora looked out of the window.',
  'Grandpa Tom was quiet for a long moment.',
  'Nora pulled on her heavy coat and ran down to the beach.',
  'She crouched behind the pole and cupped her hands around the third match.',
  'Far out at sea, she saw three fishing boats turn slowly toward the safe channel.',
  'Grandpa Tom was waiting at the window with a blanket around his shoulders.',
].join(' ');

const BIOGRAPHY = [
  'Mary Anning was born in 1799 in Lyme Regis, a small town on the southern coast of England.',
  'Her father, Richard, was a carpenter who made cabinets.',
  'In 1810, Richard Anning died, and the family was left with large debts.',
  'Mary was only eleven years old, but she kept searching for fossils because her family needed the money.',
  'A year later, Joseph found a strange skull in the cliffs.',
  'He showed it to his sister.',
  'Mary spent months digging out the rest of the skeleton.',
  'The animal was more than five meters long and looked like a mixture of a fish and a lizard.',
  'Mary taught herself to read scientific papers.',
  'Visiting scientists were surprised that a young woman with little schooling understood the animals so well.',
  'Five years later, Mary found the first flying reptile ever discovered in Britain.',
  'Mary Anning died in 1847, at the age of forty-seven.',
].join(' ');

const MOON = [
  'The Moon takes about twenty-nine and a half days to go through all of its phases.',
  'The Moon does not make its own light.',
  'Like Earth, it is a ball of rock, and it shines only because sunlight falls on it.',
  'At every moment, the Sun lights up one half of the Moon, while the other half stays dark.',
  'The cycle begins with the new moon.',
  'After the full moon, the lit part shrinks night by night.',
  'The Moon itself does not change at all.',
  'No one had seen the far side of the Moon until 1959.',
].join(' ');

const RAILROAD = [
  'The Union Pacific Railroad would start near Omaha, Nebraska, and build west.',
  'The Central Pacific Railroad would start in Sacramento, California, and build east.',
  'On May 10, 1869, the two lines met at Promontory Summit in Utah.',
  'In cities from New York to San Francisco, people rang bells and fired cannons.',
  'Leland Stanford, the president of the Central Pacific, tapped a golden spike into the last tie.',
  'Travelers could sail around South America or risk a short but dangerous crossing through Panama.',
  'Today large parts of the prairie are farms.',
].join(' ');

function contextFor(text: string): WriterContext {
  const request = {
    name: 'Swaps test',
    subject: 'English',
    grade: '6th Grade (Year 7)',
    type: 'Quiz',
    referenceText: text,
    descriptionText: '',
  };
  return {
    analysis: analyse(text),
    plan: buildPlan(request as Parameters<typeof buildPlan>[0]),
    reference: new ReferenceIndex(text),
    random: seededRandom('swaps'),
    usedSentences: new Set(),
    usedAnswers: new Set(),
    stats: { distractorRejections: 0 },
  };
}

function sentence(ctx: WriterContext, start: string) {
  const s = ctx.analysis.sentences.find((x) => x.text.startsWith(start));
  if (!s) throw new Error(`no sentence "${start}"`);
  return s;
}

function indexOf(ctx: WriterContext, start: string, word: string) {
  const s = sentence(ctx, start);
  const i = s.tokens.findIndex((t) => t.value === word);
  if (i < 0) throw new Error(`no "${word}"`);
  return { s, i };
}

/** Every false statement a writer makes from a text, over several seeds. */
function falseStatements(text: string): string[] {
  const out: string[] = [];
  for (const seed of ['a', 'b', 'c', 'd', 'e', 'f']) {
    const ctx = { ...contextFor(text), random: seededRandom(seed) };
    for (const q of writeTrueFalse(ctx, 8)) if (!q.answer) out.push(q.prompt);
    const ctx2 = { ...contextFor(text), random: seededRandom(seed) };
    for (const q of writeSupported(ctx2, 2))
      q.choices.forEach((c, i) => i !== q.answerIndex && out.push(c));
  }
  return out;
}

describe('false statements stay grammatical (issue 22, nonsense)', () => {
  it('swaps an opposite only where it reads naturally', () => {
    const moon = contextFor(MOON);
    const own = indexOf(moon, 'The Moon does not make', 'light');
    expect(oppositeFits(own.s, own.i, 'heavy')).toBe(false); // "its own heavy"
    const full = indexOf(moon, 'After the full moon', 'full');
    expect(oppositeFits(full.s, full.i, 'empty')).toBe(false); // "the empty moon"
    const dark = indexOf(moon, 'At every moment', 'dark');
    expect(oppositeFits(dark.s, dark.i, 'light')).toBe(true); // "stays light"
    const bio = contextFor(BIOGRAPHY);
    const long = indexOf(bio, 'The animal was more than', 'long');
    expect(oppositeFits(long.s, long.i, 'short')).toBe(false); // "five meters short"
    const story = contextFor(STORY);
    const moment = indexOf(story, 'Grandpa Tom was quiet', 'long');
    expect(oppositeFits(moment.s, moment.i, 'short')).toBe(false); // "a short moment"
    const wet = indexOf(story, 'One afternoon', 'wet');
    expect(oppositeFits(wet.s, wet.i, 'dry')).toBe(true);
    const rail = contextFor(RAILROAD);
    const pair = indexOf(rail, 'Travelers could', 'short');
    expect(oppositeFits(pair.s, pair.i, 'long')).toBe(false); // "long but dangerous"
    const parts = indexOf(rail, 'Today large parts', 'large');
    expect(oppositeFits(parts.s, parts.i, 'small')).toBe(false); // "small parts" is true too
  });

  it('fixes the article before a swapped word', () => {
    expect(fixArticles('surprised that a old woman with an heavy coat')).toBe(
      'surprised that an old woman with a heavy coat',
    );
    expect(fixArticles('A hour later, an useful tool')).toBe('An hour later, a useful tool');
  });

  it('swaps a person only to one of the same gender when a pronoun refers to them', () => {
    const bio = contextFor(BIOGRAPHY);
    const people = ['Mary', 'Joseph', 'Richard Anning'];
    expect(genderOf(bio.analysis, 'Mary')).toBe('f');
    expect(
      personSwapFits(bio.analysis, 'Mary taught herself to read.', 'Mary', 'Joseph', people),
    ).toBe(false);
    expect(
      personSwapFits(
        bio.analysis,
        'Mary spent months digging out the rest.',
        'Mary',
        'Joseph',
        people,
      ),
    ).toBe(true);
    // "Mary" and "Mary Anning" are one person; a name not among the passage's people is no swap.
    expect(
      personSwapFits(bio.analysis, 'Mary spent months digging.', 'Mary', 'Mary Anning', [
        ...people,
        'Mary Anning',
      ]),
    ).toBe(false);
    expect(
      personSwapFits(bio.analysis, 'Mary spent months digging.', 'Mary', 'Lyme Regis', people),
    ).toBe(false);
    const story = contextFor(STORY);
    expect(genderOf(story.analysis, 'Grandpa Tom')).toBe('m');
    const cast = ['Nora', 'Grandpa Tom'];
    expect(
      personSwapFits(
        story.analysis,
        'Nora lived with her grandfather in a cottage.',
        'Nora',
        'Grandpa Tom',
        cast,
      ),
    ).toBe(false);
    // A state ("was quiet") said of one person is not denied of another.
    expect(
      personSwapFits(
        story.analysis,
        'Grandpa Tom was quiet for a long moment.',
        'Grandpa Tom',
        'Nora',
        cast,
      ),
    ).toBe(false);
  });

  it('calls a swapped statement false only when the passage contradicts it', () => {
    const story = contextFor(STORY);
    // Grandpa Tom is at the window later in the story.
    const window = sentence(story, 'Nora looked out');
    expect(swapContradicted(story.analysis, window, 'Nora', 'Grandpa Tom')).toBe(false);
    const bio = contextFor(BIOGRAPHY);
    const dig = sentence(bio, 'Mary spent months');
    expect(swapContradicted(bio.analysis, dig, 'Mary', 'Joseph')).toBe(true);
    // Bounds and approximations: "more than five" → "more than eleven" is not contradicted.
    expect(numberSwapFalse('more than five meters long', 'five', 'eleven')).toBe(false);
    expect(numberSwapFalse('fewer than fifty survive today', 'fifty', 'two')).toBe(false);
    expect(numberSwapFalse('On May 10, 1869, the lines met', '10', '11')).toBe(false);
    expect(numberSwapFalse('covers about five million square kilometers', 'five', 'six')).toBe(
      false,
    );
    expect(numberSwapFalse('a journey could take six months', 'six', 'two')).toBe(true);
    expect(insideCompound('about twenty-nine and a half days', 'twenty')).toBe(true);
  });

  it('swaps a place only where it stands as a place of its own', () => {
    const rail = contextFor(RAILROAD);
    const a = rail.analysis;
    expect(
      placeSwapFits(a, 'would start near Omaha, Nebraska, and build west.', 'Omaha', 'Sacramento'),
    ).toBe(false);
    expect(
      placeSwapFits(a, 'the two lines met at Promontory Summit in Utah.', 'Utah', 'Sacramento'),
    ).toBe(false);
    expect(
      placeSwapFits(
        a,
        'In cities from New York to San Francisco, people rang bells.',
        'New York',
        'Sacramento',
      ),
    ).toBe(false);
    expect(
      placeSwapFits(
        a,
        'Leland Stanford, the president of the Central Pacific, tapped a spike.',
        'Central Pacific',
        'Utah',
      ),
    ).toBe(false);
  });

  it('never makes the garbled statements found on the dev passages', () => {
    const all = [
      ...falseStatements(STORY),
      ...falseStatements(BIOGRAPHY),
      ...falseStatements(MOON),
      ...falseStatements(RAILROAD),
    ];
    expect(all.length).toBeGreaterThan(4);
    for (const text of all) {
      expect(text).not.toMatch(/\ba [aeiou]/i);
      expect(text).not.toMatch(/Joseph taught herself|Grandpa Tom lived with her|Nora was quiet/);
      expect(text).not.toMatch(
        /own heavy|empty moon|meters short|nine-nine|short moment|does change at all/,
      );
      expect(text).not.toMatch(
        /from Sacramento to|near Sacramento, Nebraska|more than (?!five)\w+ meters/,
      );
      expect(text).not.toMatch(/^(?:Like Earth, )?it is/i);
    }
  });
});

describe('statements name what they are about (issue 22, referents)', () => {
  it('skips a statement that leans on another sentence anywhere in it', () => {
    const text = [
      'No one had ever bargained with him before.',
      'People learned to slow them down by drying food.',
      'Ships carried this ice from New England as far as India.',
      'Inside the refrigerator, it passes through coils.',
      'Nora pulled on her heavy coat and ran down to the beach.',
      'Some oases have supported towns for more than a thousand years.',
    ].join(' ');
    const ctx = contextFor(text);
    const needs = (start: string) => statementNeedsReferent(sentence(ctx, start));
    expect(needs('No one had')).toBe(true);
    expect(needs('People learned')).toBe(true);
    expect(needs('Ships carried')).toBe(true);
    expect(needs('Inside the refrigerator')).toBe(true);
    expect(needs('Nora pulled')).toBe(false);
    expect(numberSwapFalse('for more than a thousand years', 'thousand', 'hundred')).toBe(false);
  });

  it('keeps a contrast and never leaves an emphatic "does" behind', () => {
    const text =
      'The system worked, but it was expensive. The modern refrigerator does not make cold. Ice was heavy.';
    const all = falseStatements(text);
    for (const t of all) {
      expect(t).not.toMatch(/but it was cheap|does make cold/);
    }
  });

  it('skips a sentence whose subject points to another sentence', () => {
    const moon = contextFor(MOON);
    expect(subjectNeedsReferent(sentence(moon, 'Like Earth, it is'))).toBe(true);
    expect(subjectNeedsReferent(sentence(moon, 'The Moon does not'))).toBe(false);
    const bio = contextFor(BIOGRAPHY);
    expect(subjectNeedsReferent(sentence(bio, 'Her father, Richard'))).toBe(true);
    expect(subjectNeedsReferent(sentence(bio, 'Visiting scientists'))).toBe(false);
  });
});
