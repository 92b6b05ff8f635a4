import { describe, expect, it } from 'vitest';
import { analyse, type Sentence } from './analyse.js';
import {
  blankGivenAway,
  compoundPartInSentence,
  inSetExpression,
  inTitle,
  passingDetail,
} from './blanks.js';
import { seededRandom, type WriterContext } from './common.js';
import { buildPlan } from '../plan.js';
import { ReferenceIndex } from '../quality.js';
import { writeFillBlank } from './questions.js';

// Sentences written for these tests (CC0); none is taken from an evaluation passage.
const MILL = [
  'Farmers carried their grain to the windmill on the hill above the village.',
  'In summer the miller cut reeds from the marsh and stacked them in the boathouse by the boat ramp.',
  'The wind turned the sails, and the sails turned the heavy millstone.',
  'Glaciers move slowly, but a moving glacier can carve a whole valley.',
  'A beekeeper named Ilse kept her hives beside the orchard.',
].join(' ');

const analysis = analyse(MILL);

function sentenceWith(start: string): Sentence {
  const s = analysis.sentences.find((x) => x.text.startsWith(start));
  if (!s) throw new Error(`no sentence "${start}"`);
  return s;
}

function target(s: Sentence, word: string, kind: 'noun' | 'verb' | 'adjective' = 'noun') {
  const start = s.text.indexOf(word);
  if (start < 0) throw new Error(`no "${word}"`);
  return { answer: word, start, kind };
}

describe('blanks the heading gives away', () => {
  it('turns down the title word in any of its forms', () => {
    expect(inTitle('How Glaciers Move', 'moving', 'move', 'verb')).toBe(true);
    expect(inTitle('How Glaciers Move', 'glacier', 'glacier', 'noun')).toBe(true);
    expect(inTitle('The Age of Windmills', 'windmill', 'windmill', 'noun')).toBe(true);
  });

  it('keeps words the heading does not name, and derived words of another meaning', () => {
    expect(inTitle('How Glaciers Move', 'valley', 'valley', 'noun')).toBe(false);
    expect(inTitle('Why Rivers Flood', 'flooding', 'flooding', 'noun')).toBe(true);
    expect(inTitle('Antique Clocks', 'antiquity', 'antiquity', 'noun')).toBe(false);
    expect(inTitle('', 'valley', 'valley', 'noun')).toBe(false);
  });

  it('keeps a kind of person the title names (a character, not the topic)', () => {
    expect(inTitle('The Beekeeper and the Bear', 'beekeeper', 'beekeeper', 'noun')).toBe(false);
    expect(inTitle('The Miller and the Bear', 'miller', 'miller', 'noun')).toBe(false);
    expect(inTitle('The Miller and the Bear', 'bear', 'bear', 'noun')).toBe(true);
  });

  it('applies through blankGivenAway with the material name', () => {
    const s = sentenceWith('Glaciers move slowly');
    expect(blankGivenAway(s, target(s, 'glacier'), 'How Glaciers Move Quiz')).toBe(
      'word of the heading',
    );
    expect(blankGivenAway(s, target(s, 'valley'), 'How Glaciers Move Quiz')).toBeNull();
  });
});

describe('compounds whose part stands in the same sentence', () => {
  it('turns down "boathouse" next to "boat ramp"', () => {
    const s = sentenceWith('In summer the miller');
    const at = s.tokens.findIndex((t) => t.value === 'boathouse');
    expect(compoundPartInSentence(s, at)).toBe(true);
    expect(blankGivenAway(s, target(s, 'boathouse'))).toBe('part of it in its sentence');
  });

  it('keeps a compound whose parts the sentence does not show', () => {
    const s = sentenceWith('The wind turned the sails');
    const at = s.tokens.findIndex((t) => t.value === 'millstone');
    expect(compoundPartInSentence(s, at)).toBe(false);
    const farm = sentenceWith('Farmers carried');
    expect(
      compoundPartInSentence(
        farm,
        farm.tokens.findIndex((t) => t.value === 'windmill'),
      ),
    ).toBe(false);
  });

  it('does not count a function word as the part ("after" in "afternoon")', () => {
    const a = analyse('We rested after lunch and slept through the long afternoon in the barn.');
    const s = a.sentences[0]!;
    expect(
      compoundPartInSentence(
        s,
        s.tokens.findIndex((t) => t.value === 'afternoon'),
      ),
    ).toBe(false);
  });

  it('leaves names and numbers to the other gates', () => {
    const s = sentenceWith('A beekeeper named Ilse');
    expect(
      blankGivenAway(s, { answer: 'Ilse', start: s.text.indexOf('Ilse'), kind: 'person' }, 'Ilse'),
    ).toBeNull();
  });
});

