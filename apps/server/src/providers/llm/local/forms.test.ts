import { describe, expect, it } from 'vitest';
import { numberedQuestions, type Question } from '@chapterwise/shared';
import { createMaterialGenerator } from '../index.js';
import { buildPlan } from '../plan.js';
import { ReferenceIndex } from '../quality.js';
import { analyse } from './analyse.js';
import { invertedQuestion, readClause } from './clauses.js';
import { seededRandom, type WriterContext } from './common.js';
import {
  causeCandidates,
  clauseOf,
  vocabularyInContext,
  whCandidates,
  whenCandidates,
} from './forms.js';
import { HARBOUR_STORY, LIGHTHOUSES } from './test-passages.js';

const generator = createMaterialGenerator({ provider: 'local', timeoutMs: 4000, localThreads: 0 });

function contextFor(text: string, type = 'Test'): WriterContext {
  const request = {
    name: 'Forms test',
    subject: 'Science',
    grade: '7th Grade (Year 8)',
    type,
    referenceText: text,
    descriptionText: '',
  };
  return {
    analysis: analyse(text),
    plan: buildPlan(request as Parameters<typeof buildPlan>[0]),
    reference: new ReferenceIndex(text),
    random: seededRandom('forms'),
    usedSentences: new Set(),
    usedAnswers: new Set(),
    stats: { distractorRejections: 0 },
  };
}

function sentenceOf(ctx: WriterContext, start: string) {
  const s = ctx.analysis.sentences.find((x) => x.text.startsWith(start));
  if (!s) throw new Error(`no sentence "${start}"`);
  return s;
}

async function make(text: string, type: string, description = '') {
  return generator.generate({
    name: 'Forms test',
    subject: 'Science',
    grade: '7th Grade (Year 8)',
    type,
    referenceText: text,
    descriptionText: description,
  });
}

describe('question stems read as a teacher writes them (issue 22, nonsense)', () => {
  it('turns a statement into a grammatical question with do-support or the auxiliary', () => {
    const ctx = contextFor(
      'The keepers cleaned the lamps at sunset. The old tower was built in 1822. Engineers studied the waves in winter.',
    );
    const [a, b, c] = ctx.analysis.sentences;
    expect(invertedQuestion(readClause(a!)!, 'When')).toBe(
      'When did the keepers clean the lamps at sunset?',
    );
    const built = readClause(b!)!;
    expect(invertedQuestion(built, 'In what year', [built.restStart, built.restStart + 2])).toBe(
      'In what year was the old tower built?',
    );
    // A common word that opens a sentence loses its capital inside the question.
    expect(
      invertedQuestion(clauseOf(ctx, c!)!, 'What', [
        c!.tokens.findIndex((t) => t.value === 'the'),
        c!.tokens.findIndex((t) => t.value === 'in'),
      ]),
    ).toBe('What did engineers study in winter?');
  });

  it('does not read a participle after a name as the verb, nor cut a phrase from its appositive', () => {
    const ctx = contextFor(
      'Around 1822, a scientist named Augustin Fresnel designed a lens. The sailors sailed to Lisbon, the busiest port of the coast, every spring. Lisbon was far away. The sailors rested in Lisbon.',
    );
    const prompts = ctx.analysis.sentences
      .flatMap((s) => whCandidates(ctx, s))
      .map((c) => c.prompt);
    expect(prompts.join(' ')).not.toMatch(
      /did a scientist name\b|Where did the sailors sail, the busiest/i,
    );
    const named = readClause(ctx.analysis.sentences[0]!);
    expect(named === null || named.verb?.value !== 'named').toBe(true);
  });

  it('never asks "Who" about a subject that is not a verified person', () => {
    const ctx = contextFor(LIGHTHOUSES);
    for (const s of ctx.analysis.sentences) {
      for (const c of whCandidates(ctx, s)) {
        if (!c.prompt.startsWith('Who')) continue;
        for (const option of [c.answer, ...c.distractors])
          expect(['Alexandria', 'Paris', 'France', 'England', 'America']).not.toContain(option);
      }
    }
  });
});

describe('no question without a clear target (issue 22, vague)', () => {
  it('does not ask about a demonstrative or a pronoun it cannot resolve', () => {
    const ctx = contextFor(
      'These conditions allow plants to grow very quickly. It rises over the hills. They carried it home.',
    );
    for (const s of ctx.analysis.sentences) {
      expect(readClause(s)).toBeNull();
      expect(whCandidates(ctx, s)).toEqual([]);
    }
  });

  it('names the person a "he" stands for in a why-question, from the sentence before', () => {
    const ctx = contextFor(
      'In 1819, Augustin Fresnel studied light. Later, Fresnel worked in Paris. The old lenses wasted most of the light, so he designed a new kind of lens. The new lens was expensive.',
    );
    const why = causeCandidates(ctx, ctx.analysis.sentences, 0);
    expect(why.map((c) => c.prompt)).toContain(
      'Why did Augustin Fresnel design a new kind of lens?',
    );
    expect(why[0]!.answer).toBe('Because the old lenses wasted most of the light.');
  });

  it('short answers never fall back on "what does the text tell you about X"', async () => {
    for (const type of ['Test', 'Worksheet']) {
      const doc = await make(LIGHTHOUSES, type);
      for (const q of numberedQuestions(doc))
        expect(q.prompt).not.toMatch(
          /tell you about|detail does the text give|How is the .* described/i,
        );
    }
  });
});

