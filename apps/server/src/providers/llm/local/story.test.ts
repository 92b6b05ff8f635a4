import { describe, expect, it } from 'vitest';
import { buildPlan } from '../plan.js';
import { ReferenceIndex } from '../quality.js';
import { analyse } from './analyse.js';
import { readClause } from './clauses.js';
import { seededRandom, type WriterContext } from './common.js';
import { detectGenre } from './genre.js';
import { storyCast } from './characters.js';
import { storyCandidates } from './story.js';

function contextFor(text: string): WriterContext {
  const analysis = analyse(text);
  detectGenre(analysis, text);
  return {
    analysis,
    plan: buildPlan({ type: 'Quiz', grade: '3rd Grade (Year 4)', descriptionText: '' }),
    reference: new ReferenceIndex(text),
    random: seededRandom('story'),
    usedSentences: new Set(),
    usedAnswers: new Set(),
    stats: { distractorRejections: 0 },
  };
}

function questionsOf(ctx: WriterContext, start: string) {
  const s = ctx.analysis.sentences.find((x) => x.text.startsWith(start));
  if (!s) throw new Error(`no sentence "${start}"`);
  return storyCandidates(ctx, s);
}

const CAMP = [
  'My name is Theo, and I am eight years old.',
  'Last spring my family camped beside a wide river.',
  'My brother Felix caught a silver fish near the bridge.',
  'In the evening Dad cooked potatoes over the fire.',
  'Mom read a book in the tent.',
  'I found a striped snake under a log.',
  'Felix wanted to keep the snake, but Mom said no.',
  'Felix carried a lantern to the tent.',
].join(' ');

const FARM = [
  'Lena lived on a farm with her grandmother.',
  'Every morning she fed the goats and collected the eggs.',
  'One day a hungry wolf crept into the barn.',
  'Lena heard the goats crying, so she ran to the barn with a rake.',
  'The wolf jumped over the wall and ran into the forest.',
  'Grandma Ruth laughed and gave Lena a warm blanket.',
  'Lena slept in the kitchen that night.',
].join(' ');

describe('a simple story is a story (genre)', () => {
  it('reads plain past verbs as narration, with or without forms of "be"', () => {
    const farm = analyse(FARM);
    expect(detectGenre(farm, FARM)).toBe('narrative');
    const camp = analyse(CAMP);
    expect(detectGenre(camp, CAMP)).toBe('narrative');
  });
});

describe('the cast of a story', () => {
  it('holds named people, family names, the narrator and recurring animals that act', () => {
    const camp = storyCast(contextFor(CAMP).analysis).map((m) => m.label);
    expect(camp).toEqual(expect.arrayContaining(['Felix', 'Dad', 'Mom', 'the narrator']));
    const farm = storyCast(contextFor(FARM).analysis).map((m) => m.label);
    expect(farm).toEqual(expect.arrayContaining(['Lena', 'Grandma Ruth', 'the wolf']));
    // "Grandma" alone is the same person as "Grandma Ruth".
    expect(farm).not.toContain('Grandma');
  });

  it('is empty for a text that explains', () => {
    const text =
      'Bees collect nectar from flowers. The nectar is stored in the hive. Workers fan the nectar with their wings until it thickens into honey. A hive can hold thousands of bees.';
    expect(storyCast(contextFor(text).analysis)).toEqual([]);
  });
});

