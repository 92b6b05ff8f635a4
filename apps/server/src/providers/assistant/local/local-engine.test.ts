import { describe, expect, it } from 'vitest';
import { quotationsOf } from '../../../modules/assistant/assistant.service.js';
import { findCharacters, splitLongSentence, summarySentences } from './reading.js';
import { Source, splitSentences } from './source.js';
import { gradeIn, topicOf, understand } from './understand.js';

const GRADE = '8th Grade (Year 9)';

describe('what the offline assistant understands', () => {
  it.each([
    [
      'Give me three discussion questions about Letter 1 of Frankenstein',
      { kind: 'discussion', count: 3 },
    ],
    ['5 essay prompts please', { kind: 'discussion', count: 5 }],
    ['Summarize this chapter', { kind: 'summary' }],
    ['What happens in this chapter?', { kind: 'summary' }],
    ['Key quotes to discuss', { kind: 'key_passages', count: 5 }],
    ['Who are the characters?', { kind: 'characters' }],
    ['A vocabulary list of 8 words', { kind: 'vocabulary', count: 8 }],
    ['Which hard words should I teach?', { kind: 'vocabulary', count: 10 }],
    ['What is the reading level?', { kind: 'reading_level' }],
    ['Is it too hard for my class?', { kind: 'reading_level' }],
    ['Make a quiz from this', { kind: 'make_material', type: 'Quiz' }],
    ['Create a lesson plan for tomorrow', { kind: 'make_material', type: 'Lesson' }],
    ['Find books about whales', { kind: 'find_books', topic: 'whales' }],
    [
      'Can you recommend books on the French Revolution for my class',
      { kind: 'find_books', topic: 'the french revolution' },
    ],
    ['Adapt this passage to grade 5', { kind: 'adapt', grade: '5th Grade (Year 6)' }],
    ['Simplify it', { kind: 'adapt', grade: GRADE }],
    ['What is the theme? Explain it', { kind: 'beyond', query: 'theme explain' }],
    ['Where does the ship get stuck in the ice', { kind: 'search', query: 'ship stuck ice' }],
    ['hello', { kind: 'help' }],
  ])('%s', (message, intent) => {
    expect(understand(message, GRADE)).toEqual(intent);
  });

  it('reads grades and topics', () => {
    expect(gradeIn('for 3rd graders')).toBe('3rd Grade (Year 4)');
    expect(gradeIn('year 7 class')).toBe('6th Grade (Year 7)');
    expect(gradeIn('kindergarten')).toBe('Kindergarten (Year 1)');
    expect(topicOf('Please find passages about the frozen sea')).toBe('frozen sea');
  });
});

describe('reading a text', () => {
  const text = [
    'Letter 1',
    '_To Mrs. Saville, England._',
    'You will rejoice to hear that no disaster has accompanied the commencement of an enterprise. I arrived here yesterday, and my first task is to assure my dear sister of my welfare. Mr. Walton wrote again.',
    '“We must go north,” said Walton to the master. The master, a man of gentle manners, agreed; and the crew, which had been restless, cheered when Margaret’s letter was read aloud.',
    'There, Margaret, the sun is for ever visible. Margaret kept the letters.',
  ].join('\n\n');
  const source = Source.ofText(text, { source: 'text' });

  it('splits sentences without breaking at titles and finds each quote’s paragraph', () => {
    expect(splitSentences('Mr. Walton wrote. She read it! Did he?')).toEqual([
      'Mr. Walton wrote.',
      'She read it!',
      'Did he?',
    ]);
    expect(source.locate('I arrived here yesterday, and my first task')).toMatchObject({
      paragraph: 3,
    });
    expect(source.locate('“We must go north,” said Walton')).toMatchObject({ paragraph: 4 });
    expect(source.locate('not in the text at all')).toBeNull();
  });

  it('finds people, not places, and where they first appear', () => {
    const names = findCharacters(source, 5).map((c) => c.name);
    expect(names).toContain('Walton');
    expect(names).toContain('Margaret');
    expect(names).not.toContain('England');
  });

  it('summarises with the text’s own sentences, in order', () => {
    const picked = summarySentences(source, 2);
    expect(picked.length).toBe(2);
    expect(picked[0]!.order).toBeLessThan(picked[1]!.order);
    for (const s of picked) expect(text.replace(/\s+/g, ' ')).toContain(s.text);
  });

  it('splits a long sentence at its joints, keeping the words', () => {
    const parts = splitLongSentence(
      'The master, a man of gentle manners, agreed to go; and the crew, which had been restless for many days, cheered when the letter was read aloud to them all.',
      10,
    );
    expect(parts.length).toBeGreaterThan(1);
    expect(parts[0]).toBe('The master, a man of gentle manners, agreed to go.');
  });
});

describe('quotations in an answer', () => {
  it('takes blockquotes and quoted text, without citation marks and escapes', () => {
    expect(
      quotationsOf(
        '1. **Why?**\n\n   > I arrived here yesterday \\[sic\\], and so on. [2]\n\nHe says “the sun is for ever visible” [3] and "no". Short “two words”.',
      ),
    ).toEqual(['I arrived here yesterday [sic], and so on.', 'the sun is for ever visible']);
  });
});
