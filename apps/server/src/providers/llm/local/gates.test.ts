import { describe, expect, it } from 'vitest';
import { numberedQuestions, type MaterialDocument } from '@chapterwise/shared';
import { createMaterialGenerator } from '../index.js';
import { analyse } from './analyse.js';
import { articleFits, badBlank, wordNetNear } from './gates.js';
import { GLACIER, PRINTING } from './test-passages.js';

const generator = createMaterialGenerator({ provider: 'local', timeoutMs: 2000, localThreads: 0 });

async function make(text: string, type: string, description = '', grade = '7th Grade (Year 8)') {
  return generator.generate({
    name: 'Gate test',
    subject: 'History',
    grade,
    type,
    referenceText: text,
    descriptionText: description,
  });
}

function mcAndBlanks(doc: MaterialDocument) {
  return numberedQuestions(doc).filter(
    (q) => q.kind === 'multiple_choice' || q.kind === 'fill_blank',
  );
}

describe('distractor gates (issue 13)', () => {
  it('rejects WordNet-near candidates from the failing examples', () => {
    // "books in Europe were _____ by hand": copied / produced / printed.
    expect(wordNetNear('copy', 'produce', 'verb')).not.toBeNull();
    expect(wordNetNear('copy', 'print', 'verb')).not.toBeNull();
    expect(wordNetNear('print', 'produce', 'verb')).not.toBeNull();
    // "the accounts of the various _____": expeditions / voyages.
    expect(wordNetNear('expedition', 'voyage', 'noun')).not.toBeNull();
    // "an _____ of lead, tin and antimony": alloy / metal.
    expect(wordNetNear('alloy', 'metal', 'noun')).not.toBeNull();
    // Derivational relatives and the same stem.
    expect(wordNetNear('print', 'printer', 'noun')).not.toBeNull();
  });

  it('keeps checkably different terms of the same class', () => {
    expect(wordNetNear('lead', 'tin', 'noun')).toBeNull();
    expect(wordNetNear('sailor', 'merchant', 'noun')).toBeNull();
    expect(wordNetNear('glacier', 'river', 'noun')).toBeNull();
  });

  it('checks that a/an before the blank fits every option', () => {
    const s = analyse('He cast each letter in an alloy of lead.').sentences[0]!;
    const at = s.text.indexOf('alloy');
    expect(articleFits(s, at, 'alloy')).toBe(true);
    expect(articleFits(s, at, 'metal')).toBe(false);
    expect(articleFits(s, at, 'ink')).toBe(true);
  });

  it('never offers two options a reader could defend in a generated quiz or test', async () => {
    for (const type of ['Quiz', 'Test', 'Worksheet']) {
      const doc = await make(PRINTING, type);
      for (const q of numberedQuestions(doc)) {
        if (q.kind !== 'multiple_choice' || q.form !== 'cloze') continue;
        const words = q.choices.map((c) => c.toLowerCase());
        const has = (w: string) => words.some((c) => c.includes(w));
        expect(has('copied') && (has('produced') || has('printed')), q.prompt).toBe(false);
        expect(has('expeditions') && has('voyages'), q.prompt).toBe(false);
        expect(has('alloy') && has('metal'), q.prompt).toBe(false);
        if (/\ban _____/.test(q.prompt))
          for (const c of q.choices) expect(/^[aeiou]/i.test(c), `${q.prompt} ${c}`).toBe(true);
        // Abstain rather than pad: at least two distractors, or no item.
        expect(q.choices.length).toBeGreaterThanOrEqual(3);
      }
    }
  });
});

describe('blank gates (issue 22, trivial)', () => {
  const analysis = analyse(GLACIER);
  const find = (sentenceStart: string, word: string) => {
    const s = analysis.sentences.find((x) => x.text.startsWith(sentenceStart))!;
    return { s, i: s.tokens.findIndex((t) => t.value === word) };
  };

  it('never blanks the topic word, a part of a name, or a word standing in its own sentence', () => {
    const topic = find('A glacier is', 'glacier');
    expect(badBlank(analysis, topic.s, topic.i)).toBe('topic word');
    const ocean = find('Near the Pacific', 'Ocean');
    expect(badBlank(analysis, ocean.s, ocean.i)).toBe('part of a name');
    const snow = find('Year after year', 'snow');
    expect(badBlank(analysis, snow.s, snow.i)).toBeNull();
    const again = analyse('The snow fell and the snow stayed on the hills.');
    const s = again.sentences[0]!;
    expect(
      badBlank(
        again,
        s,
        s.tokens.findIndex((t) => t.value === 'hills'),
      ),
    ).toBeNull();
  });

  it('skips everyday words and common verbs', () => {
    const a = analyse('She opened the door and took the heavy book from the shelf.');
    const s = a.sentences[0]!;
    expect(
      badBlank(
        a,
        s,
        s.tokens.findIndex((t) => t.value === 'door'),
      ),
    ).toBe('unimportant word');
    expect(
      badBlank(
        a,
        s,
        s.tokens.findIndex((t) => t.value === 'took'),
      ),
    ).toBe('common verb');
  });

  it('generated items on the glacier text ask for neither the topic nor a part of a name', async () => {
    for (const type of ['Quiz', 'Test', 'Worksheet']) {
      const doc = await make(GLACIER, type);
      for (const q of mcAndBlanks(doc)) {
        expect(q.prompt, q.prompt).not.toMatch(/A _____ is a slow river of ice/);
        expect(q.prompt, q.prompt).not.toMatch(/Pacific _____|_____ Ocean/);
        const answer = q.kind === 'fill_blank' ? q.answer : q.choices[q.answerIndex]!;
        if (q.prompt.includes('_____'))
          expect(['glacier', 'glaciers'], q.prompt).not.toContain(answer.toLowerCase());
      }
    }
  });

  it('reports the rejected distractors to the evaluation', async () => {
    const doc = await make(PRINTING, 'Test');
    expect(doc.generator.distractorRejections ?? 0).toBeGreaterThan(0);
  });
});