describe('one clear answer (issue 22, ambiguous)', () => {
  it('offers numbers far from an approximate key ("about 700": not 710)', () => {
    const ctx = contextFor(LIGHTHOUSES);
    const count = whCandidates(ctx, sentenceOf(ctx, 'About 700 lighthouses')).find((c) =>
      c.prompt.startsWith('About how many'),
    );
    expect(count?.prompt).toBe(
      'About how many lighthouses still stand along the coasts of the United States?',
    );
    for (const d of count!.distractors)
      expect(Math.abs(Number(d) - 700) / 700).toBeGreaterThanOrEqual(0.25);
  });

  it("gives a why-question the text's reason as the only key, the other reasons as wrong options", () => {
    const ctx = contextFor(LIGHTHOUSES);
    // Only the reasons the text gives for other results are wrong options (no other sentences).
    const why = causeCandidates(ctx, ctx.analysis.sentences, 1);
    const rest = why.find((c) => c.prompt === 'Why did keepers rarely sleep before dawn?');
    expect(rest?.answer).toBe('Because the lamps burned all night.');
    expect(rest!.distractors).toEqual(['Because the lens bent the light into a narrow beam.']);
  });

  it("asks what the passage calls a thing, with the passage's other terms as options", () => {
    const ctx = contextFor(LIGHTHOUSES);
    const called = whenCandidates(ctx, ctx.analysis.sentences).find(
      (c) => c.answer === 'signature',
    );
    expect(called?.prompt).toBe(
      'The text says: “Each lighthouse had its own pattern of flashes.” What is this pattern called?',
    );
    expect(called!.distractors).not.toContain('signature');
  });
});

describe('nothing given away (issue 22, trivial)', () => {
  it("does not ask a word's meaning when the meaning repeats the word or stands in its sentence", () => {
    const ctx = contextFor(LIGHTHOUSES);
    const items = [
      {
        term: 'quill pen',
        partOfSpeech: 'noun',
        definition: "pen made from a bird's feather",
        context: 'Keepers had to wind the clockwork that turned the lens every few hours.',
      },
      {
        term: 'signature',
        partOfSpeech: 'noun',
        definition: 'a pattern of flashes',
        context: 'Each lighthouse had its own pattern of flashes.',
      },
      {
        term: 'clockwork',
        partOfSpeech: 'noun',
        definition: 'a mechanism of gears and springs',
        context: 'Keepers had to wind the clockwork that turned the lens every few hours.',
      },
      {
        term: 'harbour',
        partOfSpeech: 'noun',
        definition: 'a sheltered port for ships',
        context: 'A fire burned at its top, so ships could find the harbour in the dark.',
      },
      {
        term: 'beam',
        partOfSpeech: 'noun',
        definition: 'a column of light',
        context:
          'The lens bent the light into a narrow beam, so the beam could be seen more than twenty miles away.',
      },
    ] as const;
    const asked = vocabularyInContext(
      ctx,
      items.map((i) => ({ ...i })),
    );
    const terms = asked.map((c) => /“([^”]+)” mean\?$/.exec(c.prompt)?.[1]);
    expect(terms).not.toContain('quill pen');
    expect(terms).not.toContain('signature');
    // "lighthouse" is the topic word: never asked.
    expect(terms).not.toContain('lighthouse');
    for (const c of asked) expect(c.distractors.length).toBeGreaterThanOrEqual(2);
  });

  it('keeps blanks out of names and topic words in a whole test', async () => {
    const doc = await make(LIGHTHOUSES, 'Test');
    for (const q of numberedQuestions(doc)) {
      if (q.form !== 'cloze' || q.kind !== 'multiple_choice') continue;
      const key = q.choices[q.answerIndex]!;
      expect(key.toLowerCase()).not.toMatch(/^lighthouses?$/);
      expect(q.prompt).not.toMatch(/United _____|_____ States|Augustin _____|_____ Fresnel/);
    }
  });
});

