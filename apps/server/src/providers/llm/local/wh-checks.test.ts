import { describe, expect, it } from 'vitest';
import { buildPlan } from '../plan.js';
import { ReferenceIndex } from '../quality.js';
import { analyse } from './analyse.js';
import { baseForm, invertedQuestion, readClause, subjectPhrase } from './clauses.js';
import { seededRandom, type WriterContext } from './common.js';
import { storyCast, usedAsPlace } from './characters.js';
import type { FormCandidate } from './forms.js';
import { mannerCandidates, whCandidates } from './forms.js';
import { detectGenre } from './genre.js';
import { storyCandidates } from './story.js';
import { mentionedElsewhere, soundWh } from './wh-checks.js';

function contextFor(text: string): WriterContext {
  const analysis = analyse(text);
  detectGenre(analysis, text);
  return {
    analysis,
    plan: buildPlan({ type: 'Quiz', grade: '5th Grade (Year 6)', descriptionText: '' }),
    reference: new ReferenceIndex(text),
    random: seededRandom('wh'),
    usedSentences: new Set(),
    usedAnswers: new Set(),
    stats: { distractorRejections: 0 },
  };
}

function candidate(
  ctx: WriterContext,
  prompt: string,
  answer: string,
  start: string,
  distractors: string[] = [],
): FormCandidate {
  const s = ctx.analysis.sentences.find((x) => x.text.startsWith(start));
  if (!s) throw new Error(`no sentence "${start}"`);
  return {
    form: 'wh',
    prompt,
    answer,
    distractors,
    modelAnswer: `${answer}.`,
    evidence: s.text,
    sentences: [s.index],
  };
}

const HARBOUR = [
  'Tessa lived with her uncle Rami in a narrow house by the harbour.',
  'Every morning Tessa carried a basket of bread to the boats.',
  'One windy day Rami mended the old net on the quay.',
  'Tessa drew a long breath and looked at the grey sea.',
  'A fisherman named Ivo rowed his boat into the harbour before the storm.',
  'Ivo tied the boat to a post and thanked Tessa for the bread.',
  'Rami hung the net in the shed, and Tessa closed the basket.',
  'Later that night the wind tore a sail from a boat in the harbour.',
  'Ivo walked to Portmellon in the rain and fetched the doctor.',
  'In Portmellon the streets were empty.',
  '“The storm will pass by morning,” said the doctor.',
  '“Thank you for the doctor,” said Tessa.',
  'Tessa laughed and ran home with the empty basket.',
  'She slept well that night.',
].join(' ');

describe('a who/what/where question turns on something the story mentions again', () => {
  it('keeps a question about the net or the basket, drops one about a breath', () => {
    const ctx = contextFor(HARBOUR);
    const net = candidate(ctx, 'What did Rami mend on the quay?', 'The old net', 'One windy day');
    expect(soundWh(ctx, net)).not.toBeNull();
    const breath = candidate(ctx, 'Who drew a long breath?', 'Tessa', 'Tessa drew');
    expect(soundWh(ctx, breath)).toBeNull();
  });

  it('counts a kind of the noun as a mention ("the heron" for "the bird")', () => {
    const ctx = contextFor(
      'Omar pointed at the bird. Mia held her breath. The heron caught a fish and flew away.',
    );
    expect(mentionedElsewhere(ctx.analysis, 'bird', [0])).toBe(true);
    expect(mentionedElsewhere(ctx.analysis, 'breath', [1])).toBe(false);
  });
});

