import { describe, expect, it } from 'vitest';
import { ReferenceIndex } from '../quality.js';
import { buildPlan } from '../plan.js';
import { analyse } from './analyse.js';
import { seededRandom, type WriterContext } from './common.js';
import { namesCausesOnly } from './discussion-info.js';
import { detectGenre } from './genre.js';
import { commonNounToo, hasEvents, statesLesson, whoLearns, writeLesson } from './lesson.js';
import { carriesWeight, keyClaim, writeDiscussion } from './questions.js';

// Written for these tests (issues 13 and 22, "vague" lesson items).
const first = (text: string) => analyse(text).sentences[0]!;
const second = (text: string) => analyse(`Rivers shape the land. ${text}`).sentences[1]!;

function context(text: string, grade = '5th Grade (Year 6)'): WriterContext {
  const analysis = analyse(text);
  detectGenre(analysis, text);
  return {
    analysis,
    plan: buildPlan({ grade, type: 'Lesson', descriptionText: '' }),
    reference: new ReferenceIndex(text),
    random: seededRandom('test'),
    usedSentences: new Set(),
    usedAnswers: new Set(),
  };
}

const kite = `Tomas had a green kite with a long paper tail. On Saturday he carried it up the hill behind the school.
The wind was strong, and the kite rose quickly above the trees. Tomas laughed and let out more string.
Then a gust pulled the string from his hands. The kite drifted away over the rooftops, and Tomas could not catch it.
He sat down on the grass and cried. After a while his sister Lena came up the hill with a ball of string.
They walked along the street until they found the kite caught in an old oak tree. Lena climbed up and freed it.
From that day Tomas learned to tie the string around his wrist before he ran.`;

const lamp = `My lamp is small and round and bright.
It sits beside my bed at night.
Its light is yellow, soft and warm,
And keeps me safe from every storm.
I like to read beneath its glow,
Until my eyes are heavy and slow.`;

describe('sentences that carry weight', () => {
  it('a turning point carries weight; a routine step or a scene-setting opening does not', () => {
    expect(carriesWeight(first('Suddenly the ice cracked under his boots and he fell.'))).toBe(
      true,
    );
    expect(carriesWeight(first('Maria decided to walk home alone through the forest.'))).toBe(true);
    expect(carriesWeight(first('He wanted to win, but his legs were too tired.'))).toBe(true);
    expect(carriesWeight(first('He opened the drawer of the desk.'))).toBe(false);
    expect(carriesWeight(first('Once upon a time there lived a baker named Hugo.'))).toBe(false);
  });

  it('a key claim of an explanation, not a naming, a short topic sentence or a side fact', () => {
    expect(
      keyClaim(second('Without the roots, the soil would wash away in the first heavy rain.')),
    ).toBe(true);
    expect(keyClaim(second('Floods spread mud over the fields, which helps the crops grow.'))).toBe(
      true,
    );
    expect(keyClaim(second('A boat called a barge carries coal along the river.'))).toBe(false);
    expect(keyClaim(second('Rivers are a big help to farms.'))).toBe(false);
    expect(keyClaim(second('Many rivers are home to otters, herons and eels.'))).toBe(false);
  });

  it('a sentence naming causes without giving one is no cause-and-effect prompt', () => {
    expect(namesCausesOnly('The causes of the famine were both old and new.')).toBe(true);
    expect(namesCausesOnly('There were several causes of the strike.')).toBe(true);
    expect(namesCausesOnly('The rain caused the river to flood the town.')).toBe(false);
    expect(namesCausesOnly('The causes were hidden because nobody kept records.')).toBe(false);
  });

  it('story discussion prompts sit on turning points only', () => {
    const prompts = writeDiscussion(context(kite), 6).map((q) => q.evidence);
    expect(prompts).not.toContain('On Saturday he carried it up the hill behind the school.');
    expect(prompts).not.toContain('Tomas had a green kite with a long paper tail.');
  });
});

describe('objectives from what the text has', () => {
  const request = (referenceText: string, name: string) => ({
    name,
    subject: 'English',
    grade: '5th Grade (Year 6)',
    type: 'Lesson',
    referenceText,
    descriptionText: '',
  });

  it('a story that narrates events, where the character learns something', () => {
    const ctx = context(kite);
    expect(hasEvents(ctx)).toBe(true);
    expect(whoLearns(ctx, 'Tomas')).toBe('Tomas');
    const { lesson } = writeLesson(ctx, request(kite, 'The Kite Lesson'), [], []);
    const objectives = lesson.objectives.join('\n');
    expect(objectives).toMatch(/key events/);
    expect(objectives).toMatch(/what Tomas learns/);
    expect(objectives).not.toMatch(/new words/);
    expect(lesson.objectives.length).toBeGreaterThanOrEqual(3);
  });

  it('a poem with no events: no "key events", no "one event leads to another", no lesson', () => {
    const ctx = context(lamp);
    expect(hasEvents(ctx)).toBe(false);
    expect(statesLesson(ctx)).toBe(false);
    const { lesson } = writeLesson(ctx, request(lamp, 'My Lamp'), [], []);
    const objectives = lesson.objectives.join('\n');
    expect(objectives).not.toMatch(/events|leads to another|learns|lesson the story|new words/);
    expect(lesson.objectives.length).toBeGreaterThanOrEqual(3);
  });

  it('nobody learns anything: no "what X learns" objective', () => {
    const text = `Ada walked to the market with her basket. She bought six red apples and a loaf of bread. On the way home it began to rain, so she ran under the bridge. She waited there until the rain stopped. Then she walked home and gave the apples to her grandmother.`;
    const ctx = context(text);
    expect(whoLearns(ctx, 'Ada')).toBeNull();
    const { lesson } = writeLesson(ctx, request(text, 'Ada at the Market'), [], []);
    expect(lesson.objectives.join('\n')).not.toMatch(/learns/);
  });
});

describe('no person made of a common noun, no concept made of an everyday thing', () => {
  const text = `Glaciers form where snow piles up faster than it melts. Over many years the snow presses into thick ice. The glaciers then move slowly downhill under their own weight. As they move, glaciers scrape the rock beneath them and carve deep valleys. A banana is a fruit with a soft yellow skin. Moraines are ridges of rock that a glacier leaves behind when it melts. Moraines show scientists where the ice once reached.`;

  it('"Glaciers" that opens a sentence is no historical figure', () => {
    const ctx = context(text);
    expect(commonNounToo(ctx, 'Glaciers')).toBe(true);
    expect(commonNounToo(ctx, 'Moraines')).toBe(false);
    const { lesson } = writeLesson(
      ctx,
      {
        name: 'Glaciers',
        subject: 'Science',
        grade: '5th Grade (Year 6)',
        type: 'Lesson',
        referenceText: text,
        descriptionText: '',
      },
      [],
      [],
    );
    expect(lesson.objectives.join('\n')).not.toMatch(/what Glaciers did/);
  });
});

describe('a defined term worth a discussion', () => {
  it('asks what a concept is, never what an everyday thing is', () => {
    const text = `Some animals carry seeds far from the parent plant. A banana is a fruit with a soft yellow skin. Monkeys eat the banana and drop the seeds in new places. Pollination is the moving of pollen from one flower to another. Bees help with pollination when they visit flowers for nectar. Without pollination, many plants could not make seeds at all.`;
    const prompts = writeDiscussion(context(text), 6).map((q) => q.prompt);
    expect(prompts.join('\n')).not.toMatch(/what a banana is/);
  });
});
