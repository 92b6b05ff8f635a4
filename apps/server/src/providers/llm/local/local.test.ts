import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MATERIAL_TYPES,
  MaterialDocumentSchema,
  numberedQuestions,
  renderMaterialText,
  type MaterialDocument,
  type QuestionKind,
} from '@chapterwise/shared';
import { loadChapters, longText } from '../../../test/chapters.js';
import { createMaterialGenerator } from '../index.js';
import { buildPlan } from '../plan.js';
import { analyse } from './analyse.js';
import { lessonTopic } from './lesson.js';
import { senseInContext } from './wordnet.js';
import {
  containsPhrase,
  normaliseForMatch,
  ReferenceIndex,
  support,
  termInContext,
} from '../quality.js';

const generator = createMaterialGenerator({ provider: 'local', timeoutMs: 1000 });
const GRADES_TRIED = ['3rd Grade (Year 4)', '7th Grade (Year 8)', '11th Grade (Year 12)'];

/** Short answers the generator abstained from, over a whole catalogue run. */
let shortAnswersMissing = 0;
let trueFalseAsked = 0;
let trueFalseMissing = 0;
let matchingAsked = 0;
let matchingMissing = 0;
/** Places of a default mix (multiple choice, true/false, short answer) left empty. */
let mixAsked = 0;
let mixMissing = 0;
const MIX: QuestionKind[] = ['multiple_choice', 'true_false', 'short_answer'];

/** Every rule a teacher relies on, as a list of broken ones (empty when the material is sound). */
function problemsOf(
  document: MaterialDocument,
  referenceText: string,
  counts: Partial<Record<QuestionKind, number>>,
  mixed = false,
): string[] {
  const problems: string[] = [];
  const reference = new ReferenceIndex(referenceText);
  const prompts = new Set<string>();
  for (const question of numberedQuestions(document)) {
    const key = normaliseForMatch(question.prompt);
    if (prompts.has(key)) problems.push(`duplicate question: ${question.prompt}`);
    prompts.add(key);
    const quotes =
      question.kind === 'matching' ? question.pairs.map((p) => p.evidence) : [question.evidence];
    for (const quote of quotes) {
      if (!reference.hasEvidence(quote)) problems.push(`evidence not in the text: ${quote}`);
    }
    switch (question.kind) {
      case 'multiple_choice': {
        const keys = question.choices.map((c) => normaliseForMatch(c));
        if (new Set(keys).size !== keys.length)
          problems.push(`choices not distinct: ${question.choices.join(' / ')}`);
        if (question.answerIndex < 0 || question.answerIndex >= question.choices.length)
          problems.push('answer out of range');
        const answer = question.choices[question.answerIndex]!;
        // A word's meaning in context comes from a dictionary or the passage's definition.
        if (question.form === 'vocab_context') {
          const term = /“([^”]+)” mean\?$/.exec(question.prompt)?.[1] ?? '';
          if (!termInContext(term, question.evidence))
            problems.push(`word not in its sentence: ${term}`);
        } else if (support(answer, `${question.evidence} ${question.prompt}`) < 0.5)
          problems.push(`answer not supported: ${answer}`);
        // Exactly one correct choice: no distractor is what the evidence says instead.
        const wrongInEvidence = question.choices.filter(
          (c, i) =>
            i !== question.answerIndex &&
            containsPhrase(question.evidence, c) &&
            !containsPhrase(question.prompt, c),
        );
        if (wrongInEvidence.length && !containsPhrase(question.evidence, answer))
          problems.push(`a distractor is in the evidence: ${wrongInEvidence[0]}`);
        break;
      }
      case 'true_false':
        if (!question.answer && reference.contains(question.prompt))
          problems.push(`false statement is in the text: ${question.prompt}`);
        if (question.answer && support(question.prompt, question.evidence) < 0.6)
          problems.push(`true statement unsupported: ${question.prompt}`);
        break;
      case 'fill_blank':
        if (!question.prompt.includes('_____')) problems.push('no blank');
        if (!containsPhrase(question.evidence, question.answer))
          problems.push(`blank answer not in evidence: ${question.answer}`);
        break;
      case 'matching':
        if (new Set(question.pairs.map((p) => p.right)).size !== question.pairs.length)
          problems.push('matching items repeat');
        break;
      default:
        break;
    }
  }
  for (const item of document.vocabulary) {
    if (!reference.hasEvidence(item.context))
      problems.push(`vocabulary example not in the text: ${item.context}`);
  }
  const made = (kinds: string[]) =>
    document.sections.flatMap((s) => s.questions).filter((q) => kinds.includes(q.kind)).length;
  if (mixed) {
    // A default mix moves places between these kinds towards those the text supports (mix.ts):
    // the total holds, and multiple choice fills at least its own places between them.
    const kinds = MIX.filter((k) => (counts[k] ?? 0) > 0);
    const wanted = kinds.reduce((n, k) => n + (counts[k] ?? 0), 0);
    const got = made(kinds);
    if (got > wanted || got < (counts.multiple_choice ?? 0))
      problems.push(`mix: ${got} of ${wanted}`);
    mixAsked += wanted;
    mixMissing += wanted - got;
  }
  for (const [kind, wanted] of Object.entries(counts)) {
    if (mixed && MIX.includes(kind as QuestionKind)) continue;
    const got = made([kind]);
    // Short answers abstain rather than pad (issue 13): no generic "what does the text say
    // about X" when the text gives no real question; the note tells the teacher.
    // True/false statements abstain too when a chapter has few sentences that stand alone
    // (first-person dialogue: "I took it up and glanced at it" needs the sentence before).
    // Matching abstains too: a set is built only from entries sure enough that no pair spoils
    // it, and needs four of them (issue 22: one weak pair fails the whole item).
    const mayAbstain = kind === 'short_answer' || kind === 'true_false' || kind === 'matching';
    if (kind === 'matching') {
      matchingAsked += wanted;
      matchingMissing += Math.max(0, wanted - got);
    }
    if (mayAbstain ? got > wanted : got !== wanted) problems.push(`${kind}: ${got} of ${wanted}`);
    if (kind === 'short_answer' && got < wanted) shortAnswersMissing += wanted - got;
    if (kind === 'true_false') {
      trueFalseAsked += wanted;
      trueFalseMissing += wanted - got;
    }
  }
  return problems;
}

