import { describe, expect, it } from 'vitest';
import { buildPlan } from '../plan.js';
import { ReferenceIndex } from '../quality.js';
import { analyse } from './analyse.js';
import { seededRandom, type WriterContext } from './common.js';
import { needsContext, withoutOpener } from './context.js';
import {
  causeCandidates,
  resolvePronoun,
  whCandidates,
  whenCandidates,
  clauseOf,
} from './forms.js';
import { paraphrase, statementOf } from './questions.js';

function contextFor(text: string): WriterContext {
  return {
    analysis: analyse(text),
    plan: buildPlan({
      name: 'Context test',
      subject: 'Science',
      grade: '7th Grade (Year 8)',
      type: 'Test',
      referenceText: text,
      descriptionText: '',
    } as Parameters<typeof buildPlan>[0]),
    reference: new ReferenceIndex(text),
    random: seededRandom('context'),
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

describe('items that lean on a sentence the student does not see (vague)', () => {
  it('finds shell nouns, deictic times and places, relative times and relational nouns', () => {
    expect(needsContext('The problem seems simple, but it is not.')).toBe('shell noun');
    expect(needsContext('The problem of waste is growing.')).toBeNull();
    expect(needsContext('Where was the ship anchored at that time?')).toBe('deictic');
    expect(needsContext('The farmers sold their wheat there.')).toBe('there');
    expect(needsContext('Three weeks later, the bridge opened.')).toBe('relative time');
    expect(needsContext('About 400 members were elected.')).toBe('relational noun');
    expect(needsContext('About 400 members of the club were elected.')).toBeNull();
    expect(needsContext('Third, bakers need good flour.')).toBe('opener');
    expect(needsContext('Rivers such as the Rhine carry barges.')).toBeNull();
  });

  it('drops linking openers and "also", which do not change what a statement says', () => {
    expect(withoutOpener('Second, bakers need good flour.')).toBe('Bakers need good flour.');
    expect(withoutOpener('However, the bridge was never finished.')).toBe(
      'The bridge was never finished.',
    );
    expect(withoutOpener('The miller also needed a new wheel.')).toBe(
      'The miller needed a new wheel.',
    );
    expect(withoutOpener('Still water runs deep.')).toBe('Still water runs deep.');
  });

  it('does not ask about "the mill" when the text has two mills', () => {
    const ctx = contextFor(
      'The town built two mills on the river. The first mill ground wheat. Because the river rose in spring, the mill stopped for a month. The baker sold bread in the square.',
    );
    expect(needsContext('Why did the mill stop for a month?', ctx.analysis)).toBe(
      'several referents',
    );
    expect(needsContext('Why did the baker sell bread?', ctx.analysis)).toBeNull();
  });

  it('never makes a statement of a verse line without a clause, or of a dialogue tag', () => {
    const ctx = contextFor(
      'Across the meadow rolling wide, Cart and plough, to the riverside. Asked Tom. The old farmer ploughed the field every spring.',
    );
    expect(statementOf(ctx, sentence(ctx, 'Across the meadow'))).toBeNull();
    expect(statementOf(ctx, sentence(ctx, 'The old farmer'))).toBe(
      'The old farmer ploughed the field every spring.',
    );
  });

  it('names the one person "him" can be, and gives up when the object cannot be the subject', () => {
    const ctx = contextFor(
      'The Giant lived alone on the hill. Nobody had ever visited him before. The nurse bandaged it and told him to rest.',
    );
    expect(statementOf(ctx, sentence(ctx, 'The nurse'))).toBeNull();
  });
});

describe('a false premise is never asked (wrong key)', () => {
  it('does not make "he" a woman the text calls "she"', () => {
    const ctx = contextFor(
      'Lena opened her shop early, and she sold hats to the villagers. The wind howled down the valley. He tore the sign from the shop and carried it away.',
    );
    const s = sentence(ctx, 'He tore');
    const c = clauseOf(ctx, s, 0, s.tokens.length, true)!;
    expect(resolvePronoun(ctx, c, null)).toBe(false);
  });
});

describe('cause and effect options are causes and results (trivial, nonsense)', () => {
  it('offers only the reasons the text gives for other results, never other sentences', () => {
    const ctx = contextFor(
      'The harbour was busy in summer. Because the nets were torn, the fishermen stayed ashore. The gulls circled over the boats. The road was closed, so the baker walked to the market. Tourists took photographs of the lighthouse.',
    );
    const why = causeCandidates(ctx, ctx.analysis.sentences, 0);
    const nets = why.find((c) => c.answer === 'Because the nets were torn.');
    expect(nets?.distractors).toEqual(['Because the road was closed.']);
    for (const c of why)
      for (const d of c.distractors) expect(d).not.toMatch(/gulls|photographs|busy/);
  });

  it('does not take a lead-in ("it can go to several places") or a state ("if the air is warm") as a result', () => {
    const ctx = contextFor(
      'Clouds hold tiny drops of water. If the air is warm, it falls as rain. When snow reaches the ground, it can go to several places. When the sun warms the snow, the snow melts into streams.',
    );
    const when = whenCandidates(ctx, ctx.analysis.sentences, 0).map((c) => c.prompt);
    expect(when).not.toContain('What happens if the air is warm?');
    expect(when).not.toContain('What happens when snow reaches the ground?');
    expect(when).toContain('What happens when the sun warms the snow?');
  });

  it('asks "how many" only when the counted thing is named ("copies of …")', () => {
    const ctx = contextFor(
      'Around 300 copies were sold, and fewer than ten survive. The printer hired about 40 workers in his shop.',
    );
    const prompts = ctx.analysis.sentences
      .flatMap((s) => whCandidates(ctx, s))
      .map((c) => c.prompt);
    expect(prompts.some((p) => /copies/.test(p))).toBe(false);
  });
});

describe('true statements in other words (recognition only)', () => {
  it('moves an opening time phrase to the end and puts a reason after its result', () => {
    const ctx = contextFor(
      'In 1869, the canal opened to ships. Because the roads were muddy, the farmers used the river.',
    );
    const a = sentence(ctx, 'In 1869');
    expect(paraphrase(ctx, a, statementOf(ctx, a)!)).toBe('The canal opened to ships in 1869.');
    const b = sentence(ctx, 'Because the roads');
    expect(paraphrase(ctx, b, statementOf(ctx, b)!)).toBe(
      'The farmers used the river because the roads were muddy.',
    );
  });
});
