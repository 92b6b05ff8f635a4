import { describe, expect, it } from 'vitest';
import { numberedQuestions } from '@chapterwise/shared';
import { passage } from '../../../test/chapters.js';
import { createInProcessLocalGenerator } from '../index.js';
import { analyse } from './analyse.js';
import { isAbout, peopleOf, wordNetKind } from './characters.js';
import { detectGenre } from './genre.js';

const generator = createInProcessLocalGenerator();
const GRADE = '7th Grade (Year 8)';

function generate(name: string, type: string, grade = GRADE) {
  return generator.generate({
    name,
    subject: 'English',
    grade,
    type,
    referenceText: passage(name),
    descriptionText: '',
  });
}

describe('characters', () => {
  it('are people: not a book, a place or a group ("Bible", "Europe", "Great Lakes", "Mainz")', () => {
    expect(wordNetKind('Bible')).toBe('other');
    expect(wordNetKind('Europe')).toBe('other');
    expect(wordNetKind('Great Lakes')).toBe('other');
    expect(wordNetKind('Gutenberg')).toBe('person');
    // WordNet knows "tom" only as a turkey, in lower case: no verdict on the name.
    expect(wordNetKind('Tom')).toBeNull();
    const printing = peopleOf(analyse(passage('printing')));
    expect(printing.people).not.toContain('Bible');
    expect(printing.people).not.toContain('Mainz');
    const glaciers = peopleOf(analyse(passage('glaciers')));
    expect(glaciers.people).toEqual([]);
  });

  it('a name that takes "the", or a common noun opening sentences, is not a person', () => {
    const text =
      'The Amazon is the largest river in South America. The Amazon carries more water than any other river. ' +
      'Water falls as rain over the forest. Water then flows into streams. ' +
      'Scientists measure the river every year. Scientists say it is changing.';
    expect(peopleOf(analyse(text)).people).toEqual([]);
  });

  it('in an informational text, a person is a historical figure, not a story character', () => {
    const analysis = analyse(passage('printing'));
    expect(detectGenre(analysis)).toBe('informational');
    expect(peopleOf(analysis).characters).toEqual([]);
  });

  it('in a story, are named twice or taken up by he/she, and act', () => {
    const analysis = analyse(passage('pirates'));
    expect(detectGenre(analysis)).toBe('narrative');
    const { characters } = peopleOf(analysis);
    expect(characters).toEqual(expect.arrayContaining(['Tom', 'Molly']));
    // Named once, in someone's story, doing nothing in the passage.
    expect(characters).not.toContain('Black Jack Harrow');
    expect(characters).not.toContain('Port Ellen');
  });

  it('never "describe how Bible and Johannes Gutenberg act", nor "Describe Bible"', async () => {
    for (const type of ['Lesson', 'Test', 'Worksheet']) {
      const document = await generate('printing', type);
      const text = JSON.stringify(document);
      expect(text).not.toMatch(/Bible and|describe how|Describe Bible|Describe Mainz/i);
      expect(text).not.toMatch(/Gutenberg(?:'s)? character|how .{0,30}Gutenberg feels/i);
    }
  });

  it('model answers about a character are about that character, not another one’s line', async () => {
    const document = await generate('pirates', 'Test');
    const asked = numberedQuestions(document).filter(
      (q) => q.kind === 'short_answer' && /\b(?:Tom|Molly)\b/.test(q.prompt),
    );
    const analysis = analyse(passage('pirates'));
    for (const q of asked) {
      if (q.kind !== 'short_answer') continue;
      const name = /\bTom\b/.test(q.prompt) ? 'Tom' : 'Molly';
      if (!/^(?:Describe|What do we learn|What does)/.test(q.prompt)) continue;
      const sentence = analysis.sentences.find((s) => s.text === q.evidence);
      expect(sentence && isAbout(sentence, name), q.evidence).toBe(true);
    }
  });
});

describe('lessons fit the genre', () => {
  const STORY =
    /happen next|key events|character|how .* feels|what kind of person|keeping the characters|acting out to show what happens|most important moment/i;

  it('informational texts get no story questions, objectives or activities', async () => {
    for (const name of ['printing', 'trees', 'electricity', 'glaciers']) {
      for (const grade of ['3rd Grade (Year 4)', GRADE]) {
        const document = await generate(name, 'Lesson', grade);
        const lesson = document.lesson!;
        const said = [
          ...lesson.objectives,
          ...lesson.activities.flatMap((a) => a.steps),
          ...lesson.differentiation.support,
          ...lesson.differentiation.extension,
          ...numberedQuestions(document).map((q) => q.prompt),
        ];
        for (const line of said) expect(line, `${name}, ${grade}`).not.toMatch(STORY);
        expect(lesson.objectives.join(' ')).toMatch(/main idea|evidence|facts/);
      }
    }
  });

  it('a story keeps its story questions', async () => {
    const document = await generate('pirates', 'Lesson');
    expect(document.lesson!.objectives.join(' ')).toMatch(/key events/);
    expect(document.lesson!.objectives.join(' ')).toMatch(/Tom/);
  });
});
