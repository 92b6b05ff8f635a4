import { describe, expect, it } from 'vitest';
import { numberedQuestions } from '@chapterwise/shared';
import { createMaterialGenerator } from '../index.js';
import { analyse } from './analyse.js';
import { detectGenre } from './genre.js';
import { GLACIER, PRINTING } from './test-passages.js';

const generator = createMaterialGenerator({ provider: 'local', timeoutMs: 2000, localThreads: 0 });

const STORY = `Tom ran down to the harbour before the sun was up. "The ship is leaving!" he shouted to his sister Anna. Anna grabbed her coat and followed him. The old captain was already standing on the deck. He waved at the children and laughed. "You are late," he said. Tom climbed the ladder first, and Anna came after him. The sailors pulled up the anchor, and the ship moved slowly out of the bay. Anna looked back at the little town and felt sad. Tom only looked ahead at the open sea. By noon the wind was strong and the waves were high. The captain told Tom to hold the rope tightly. Anna was afraid, but she did not cry. When the storm passed, the sky was clear and the sea was calm again.`;

const POEM = `The wind came down from the northern hills,
And shook the reeds by the water mills,

The geese flew low on the evening air,
And the farmer stood in his doorway there,

He watched the sky turn red and gold,
And felt the night come sharp and cold,

The lamps were lit in the village street,
And the children hurried home on weary feet,

The church bell rang across the snow,
And all the world lay still below.`;

async function make(text: string, type: string, description = '') {
  return generator.generate({
    name: 'Kinds test',
    subject: 'English',
    grade: '7th Grade (Year 8)',
    type,
    referenceText: text,
    descriptionText: description,
  });
}

describe('genre (issue 22, vague)', () => {
  it('tells stories, informational texts and poems apart', () => {
    expect(detectGenre(analyse(STORY))).toBe('narrative');
    expect(detectGenre(analyse(GLACIER))).toBe('informational');
    expect(detectGenre(analyse(PRINTING))).toBe('informational');
    expect(detectGenre(analyse(POEM), POEM)).toBe('poem');
  });

  it('asks no story questions about an informational text', async () => {
    for (const type of ['Test', 'Worksheet', 'Lesson']) {
      const doc = await make(GLACIER, type);
      for (const q of numberedQuestions(doc)) {
        expect(q.prompt, q.prompt).not.toMatch(/do or say|will happen next|feels? in this part/i);
      }
    }
  });
});

describe('true/false statements (issue 13, issue 22 nonsense)', () => {
  it('never says "the narrator" twice, never swaps quantities, and marks how each was made', async () => {
    for (const text of [STORY, GLACIER, PRINTING]) {
      const doc = await make(text, 'Quiz', '10 questions, true/false only');
      const items = numberedQuestions(doc);
      expect(items.length).toBeGreaterThan(0);
      for (const q of items) {
        expect(q.kind).toBe('true_false');
        if (q.kind !== 'true_false') continue;
        expect((q.prompt.match(/the narrator/gi) ?? []).length).toBeLessThanOrEqual(1);
        expect(q.prompt).not.toMatch(/^Least of|\bleast of the\b/i);
        expect(['tf_true', 'tf_swap', 'tf_negation']).toContain(q.form);
        expect(q.form === 'tf_true').toBe(q.answer);
        // A false statement is not in the text; a negation is of a short sentence only.
        if (!q.answer) expect(text.includes(q.prompt.replace(/\.$/, ''))).toBe(false);
        if (q.form === 'tf_negation') expect(q.prompt.split(/\s+/).length).toBeLessThanOrEqual(18);
      }
    }
  });
});

describe('a mix of question forms by default (issue 13)', () => {
  it('records every question form and keeps cloze to about 40% of a quiz', async () => {
    const doc = await make(GLACIER, 'Quiz');
    const items = numberedQuestions(doc);
    for (const q of items) expect(q.form, q.prompt).toBeDefined();
    const cloze = items.filter((q) => q.form === 'cloze').length;
    // A six-question quiz on a text with one cause and one condition: "why" and "what happens"
    // items abstain without wrong options of their own kind, so three of six may be cloze.
    expect(cloze / items.length).toBeLessThanOrEqual(0.5);
    // Eleven sentences with one cause and one condition: no "why" or "what happens" item has
    // wrong options of its own kind, and the cloze gates leave few blanks (2026-11-27).
    expect(new Set(items.map((q) => q.form)).size).toBeGreaterThanOrEqual(2);
  });

  it('offers "Which statement is supported by the text?" with one true statement', async () => {
    const doc = await make(GLACIER, 'Test');
    const supported = numberedQuestions(doc).filter((q) => q.form === 'supported');
    expect(supported.length).toBeGreaterThan(0);
    for (const q of supported) {
      if (q.kind !== 'multiple_choice') continue;
      const flat = GLACIER.replace(/\s+/g, ' ');
      const inText = q.choices.filter((c) => flat.includes(c.replace(/\.$/, '')));
      expect(inText).toEqual([q.choices[q.answerIndex]]);
    }
  });
});
