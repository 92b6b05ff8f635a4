import { describe, expect, it } from 'vitest';
import { ReferenceIndex } from '../quality.js';
import { buildPlan } from '../plan.js';
import { analyse } from './analyse.js';
import { seededRandom, type WriterContext } from './common.js';
import { detectGenre } from './genre.js';
import { writeLesson } from './lesson.js';
import { writeDiscussion, writeMatching, writeTrueFalse } from './questions.js';

// Written for these tests (issue 22, "vague"): an explanation of volcanoes and a short poem.
const volcanoes = `A volcano is an opening in the Earth's crust where melted rock escapes. Deep underground, rock melts into magma, a hot liquid that rises because it is lighter than the solid rock around it.
When magma reaches the surface, it is called lava. Some volcanoes erupt with huge explosions, but others let lava flow out slowly for months.
Volcanoes are important for the land around them. Volcanic ash breaks down into rich soil, and farmers grow crops on the slopes of volcanoes because the soil is so rich.
Scientists watch volcanoes closely. They measure small earthquakes and gases, because these signs often come before an eruption. As a result, people living nearby can leave in time.`;

const poem = `The river ran beneath the hill,
And all the valley lay so still;
The miller stood beside his wheel,
And heard the evening church bell peal.
He closed his door against the night,
And left the mill without a light.`;

function context(text: string, grade = '7th Grade (Year 8)', type = 'Lesson'): WriterContext {
  const analysis = analyse(text);
  detectGenre(analysis, text);
  return {
    analysis,
    plan: buildPlan({ grade, type, descriptionText: '' }),
    reference: new ReferenceIndex(text),
    random: seededRandom('test'),
    usedSentences: new Set(),
    usedAnswers: new Set(),
  };
}

describe('discussion on texts that explain: questions from what the text says', () => {
  for (const grade of ['4th Grade (Year 5)', '7th Grade (Year 8)', '11th Grade (Year 12)']) {
    it(`asks no story, mood or prediction questions of an informational text (${grade})`, () => {
      const prompts = writeDiscussion(context(volcanoes, grade), 6).map((q) => q.prompt);
      expect(prompts.length).toBeGreaterThan(0);
      const all = prompts.join('\n');
      expect(all).not.toMatch(/happen next|do or say|what kind of person|feel|character/i);
      expect(all).not.toMatch(/picture does it put in your mind|effect do the words have/i);
    });
  }

  it('fills its questions with the text: a term it defines, a cause, a claim of importance', () => {
    const questions = writeDiscussion(context(volcanoes), 6);
    const prompts = questions.map((q) => q.prompt).join('\n');
    expect(prompts).toMatch(/what (?:magma|lava|a volcano) is/i);
    expect(prompts).toMatch(/cause and the effect/);
    expect(prompts).toMatch(/Volcanoes are important for the land around them/);
    // Every question quotes or names what it is about, and its evidence is the text's.
    for (const q of questions) expect(volcanoes).toContain(q.evidence!.replace(/[“”]/g, ''));
  });

  it('never quotes a sentence that leans on the one before ("They measure …") or an added "but also"', () => {
    for (const q of writeDiscussion(context(volcanoes), 8))
      expect(q.prompt).not.toMatch(/“(?:They|It|Its|These|This)\b/);
  });

  it('asks a poem no prediction ("What do you think will happen next?")', () => {
    const prompts = writeDiscussion(context(poem, '6th Grade (Year 7)'), 6).map((q) => q.prompt);
    expect(prompts.join('\n')).not.toMatch(/happen next/i);
  });
});

describe('lesson objectives on texts that explain: aims from what the text does', () => {
  // Written for this test: a process told in steps.
  const bread = `Bread starts as flour, water, salt and yeast. First, the baker mixes them into a dough. When the yeast feeds on the sugars in the flour, it gives off a gas called carbon dioxide. The gas becomes trapped in the dough, so the dough rises. Then the baker shapes the loaf and lets it rise again. Finally, the heat of the oven turns the soft dough into a firm, brown loaf.`;

  it('a process gets "describe the steps … in order", never "what the passage shows about the dough"', () => {
    const ctx = context(bread, '5th Grade (Year 6)');
    const { lesson } = writeLesson(
      ctx,
      {
        name: 'Bread Lesson',
        subject: 'Science',
        grade: '5th Grade (Year 6)',
        type: 'Lesson',
        referenceText: bread,
        descriptionText: '',
      },
      [],
      [],
    );
    const objectives = lesson.objectives.join('\n');
    expect(objectives).toMatch(/steps/);
    expect(objectives).not.toMatch(/shows about|interpretation of|how .* acts?/);
  });

  it('an informational text about volcanoes gets no character or theme-of-a-word aims', () => {
    const ctx = context(volcanoes);
    const { lesson } = writeLesson(
      ctx,
      {
        name: 'Volcanoes Lesson',
        subject: 'Science',
        grade: '7th Grade (Year 8)',
        type: 'Lesson',
        referenceText: volcanoes,
        descriptionText: '',
      },
      [],
      [],
    );
    const objectives = lesson.objectives.join('\n');
    expect(objectives).not.toMatch(/shows about|interpretation of|character|feels/);
    expect(objectives).toMatch(/causes and effects|steps|main idea/);
  });
});

describe('true/false on texts that explain: false statements that are clearly false', () => {
  // Written for this test: short negative sentences about part of a group.
  const deepSea = `Many deep-sea fish have never been seen alive. Some squid do not live near the surface. Few plants grow in the deep sea. Most of the ocean floor has not been mapped. The deep sea is very cold. Sunlight does not reach the deep sea. The water there is dark all day.`;

  it('never negates a statement about some of a group ("Many fish have been seen alive" is also true)', () => {
    for (const seed of ['a', 'b', 'c', 'd']) {
      const ctx = context(deepSea, '6th Grade (Year 7)', 'Quiz');
      ctx.random = seededRandom(seed);
      for (const q of writeTrueFalse(ctx, 6))
        if (q.form === 'tf_negation')
          expect(q.prompt).not.toMatch(/^(?:many|some|few|most|several)\b/i);
    }
  });
});

describe('matching on a worksheet with a vocabulary list: the list practised in context', () => {
  it('matches the listed words to sentences of the text they complete, one sentence each', () => {
    const ctx = context(volcanoes, '7th Grade (Year 8)', 'Worksheet');
    const listed = [
      { term: 'magma', partOfSpeech: 'noun', definition: 'a hot liquid', context: 'x' },
      { term: 'lava', partOfSpeech: 'noun', definition: 'magma at the surface', context: 'y' },
      { term: 'eruption', partOfSpeech: 'noun', definition: 'a volcano exploding', context: 'z' },
      // A set needs four pairs (with three, the last is given by the other two).
      { term: 'crust', partOfSpeech: 'noun', definition: "the earth's outer layer", context: 'w' },
    ];
    const [q] = writeMatching(ctx, 1, [], listed);
    expect(q?.form).toBe('match_sentence');
    const sentences = new Set(q!.pairs.map((p) => p.right));
    expect(sentences.size).toBe(q!.pairs.length);
    for (const pair of q!.pairs) {
      expect(pair.right).toContain('_____');
      // The blank takes the word back into a sentence of the text.
      expect(volcanoes).toContain(pair.right.replace(/[“”]/g, '').replace('_____', pair.left));
      expect(pair.right.split(/\s+/).length).toBeGreaterThanOrEqual(8);
    }
  });
});