describe('a test mixes question forms (issue 13)', () => {
  it('uses at least three forms besides cloze, at most 40% cloze, each with its evidence in the text', async () => {
    const doc = await make(LIGHTHOUSES, 'Test');
    const items: Question[] = numberedQuestions(doc);
    const forms = new Set(items.map((q) => q.form));
    const closed = items.filter((q) => q.kind === 'multiple_choice');
    expect(new Set(closed.map((q) => q.form)).size).toBeGreaterThanOrEqual(3);
    expect(forms.size).toBeGreaterThanOrEqual(4);
    expect(items.filter((q) => q.form === 'cloze').length / items.length).toBeLessThanOrEqual(0.4);
    const flat = LIGHTHOUSES.replace(/\s+/g, ' ');
    for (const q of items)
      if (q.kind !== 'matching')
        expect(flat).toContain(q.evidence.split(' ').slice(0, 6).join(' '));
  });

  it("asks which event of a story came first, keyed by the story's order", async () => {
    const doc = await make(HARBOUR_STORY, 'Quiz');
    const sequence = numberedQuestions(doc).filter((q) => q.form === 'sequence');
    for (const q of sequence) {
      if (q.kind !== 'multiple_choice') continue;
      const at = (c: string) => HARBOUR_STORY.indexOf(c.replace(/\.$/, ''));
      const positions = q.choices.map(at);
      expect(positions.every((p) => p >= 0)).toBe(true);
      const key = positions[q.answerIndex]!;
      if (/first/.test(q.prompt)) expect(key).toBe(Math.min(...positions));
      else expect(key).toBe(Math.max(...positions));
    }
  });
});

describe('more links of cause and effect (since, therefore, which is why)', () => {
  const why = (text: string) =>
    causeCandidates(contextFor(text), contextFor(text).analysis.sentences, 0);
  const pairs = (text: string) => {
    const ctx = contextFor(text);
    return causeCandidates(ctx, ctx.analysis.sentences, 0).map((c) => [c.prompt, c.answer]);
  };

  it('reads a "since" with a clause of its own as a reason', () => {
    expect(
      pairs('The village stayed dry, since the farmers had built a high wall of sand.'),
    ).toContainEqual([
      'Why did the village stay dry?',
      'Because the farmers had built a high wall of sand.',
    ]);
    expect(
      pairs('Since the bridge was closed, the traders crossed the river by boat.'),
    ).toContainEqual([
      'Why did the traders cross the river by boat?',
      'Because the bridge was closed.',
    ]);
  });

  it('does not read a "since" of time as a reason', () => {
    for (const text of [
      'The old mill has stood empty, since the workers left the valley.',
      'Since 1900, the town beside the river grew into a city.',
      'Ever since the storm, the road along the coast stayed closed.',
      'It was many years since the sailors saw the island.',
      'Since then, the keepers lit the lamp every evening.',
    ])
      expect(why(text)).toEqual([]);
  });

  it('reads ", which is why" and ", and therefore" as a result after its cause', () => {
    expect(
      pairs('The soil on the hills is thin and poor, which is why the farmers keep sheep.'),
    ).toContainEqual([
      'Why do the farmers keep sheep?',
      'Because the soil on the hills is thin and poor.',
    ]);
    expect(
      pairs('Salt water freezes at a lower temperature, and therefore the sea stays open longer.'),
    ).toContainEqual([
      'Why does the sea stay open longer?',
      'Because salt water freezes at a lower temperature.',
    ]);
  });

  it('keeps the reason to its own clause when a new clause follows a comma', () => {
    expect(
      pairs('The travellers moved slowly, because the path was narrow, and the rain made it wet.'),
    ).toContainEqual(['Why did the travellers move slowly?', 'Because the path was narrow.']);
  });

  it('reads ", for" with a clause of its own as a reason, but not a report ("for he said that")', () => {
    expect(
      pairs('The sailors stayed in the harbour all week, for the sea was too rough for the boats.'),
    ).toContainEqual([
      'Why did the sailors stay in the harbour all week?',
      'Because the sea was too rough for the boats.',
    ]);
    expect(
      why('The sailors stayed in the harbour all week, for they knew that storms were near.'),
    ).toEqual([]);
    expect(why('The sailors stayed in the harbour, for a week.')).toEqual([]);
  });

  it('asks nothing of a sentence that goes on from a quote, or of a coordinated predicate', () => {
    expect(why('the sailor said to his friend, for the sea was too rough for the boats.')).toEqual(
      [],
    );
    expect(
      why(
        'The farmers left the valley and walked to the town, because the river flooded the fields.',
      ),
    ).toEqual([]);
  });

  it('asks nothing of a negated clause ("didn’t like")', () => {
    for (const text of [
      'The old keeper didn’t like the new lamp, because the glass cracked in the cold.',
      "The old keeper didn't like the new lamp, because the glass cracked in the cold.",
    ])
      for (const c of why(text)) expect(c.prompt).not.toMatch(/n['’]t|not/);
  });
});
