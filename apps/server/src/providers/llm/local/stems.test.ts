import { describe, expect, it } from 'vitest';
import { buildPlan } from '../plan.js';
import { ReferenceIndex } from '../quality.js';
import { analyse } from './analyse.js';
import { seededRandom, type WriterContext } from './common.js';
import { causeCandidates, whCandidates, whenCandidates } from './forms.js';
import { writeShortAnswer } from './questions.js';

// Sentences written for these tests and the gen-q dev passages (not held-out text).
const BIOGRAPHY = [
  'Mary Anning was born in 1799 in Lyme Regis, a small town in England.',
  'Her father, Richard Anning, collected fossils from the cliffs.',
  'In 1810, Richard Anning died, and the family was left with large debts.',
  'Mary was only eleven years old, but she kept searching for fossils because her family needed the money.',
  'Mary taught herself to read scientific papers.',
  'In 1823, Mary discovered the first complete skeleton of a plesiosaur, a sea reptile with a tiny head, a long neck, and four large flippers.',
  'Mary Anning died in 1847, at the age of forty-seven.',
  'Scientists later named the animal an ichthyosaur.',
  'Wealthy collectors bought her fossils and sold them in London.',
].join(' ');

const STORY = [
  'Nora lived with her grandfather in a stone cottage at the edge of a fishing village.',
  'Grandpa Tom slipped on the wet steps of the cottage and hurt his ankle.',
  'The doctor wrapped it tightly and told him to stay in bed for a week.',
  'She had rowed the little boat many times with her grandfather, but she had never rowed it alone.',
  'Nora pulled on her heavy coat and ran down to the beach.',
  'She rowed with her back to the island and counted her strokes.',
  'When the boat finally bumped against Gull Rock, her arms were shaking.',
  'Grandpa Tom was waiting at the window with a blanket around his shoulders.',
].join(' ');

const RAILROAD = [
  'Gutenberg needed a new kind of ink.',
  'Finally, Gutenberg adapted the screw press, a machine farmers used to squeeze grapes.',
  'When photographs of the celebration were taken, the Chinese workers were not included in them.',
  'Because few white workers were willing to stay, the company hired thousands of immigrants from China.',
  'The Union Pacific crossed the flat Great Plains, where the work went faster.',
  'On May 10, 1869, the two lines met at Promontory Summit in Utah.',
  'The railroad changed the nation quickly.',
].join(' ');

function contextFor(text: string): WriterContext {
  const request = {
    name: 'Stems test',
    subject: 'History',
    grade: '6th Grade (Year 7)',
    type: 'Test',
    referenceText: text,
    descriptionText: '',
  };
  return {
    analysis: analyse(text),
    plan: buildPlan(request as Parameters<typeof buildPlan>[0]),
    reference: new ReferenceIndex(text),
    random: seededRandom('stems'),
    usedSentences: new Set(),
    usedAnswers: new Set(),
    stats: { distractorRejections: 0 },
  };
}

describe('stems built from clauses are well formed (issue 22, nonsense)', () => {
  it('asks "why" of the clause the reason belongs to, with its pronoun named', () => {
    const ctx = contextFor(BIOGRAPHY);
    const prompts = causeCandidates(ctx, ctx.analysis.sentences, 0).map((c) => c.prompt);
    expect(prompts).toContain('Why did Mary keep searching for fossils?');
    expect(prompts.join(' ')).not.toMatch(/Why was Mary only eleven/);
  });

  it('never cuts a list in the middle ("a tiny head, a long neck?")', () => {
    const ctx = contextFor(BIOGRAPHY);
    const s = ctx.analysis.sentences.find((x) => x.text.startsWith('In 1823'))!;
    const prompts = whCandidates(ctx, s).map((c) => c.prompt);
    expect(prompts.length).toBeGreaterThan(0);
    for (const p of prompts) expect(p).not.toMatch(/head, a long neck\?|neck\?$/);
  });

  it('keeps the tense of "when" and drops results that point elsewhere', () => {
    const ctx = contextFor(RAILROAD);
    const prompts = whenCandidates(ctx, ctx.analysis.sentences, 0).map((c) => c.prompt);
    expect(prompts).toContain('What happened when photographs of the celebration were taken?');
    const story = contextFor(STORY);
    const answers = whenCandidates(story, story.analysis.sentences, 0).map((c) => c.answer);
    expect(answers).not.toContain('Her arms were shaking.');
  });

  it('writes no short answer on a time phrase, a pronoun object or a linking adverb', () => {
    const all: string[] = [];
    for (const text of [STORY, RAILROAD, BIOGRAPHY]) {
      for (const seed of ['a', 'b', 'c']) {
        const ctx = { ...contextFor(text), random: seededRandom(seed) };
        for (const q of writeShortAnswer(ctx, 6)) all.push(`${q.prompt} ${q.answer}`);
      }
    }
    expect(all.length).toBeGreaterThan(3);
    for (const q of all) {
      expect(q).not.toMatch(/many times|finally\?|wrap it|How did the railroad change|Quickly/);
      expect(q).not.toMatch(/\band told\b/);
    }
  });
});