describe('words of a longer set expression', () => {
  const a = analyse(
    'The sailors fell in love with the island at first sight. From every point of view the harbour looked safe.',
  );
  const [love, view] = a.sentences;

  it('turns down a word the rest of a listed expression gives ("fell in _____")', () => {
    const at = love!.tokens.findIndex((t) => t.value === 'love');
    expect(inSetExpression(love!, at)).toBe('fall in love');
    const v = view!.tokens.findIndex((t) => t.value === 'view');
    expect(inSetExpression(view!, v)).toBe('point of view');
  });

  it('keeps a word outside any such expression', () => {
    const at = view!.tokens.findIndex((t) => t.value === 'harbour');
    expect(inSetExpression(view!, at)).toBeNull();
    const island = love!.tokens.findIndex((t) => t.value === 'island');
    expect(inSetExpression(love!, island)).toBeNull();
  });
});

describe('what someone wears, or a part of the body, in passing', () => {
  const a = analyse(
    'Grandmother buttoned her coat and walked to the station with the parcel. ' +
      'The porter rubbed his elbow and lifted the parcel onto the train.',
  );
  const [coat, elbow] = a.sentences;
  const at = (s: Sentence, w: string) => s.tokens.findIndex((t) => t.value === w);

  it('turns down "buttoned her _____" and "rubbed his _____" named once', () => {
    expect(passingDetail(coat!, at(coat!, 'coat'), 1)).toBe(true);
    expect(passingDetail(elbow!, at(elbow!, 'elbow'), 1)).toBe(true);
    expect(
      blankGivenAway(
        coat!,
        { answer: 'coat', start: coat!.text.indexOf('coat'), kind: 'noun' },
        '',
        a,
      ),
    ).toBe('worn or body part in passing');
  });

  it('keeps them when the text comes back to them, and other things after "her"', () => {
    expect(passingDetail(coat!, at(coat!, 'coat'), 3)).toBe(false);
    expect(passingDetail(coat!, at(coat!, 'parcel'), 1)).toBe(false);
    expect(passingDetail(elbow!, at(elbow!, 'train'), 1)).toBe(false);
  });
});

const GLACIERS = [
  'A glacier is a huge mass of ice that moves slowly over land.',
  'Snow falls on high mountains year after year and presses down on the older layers beneath it.',
  'Over centuries the buried snow turns into dense blue ice.',
  'The surveyor Ingrid Halvorsen measured the speed of one glacier in Norway.',
  'She hammered wooden stakes into the ice in a straight line across the valley.',
  'A year later the stakes in the middle had travelled farther than the stakes near the edges.',
  'Halvorsen and her assistant Piet Maas repeated the survey every summer for ten years.',
  'Maas kept the notebooks, and Halvorsen drew careful maps of the moving ice.',
  'As a glacier grinds forward, it scrapes boulders and gravel from the valley floor.',
  'When the climate warms, the glacier melts faster than snow can replace it.',
  'The melting ice leaves behind long ridges of rubble called moraines.',
  'Each autumn the village council sent a sled to fetch Maas from the ice camp, and Halvorsen stayed to finish her maps.',
  'Farmers in the valley still plough around the boulders that the retreating glacier dropped.',
].join(' ');

function worksheetContext(text: string, name: string): WriterContext {
  const request = {
    name,
    subject: 'Science',
    grade: '6th Grade (Year 7)',
    type: 'Worksheet',
    referenceText: text,
    descriptionText: '',
  };
  return {
    analysis: analyse(text),
    plan: buildPlan(request as Parameters<typeof buildPlan>[0]),
    reference: new ReferenceIndex(text),
    random: seededRandom('blanks'),
    usedSentences: new Set(),
    usedAnswers: new Set(),
    stats: { distractorRejections: 0 },
    title: name,
  };
}

describe('fill in the blank', () => {
  it('asks neither the heading word nor a person to recall by name', () => {
    const plain = writeFillBlank(worksheetContext(GLACIERS, 'Worksheet'), 6).map((q) => q.answer);
    expect(plain).toContain('notebooks');
    const ctx = worksheetContext(GLACIERS, 'The Survey Notebooks');
    const items = writeFillBlank(ctx, 6);
    expect(items.length).toBeGreaterThanOrEqual(plain.length - 1);
    for (const q of items) {
      expect(q.answer.toLowerCase()).not.toMatch(/^notebook|^survey/);
      expect(q.answer).not.toMatch(/Halvorsen|Maas|Ingrid|Piet/);
    }
  });
});