describe('a who/what/where question reads on its own', () => {
  const ctx = contextFor(HARBOUR);
  it('drops an object pronoun whose referent is in another sentence', () => {
    expect(
      soundWh(ctx, candidate(ctx, 'Where did Ivo meet her?', 'At the quay', 'Ivo tied')),
    ).toBeNull();
    expect(
      soundWh(ctx, candidate(ctx, 'Who had tied it to a post?', 'Ivo', 'Ivo tied')),
    ).toBeNull();
  });
  it('keeps "her" as a possessive', () => {
    expect(
      soundWh(
        ctx,
        candidate(ctx, 'Who carried a basket of bread to the boats?', 'Tessa', 'Every morning'),
      ),
    ).not.toBeNull();
  });
  it('drops a contraction or a dialect form (a character speaking) and a negative predicate', () => {
    expect(
      soundWh(ctx, candidate(ctx, 'Who reckon he could see the boat?', 'D’you', 'Ivo tied')),
    ).toBeNull();
    expect(
      soundWh(ctx, candidate(ctx, 'Who made no effort to mend the net?', 'Rami', 'One windy day')),
    ).toBeNull();
  });
  it('drops a present-tense who-question in a story told in the past', () => {
    expect(
      soundWh(
        ctx,
        candidate(ctx, 'Who is a good friend of the net-maker?', 'Rami', 'One windy day'),
      ),
    ).toBeNull();
  });
  it('drops a who-question whose answer is a common noun that opened the sentence', () => {
    const text = `${HARBOUR} Men were mending nets on the quay. The men sang as they worked.`;
    const c2 = contextFor(text);
    expect(
      soundWh(c2, candidate(c2, 'Who were mending nets on the quay?', 'Men', 'Men were')),
    ).toBeNull();
  });
});

describe('a who/what/where question offers options of the asked kind', () => {
  const ctx = contextFor(HARBOUR);
  it('does not offer a place among the people, nor one person twice', () => {
    expect(usedAsPlace(ctx.analysis, 'Portmellon')).toBe(true);
    expect(usedAsPlace(ctx.analysis, 'Tessa')).toBe(false);
    const c = candidate(
      ctx,
      'Who rowed his boat into the harbour before the storm?',
      'Ivo',
      'A fisherman',
      ['Portmellon', 'Tessa', 'Rami', 'Uncle Rami'],
    );
    expect(soundWh(ctx, c)?.distractors).toEqual(['Tessa', 'Rami']);
  });
  it('keeps a place out of the cast', () => {
    expect(storyCast(ctx.analysis).map((m) => m.label)).not.toContain('Portmellon');
  });
});

describe('clauses a question is built from', () => {
  it('gives the base form a question needs, from a regular or an irregular past', () => {
    const tok = (value: string, lemma: string) => ({
      value,
      lemma,
      normal: value,
      pos: 'VERB',
      start: 0,
      end: value.length,
      stop: false,
    });
    expect(baseForm(tok('scraped', 'scrap'))).toBe('scrape');
    expect(baseForm(tok('stopped', 'stop'))).toBe('stop');
    expect(baseForm(tok('visited', 'visit'))).toBe('visit');
    expect(baseForm(tok('carried', 'carry'))).toBe('carry');
    expect(baseForm(tok('took', 'take'))).toBe('take');
  });

  it('does not ask about a phrase inside a clause of the predicate', () => {
    const a = analyse('Nadia noticed that the shells were drying as they lay on the sand.');
    const s = a.sentences[0]!;
    const c = readClause(s, 0, s.tokens.length, { opensWithName: true })!;
    const on = s.tokens.findIndex((t) => t.value === 'on');
    expect(invertedQuestion(c, 'Where', [on, on + 3])).toBeNull();
  });

  it('drops a lead that only comments on the telling ("Of course,")', () => {
    const a = analyse('Of course, the baker sold the last loaf in the market.');
    const s = a.sentences[0]!;
    const c = readClause(s)!;
    const q = invertedQuestion(c, 'What', [c.restStart, c.restStart + 3]);
    expect(q).toBe('What did the baker sell in the market?');
  });

  it('keeps the capital of a name that opens the sentence', () => {
    const a = analyse('Mercedes nursed a grievance. Later Mercedes wept.');
    const s = a.sentences[0]!;
    const c = readClause(s, 0, s.tokens.length, { opensWithName: true })!;
    expect(subjectPhrase(c)).toBe('Mercedes');
  });
});