describe('local generator over a chapter of each of the 34 sample books', () => {
  const chapters = loadChapters();

  it('has the 34 books', () => {
    expect(chapters).toHaveLength(34);
    for (const c of chapters) {
      expect(c.text).not.toMatch(/Project Gutenberg|\*\*\* START/i);
      expect(c.text.split(/\s+/).length).toBeGreaterThan(2500);
    }
  });

  for (const type of DEFAULT_MATERIAL_TYPES) {
    it(`writes a sound ${type} for every book`, async () => {
      const failures: string[] = [];
      for (const [i, c] of chapters.entries()) {
        const grade = GRADES_TRIED[i % GRADES_TRIED.length]!;
        const request = {
          name: `${c.title}: ${c.heading || 'excerpt'}`,
          subject: 'English',
          grade,
          type,
          referenceText: c.text,
          descriptionText: '',
        };
        const document = await generator.generate(request);
        MaterialDocumentSchema.parse(document);
        const plan = buildPlan(request);
        const mixed = plan.defaultMix && (type === 'Quiz' || type === 'Test');
        const problems = problemsOf(document, c.text, plan.counts, mixed);
        if (type === 'Lesson') {
          const lesson = document.lesson;
          if (!lesson) problems.push('no lesson plan');
          else {
            if (lesson.objectives.length < 3) problems.push('too few objectives');
            const minutes = lesson.activities.reduce((n, a) => n + a.minutes, 0);
            if (minutes !== lesson.durationMinutes)
              problems.push(`activities take ${minutes} of ${lesson.durationMinutes} minutes`);
            if (lesson.exitTicket.length < 3)
              problems.push(`exit ticket has ${lesson.exitTicket.length} questions`);
            if (!lesson.differentiation.support.length || !lesson.differentiation.extension.length)
              problems.push('no differentiation');
            if (!lesson.assessment.length) problems.push('no assessment');
            if (lesson.keyPassages.length < 3) problems.push('summary too short');
          }
          // Grade 3 may fall two words short: a story for young readers has few words above
          // what they know, and "baby", "excellent" and "stairs: a steps" are no longer taught.
          if (document.vocabulary.length < plan.vocabulary - (plan.level <= 3 ? 2 : 0))
            problems.push(`vocabulary ${document.vocabulary.length} of ${plan.vocabulary}`);
        }
        // One word fewer at most: everyday words that spoken frequency misses ("traveler",
        // "warmth") are no longer taught, and a long chapter may then lack a sixth word for grade 3.
        if (
          type === 'Worksheet' &&
          document.vocabulary.length < plan.vocabulary - (plan.level <= 3 ? 3 : 1)
        ) {
          problems.push(`vocabulary ${document.vocabulary.length} of ${plan.vocabulary}`);
        }
        const text = renderMaterialText(document);
        if (!text.includes('ANSWER KEY')) problems.push('no answer key');
        for (const p of problems) failures.push(`${c.id} ${c.title} (${grade}): ${p}`);
      }
      expect(failures).toEqual([]);
      // Abstentions stay bounded (measured 2026-11-27: Test 41%, Worksheet under 25% of the
      // short answers asked for on the 34 chapters; the multiple choice takes the best sentences).
      if (type === 'Worksheet') {
        const asked = chapters.length * 4;
        // 2026-11-27 (gen-forms): Test 50%, Worksheet 42% after stems that lean on another sentence ("Who
        // took an opportunity of thanking her?", "the next day") are no longer asked.
        // 2026-11-28 (wh): Worksheet 52%: "How did the Hatter ask? Triumphantly." is no
        // longer asked (15 of 15 such questions unacceptable on 40 chapters nobody tuned on), and
        // a story's who/what/where question must turn on something the story mentions again.
        // (A default test's short answers are part of its mix, bounded below.)
        expect(shortAnswersMissing / asked).toBeLessThan(0.56);
      }
      // Measured 2026-11-27 (gen-forms): 3% of the quiz's, 7% of the test's statements.
      if (trueFalseAsked) expect(trueFalseMissing / trueFalseAsked).toBeLessThan(0.12);
      // Measured 2026-11-28 (vocab): 2 of the 34 worksheets' matching sets abstain.
      if (matchingAsked) expect(matchingMissing / matchingAsked).toBeLessThan(0.2);
      // Measured 2026-11-28 (forms): 8 of 340 quiz places, 26 of 612 test places left empty
      // (short answers alone left about half of theirs empty before places could move).
      if (mixAsked) expect(mixMissing / mixAsked).toBeLessThan(0.08);
      mixAsked = 0;
      mixMissing = 0;
      matchingAsked = 0;
      matchingMissing = 0;
      shortAnswersMissing = 0;
      trueFalseAsked = 0;
      trueFalseMissing = 0;
      // 34 whole generations in a row: a busy machine needs more than the default 30 s.
    }, 180_000);
  }
});

