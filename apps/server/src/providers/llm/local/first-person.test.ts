import { describe, expect, it } from 'vitest';
import { buildPlan } from '../plan.js';
import { ReferenceIndex } from '../quality.js';
import { analyse } from './analyse.js';
import { seededRandom, standAloneStatement, type WriterContext } from './common.js';
import { detectGenre } from './genre.js';
import { beforeSemicolon, statementOf, writeTrueFalse } from './questions.js';

function contextFor(text: string): WriterContext {
  const analysis = analyse(text);
  detectGenre(analysis, text);
  return {
    analysis,
    plan: buildPlan({ type: 'Quiz', grade: '5th Grade (Year 6)', descriptionText: '' }),
    reference: new ReferenceIndex(text),
    random: seededRandom('first-person'),
    usedSentences: new Set(),
    usedAnswers: new Set(),
    stats: { distractorRejections: 0 },
  };
}

const STORY =
  'When I was a boy I lived with my aunt in a cottage by the sea. Our neighbour was a fisherman with a red boat. ' +
  'Every morning I carried the nets down to the harbour for him, and he paid me one copper coin. ' +
  'The gulls screamed over the harbour as I walked along the sea wall; and by the time I reached the boat, the sun was up. ' +
  'One winter a storm broke the red boat against the rocks. ' +
  'The fisherman built a new boat from the broken planks. ' +
  'I helped him paint it blue, and my aunt sewed a new sail.';

describe('first-person narration in true statements', () => {
  it('reads "our" as "the narrator\'s" in a story when no "we" or "us" is there', () => {
    const ctx = contextFor(STORY);
    const s = ctx.analysis.sentences.find((x) => x.text.startsWith('Our neighbour'))!;
    expect(statementOf(ctx, s)).toBe("The narrator's neighbour was a fisherman with a red boat.");
  });

  it('keeps "our" out of a statement outside a story and with "we" or "us"', () => {
    const essay = analyse('Our planet has one large moon. We should protect our rivers and lakes.');
    expect(standAloneStatement(essay.sentences[0]!)).toBeNull();
    expect(standAloneStatement(essay.sentences[1]!, true)).toBeNull();
  });

  it('takes the clause before a semicolon when the whole sentence names the narrator twice', () => {
    const ctx = contextFor(STORY);
    const s = ctx.analysis.sentences.find((x) => x.text.startsWith('The gulls'))!;
    expect(statementOf(ctx, s)!.match(/the narrator/g)).toHaveLength(2);
    const head = beforeSemicolon(s)!;
    expect(head.text).toBe('The gulls screamed over the harbour as I walked along the sea wall.');
    expect(statementOf(ctx, head)).toBe(
      'The gulls screamed over the harbour as the narrator walked along the sea wall.',
    );
  });

  it('gives no head that is short, a subordinate clause alone, or inside quotes', () => {
    const [short, sub, quoted] = analyse(
      'I smiled at the idea; then I went home. ' +
        'But as the old wall leaned so far over the narrow lane; nobody walked there. ' +
        '“The boat is ready for the long trip,” she said; and we left.',
    ).sentences;
    expect(beforeSemicolon(short!)).toBeNull();
    expect(beforeSemicolon(sub!)).toBeNull();
    expect(beforeSemicolon(quoted!)).toBeNull();
  });

  it('writes true statements from the first-person story with the whole sentence as evidence', () => {
    const ctx = contextFor(STORY);
    const items = writeTrueFalse(ctx, 5);
    const prompts = items.map((q) => q.prompt);
    for (const p of prompts) expect(p).not.toMatch(/\b(?:I|my|our|me)\b/);
    const gulls = items.find((q) => q.evidence.startsWith('The gulls'));
    if (gulls) expect(gulls.evidence).toContain('; and by the time I reached the boat');
  });
});