describe('no manner questions', () => {
  it('asks no "How did X ask? Triumphantly."', () => {
    const ctx = contextFor(
      'The captain asked triumphantly for the map. The captain smiled. Jonah read the map slowly. Jonah folded the map.',
    );
    const how = mannerCandidates(ctx, ctx.analysis.sentences).filter((c) =>
      /^How\b/.test(c.prompt),
    );
    expect(how).toEqual([]);
  });
});

describe('where-questions about looking', () => {
  it('asks no "Where did Tessa look?" but keeps a place where something was seen', () => {
    const text = [
      'Lina and Tom and Grandpa Joe walked to the harbour.',
      'Lina looked at the lighthouse.',
      'Tom saw a red kite by the lighthouse.',
      'Grandpa Joe fetched the kite from the lighthouse.',
      'Lina carried the kite home to the farm.',
      'Tom and Lina flew the kite by the barn.',
    ].join(' ');
    const ctx = contextFor(text);
    const looked = ctx.analysis.sentences.find((s) => s.text.startsWith('Lina looked'))!;
    expect(storyCandidates(ctx, looked, true).map((c) => c.prompt)).not.toContain(
      'Where did Lina look?',
    );
  });
});

describe('second round on fresh chapters', () => {
  const ctx = contextFor(HARBOUR);
  it('drops a who-question on "was" with no noun and one describing word', () => {
    expect(soundWh(ctx, candidate(ctx, 'Who was equally willing?', 'Ivo', 'Ivo tied'))).toBeNull();
    expect(
      soundWh(ctx, candidate(ctx, 'Who was crying as usual?', 'Tessa', 'Tessa drew')),
    ).toBeNull();
  });
  it('drops a who-question about a gesture of the body', () => {
    expect(soundWh(ctx, candidate(ctx, 'Who took a hand?', 'Rami', 'Rami hung'))).toBeNull();
  });
  it('drops a story question with a present tense anywhere outside quoted words', () => {
    expect(
      soundWh(
        ctx,
        candidate(
          ctx,
          'Who had to mend the net because there is a storm tonight?',
          'Rami',
          'One windy day',
        ),
      ),
    ).toBeNull();
  });
  it('ends the clause before "and" with a subject and verb of its own', () => {
    const a = analyse('Jonah hid the lantern in the barrel and the watch began.');
    const s = a.sentences[0]!;
    const c = readClause(s, 0, s.tokens.length, { opensWithName: true })!;
    const lantern = s.tokens.findIndex((t) => t.value === 'the');
    expect(invertedQuestion(c, 'What', [lantern, lantern + 2])).toBe(
      'What did Jonah hide in the barrel?',
    );
  });
});

describe('how long something took in a story', () => {
  it('asks no "How many hours …?"', () => {
    const text = `${HARBOUR} Ivo waited three hours on the quay for the doctor.`;
    const ctx = contextFor(text);
    const s = ctx.analysis.sentences.find((x) => x.text.startsWith('Ivo waited'))!;
    expect(whCandidates(ctx, s).map((c) => c.prompt)).not.toContainEqual(
      expect.stringMatching(/^How many hours/),
    );
  });
});

describe('a removed phrase leaves nothing dangling', () => {
  it('asks nothing about one of a pair or a phrase a participle describes, nor with "has" as the verb', () => {
    const a = analyse('A cloud of smoke rolled across Ohio and Texas in the spring.');
    const s = a.sentences[0]!;
    const c = readClause(s)!;
    const across = s.tokens.findIndex((t) => t.value === 'across');
    expect(invertedQuestion(c, 'Where', [across, across + 2])).toBeNull();
    const b = analyse('Every battery has two ends called terminals.');
    const s2 = b.sentences[0]!;
    const c2 = readClause(s2)!;
    const two = s2.tokens.findIndex((t) => t.value === 'two');
    expect(invertedQuestion(c2, 'How many ends', [two, two + 2])).toBeNull();
  });
});