describe('what the description asks for', () => {
  const text = loadChapters().find((c) => c.id === 1342)!.text;

  it('"10 questions, true/false only" gives exactly 10 true/false statements', async () => {
    const request = {
      name: 'P&P',
      subject: 'English',
      grade: '9th Grade (Year 10)',
      type: 'Quiz',
      referenceText: text,
      descriptionText: '10 questions, true/false only',
    };
    const document = await generator.generate(request);
    const questions = numberedQuestions(document);
    expect(questions).toHaveLength(10);
    expect(questions.every((q) => q.kind === 'true_false')).toBe(true);
    const answers = questions.map((q) => (q.kind === 'true_false' ? q.answer : null));
    expect(answers).toContain(true);
    expect(answers).toContain(false);
  });

  it('"12 multiple choice questions with 3 choices" is honoured', async () => {
    const document = await generator.generate({
      name: 'P&P',
      subject: 'English',
      grade: '6th Grade (Year 7)',
      type: 'Test',
      referenceText: text,
      descriptionText: 'Only 12 multiple choice questions with 3 choices each',
    });
    const questions = numberedQuestions(document);
    expect(questions).toHaveLength(12);
    expect(questions.every((q) => q.kind === 'multiple_choice' && q.choices.length === 3)).toBe(
      true,
    );
  });

  it('a 60-minute lesson has activities that add up to 60 minutes', async () => {
    const document = await generator.generate({
      name: 'P&P',
      subject: 'English',
      grade: '10th Grade (Year 11)',
      type: 'Lesson',
      referenceText: text,
      descriptionText: 'a 60 minute lesson with 8 vocabulary words',
    });
    expect(document.lesson?.durationMinutes).toBe(60);
    expect(document.lesson?.activities.reduce((n, a) => n + a.minutes, 0)).toBe(60);
    expect(document.vocabulary).toHaveLength(8);
  });

  it('is the same material for the same request', async () => {
    const request = {
      name: 'P&P',
      subject: 'English',
      grade: '9th Grade (Year 10)',
      type: 'Quiz',
      referenceText: text,
      descriptionText: '',
    };
    expect(await generator.generate(request)).toEqual(await generator.generate(request));
  });

  it('chooses shorter, easier sentences for younger readers', async () => {
    const long = longText(6000);
    const words = async (grade: string) => {
      const document = await generator.generate({
        name: 'x',
        subject: 'English',
        grade,
        type: 'Quiz',
        referenceText: long,
        descriptionText: '',
      });
      const quotes = numberedQuestions(document).map((q) =>
        q.kind === 'matching' ? '' : q.evidence,
      );
      return quotes.reduce((n, q) => n + q.split(/\s+/).length, 0) / quotes.length;
    };
    const young = await words('1st Grade (Year 2)');
    const older = await words('12th Grade (Year 13)');
    expect(young).toBeLessThan(older);
    expect(young).toBeLessThanOrEqual(18);
  });
});