describe('who, what and where from the clauses of a story', () => {
  it('asks who did it, with other characters as options (the narrator resolved)', () => {
    const ctx = contextFor(CAMP);
    const who = questionsOf(ctx, 'I found a striped snake').find((q) => q.prompt.startsWith('Who'));
    expect(who?.prompt).toBe('Who found a striped snake under a log?');
    expect(who?.answer).toBe('The narrator');
    expect(who?.distractors).toEqual(expect.arrayContaining(['Felix', 'Dad', 'Mom']));
  });

  it('keeps a time lead without a comma and moves it to the end', () => {
    const ctx = contextFor(CAMP);
    const who = questionsOf(ctx, 'In the evening Dad').find((q) => q.prompt.startsWith('Who'));
    expect(who?.prompt).toBe('Who cooked potatoes over the fire in the evening?');
    expect(who?.answer).toBe('Dad');
  });

  it('leaves out a character who does the same thing elsewhere in the story', () => {
    // Felix carries a lantern too: "Who carried …" must not offer him against Mom.
    const text = `${CAMP} Mom carried the basket to the river.`;
    const ctx = contextFor(text);
    const who = questionsOf(ctx, 'Mom carried the basket').find((q) => q.prompt.startsWith('Who'));
    expect(who?.distractors ?? []).not.toContain('Felix');
  });

  it('resolves "she" to the one person it can be', () => {
    const ctx = contextFor(FARM);
    const who = questionsOf(ctx, 'Every morning she fed').find((q) => q.prompt.startsWith('Who'));
    expect(who?.prompt).toBe('Who fed the goats every morning?');
    expect(who?.answer).toBe('Lena');
  });

  it('asks where, with places of the same sort the character never goes to', () => {
    const text = [
      'Omar lived in a small house near the sea.',
      'Every day he walked to the harbor.',
      'His sister Hana worked at the bakery, and she was always busy.',
      'One morning Omar sailed to the island with his uncle.',
      'He caught a big fish there.',
      'Hana ran to the market and bought apples.',
      'She was tired, so she sat down on a bench.',
      'Hana walked to the school.',
    ].join(' ');
    const ctx = contextFor(text);
    const where = questionsOf(ctx, 'One morning Omar sailed').find((q) =>
      q.prompt.startsWith('Where'),
    );
    expect(where?.prompt).toBe('Where did Omar sail with his uncle one morning?');
    expect(where?.answer).toBe('To the island');
    // Directional places only, and not the harbor (Omar walks there).
    expect(where?.distractors).toEqual(expect.arrayContaining(['To the market', 'To the school']));
    expect(where?.distractors).not.toContain('To the harbor');
  });

  it('asks what a character acted on, with things of the same kind and number', () => {
    const text = [
      'Ada made a cake for the fair.',
      'Her friend Leo brought a pie and a loaf of bread.',
      'At the fair, Ada sold the cake to a farmer.',
      'Leo ate an apple under a tree.',
      'Ada won a ribbon.',
      'Leo lost his hat in the crowd.',
    ].join(' ');
    const ctx = contextFor(text);
    const what = questionsOf(ctx, 'Ada made a cake').find((q) => q.prompt.startsWith('What'));
    expect(what?.prompt).toBe('What did Ada make for the fair?');
    expect(what?.answer).toBe('a cake');
    expect(what?.distractors).toEqual(expect.arrayContaining(['a pie', 'an apple']));
    // "a loaf of bread" runs on; "his hat" is no food.
    expect(what?.distractors).not.toContain('a loaf');
  });

  it("asks nothing of a character's own words or of a text without a cast", () => {
    const ctx = contextFor(CAMP);
    expect(questionsOf(ctx, 'Felix wanted to keep')).toEqual([]);
  });
});

describe('a time lead without its comma', () => {
  it('is read as the lead of the clause', () => {
    const s = analyse('One day a fox crept into the barn.').sentences[0]!;
    const c = readClause(s);
    expect(c?.lead).toEqual([0, 2]);
    expect(s.tokens[c!.subjectStart]!.value).toBe('a');
  });
});

describe('first-person stories and open questions', () => {
  const STORM = [
    'When the storm came, I was nine years old.',
    'My dad found a lantern in the barn.',
    'My mom made soup on the stove.',
    'My cousin Ivy sang songs in the dark kitchen.',
    'Ivy was brave, and she held my hand.',
    'I counted the thunder claps.',
    'In the morning the sun came out again.',
  ].join(' ');

  it('reads "My dad" as the character Dad, and names him in the stem', () => {
    const ctx = contextFor(STORM);
    const who = questionsOf(ctx, 'My dad found').find((q) => q.prompt.startsWith('Who'));
    expect(who?.prompt).toBe('Who found a lantern in the barn?');
    expect(who?.answer).toBe('Dad');
    expect(who?.evidence).toBe('My dad found a lantern in the barn.');
    expect(who?.distractors).toEqual(expect.arrayContaining(['Mom', 'Ivy', 'The narrator']));
  });

  it('asks open questions only when the text tells the action once', () => {
    const ctx = contextFor(STORM);
    const s = ctx.analysis.sentences.find((x) => x.text.startsWith('My mom made'))!;
    const open = storyCandidates(ctx, s, true);
    expect(open.map((q) => q.prompt)).toContain('What did Mom make on the stove?');
    expect(open.every((q) => q.distractors.length === 0)).toBe(true);
    // Mom makes tea too: "What did Mom make?" would have two answers.
    const twice = contextFor(`${STORM} Later my mom made some tea.`);
    const again = twice.analysis.sentences.find((x) => x.text.startsWith('My mom made'))!;
    expect(storyCandidates(twice, again, true).map((q) => q.prompt)).not.toContain(
      'What did Mom make on the stove?',
    );
  });

  it('does not treat a character\'s "I" in dialogue as a narrator', () => {
    const text = [
      'Tom ran to the river with his dog.',
      'He saw a boat near the bridge.',
      '“I want to sail,” Tom said.',
      '“I am too small for that boat,” said his sister Amy.',
      'Amy walked home and made some tea.',
      'Tom stayed by the river until dark.',
    ].join(' ');
    const cast = storyCast(contextFor(text).analysis).map((m) => m.label);
    expect(cast).not.toContain('the narrator');
  });
});