describe('lesson objectives', () => {
  it('name the text by its title without the material words, or say "the passage"', () => {
    expect(lessonTopic('Frankenstein: Letter 1 Lesson')).toBe('“Frankenstein: Letter 1”');
    expect(lessonTopic('Letter 1 Lesson')).toBe('“Letter 1”');
    expect(lessonTopic('Moby Dick - Chapter 3 quiz')).toBe('“Moby Dick - Chapter 3”');
    expect(lessonTopic('GE1 Lesson')).toBe('the passage');
    expect(lessonTopic('Period 3 lesson plan')).toBe('the passage');
    expect(lessonTopic('Lesson')).toBe('the passage');
  });

  it('never present a code name as the text in a generated plan', async () => {
    const text = loadChapters()[0]!.text;
    const document = await generator.generate({
      name: 'GE1 Lesson',
      subject: 'English',
      grade: '8th Grade (Year 9)',
      type: 'Lesson',
      referenceText: text,
      descriptionText: '',
    });
    const objectives = document.lesson!.objectives.join(' ');
    expect(objectives).not.toContain('GE1');
  });
});

describe('names in verse', () => {
  it('an old verb or pronoun that opens a line is not a name', () => {
    const verse = [
      'Doth Romeo love the fair Juliet, or doth he love the moon?',
      'Doth not the night hide him from Tybalt and from Mercutio?',
      'Thou art more lovely, said Romeo to Juliet in the garden.',
      'Hath Juliet heard him? Doth the Nurse know? Romeo waits below.',
      'Thy name is my enemy, said Juliet, and Romeo answered her softly.',
    ].join('\n');
    const names = [...analyse(verse).names.keys()];
    expect(names).toContain('Romeo');
    expect(names).toContain('Juliet');
    for (const word of ['Doth', 'Hath', 'Thou', 'Thy']) expect(names).not.toContain(word);
  });

  it('"St." before a city is not a person', () => {
    const letter = [
      'St. Petersburgh, Dec. 11th.',
      'I arrived in St. Petersburgh yesterday, and Margaret will rejoice to hear it.',
      'The cold of St. Petersburgh is bitter, said Walton to his sister Margaret.',
    ].join('\n');
    const names = analyse(letter).names;
    expect(names.get('Margaret')?.kind).toBe('person');
    expect(names.get('St. Petersburgh')?.kind).not.toBe('person');
  });
});

describe('word senses for vocabulary', () => {
  it('prefer the plain meaning a word heads over a figurative synonym, and follow the context', () => {
    const pirate = senseInContext(
      'pirate',
      'noun',
      'chains hanging to it which had once held a pirate',
    );
    expect(pirate?.words[0]).toBe('pirate');
    expect(pirate?.definition).toMatch(/robs at sea/);
    const river = senseInContext('bank', 'noun', 'he sat on the bank of the river fishing');
    expect(river?.definition).toMatch(/sloping land/);
    const money = senseInContext('bank', 'noun', 'she put her money in the bank and took a loan');
    expect(money?.definition).toMatch(/financial institution/);
  });
});
