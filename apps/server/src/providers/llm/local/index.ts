import type { MaterialDocument, Question, QuestionKind } from '@chapterwise/shared';
import type { GenerationPlan } from '../plan.js';
import { ReferenceIndex } from '../quality.js';
import { instructionsFor, sectionFor } from '../sections.js';
import type { DraftResult, GenerationRequest, GeneratorAdapter } from '../types.js';
import { analyse } from './analyse.js';
import { seededRandom, type WriterContext } from './common.js';
import { detectGenre } from './genre.js';
import { writeLesson } from './lesson.js';
import { rebalanced } from './mix.js';
import {
  clozeBudget,
  writeDiscussion,
  writeFillBlank,
  writeMatching,
  writeMultipleChoice,
  writeShortAnswer,
  writeTrueFalse,
} from './questions.js';
import { writeVocabulary } from './vocabulary.js';

/**
 * The built-in generator: no network, no keys, no model weights. It reads the reference
 * text with real NLP (see analyse.ts) and writes each kind of question from the text's own
 * sentences, so every answer can be traced to a quote. Deterministic for a given request.
 */
export class LocalAdapter implements GeneratorAdapter {
  readonly engine = 'local';

  async draft(request: GenerationRequest, plan: GenerationPlan): Promise<DraftResult> {
    const analysis = analyse(request.referenceText);
    // Once, with the raw lines (verse is told by them); the writers read it from the cache.
    detectGenre(analysis, request.referenceText);
    const ctx: WriterContext = {
      analysis,
      plan,
      reference: new ReferenceIndex(request.referenceText),
      random: seededRandom(
        `${request.type}|${request.grade}|${request.descriptionText}|${request.referenceText.length}|${request.referenceText.slice(0, 200)}`,
      ),
      usedSentences: new Set(),
      usedAnswers: new Set(),
      stats: { distractorRejections: 0 },
      title: request.name,
    };
    const asked = Object.values(plan.counts).reduce((a, b) => a + (b ?? 0), 0);
    ctx.spares = analysis.sentences.length >= asked * 2 ? 2 : 0;

    const matchingCount = plan.counts.matching ?? 0;
    // Two spare words in case the gate turns one down.
    const spares = plan.vocabulary > 0 ? 2 : 0;
    // Words for "what does X mean in this sentence" items too (multiple choice).
    const inContext = (plan.counts.multiple_choice ?? 0) > 0 ? 8 : 0;
    const vocabularyPool = writeVocabulary(
      ctx,
      plan.vocabulary + spares + matchingCount * plan.matchingPairs + inContext,
    );
    const vocabulary = vocabularyPool.slice(0, plan.vocabulary + spares);
    // Matching uses other words than the vocabulary list when there are enough, so it is not a
    // copy of it; otherwise the list's own words are matched to the sentences they complete.
    const fresh = vocabularyPool.slice(vocabulary.length);
    const forMatching =
      vocabulary.length === 0 || fresh.length >= Math.min(4, plan.matchingPairs) ? fresh : [];
    const listed = vocabulary.length > 0 ? vocabulary : [];

    const written: Partial<Record<QuestionKind, Question[]>> = {};
    const writers: Array<[QuestionKind, (n: number) => Question[]]> = [
      [
        'multiple_choice',
        // Words of the list and of the matching question last: asked in context, they repeat.
        (n) =>
          writeMultipleChoice(ctx, n, [
            ...vocabularyPool.filter((w) => !vocabulary.includes(w) && !forMatching.includes(w)),
            ...vocabularyPool.filter((w) => vocabulary.includes(w) || forMatching.includes(w)),
          ]),
      ],
      ['true_false', (n) => writeTrueFalse(ctx, n)],
      ['fill_blank', (n) => writeFillBlank(ctx, n)],
      ['short_answer', (n) => writeShortAnswer(ctx, n)],
      ['discussion', (n) => writeDiscussion(ctx, n)],
      ['matching', (n) => writeMatching(ctx, n, forMatching, listed)],
    ];
    // A default mix of a quiz or test: short answers write spares that may take the places
    // other kinds cannot fill well (see mix.ts).
    const mixing = plan.defaultMix && (plan.kind === 'quiz' || plan.kind === 'test');
    for (const [kind, write] of writers) {
      const n = plan.counts[kind] ?? 0;
      if (n > 0) written[kind] = write(mixing && kind === 'short_answer' ? n + 2 : n);
    }
    const counts = mixing
      ? rebalanced(
          plan.counts,
          written,
          Math.floor(clozeBudget(ctx) - (plan.counts.fill_blank ?? 0)),
        )
      : plan.counts;

    const sections = (Object.keys(written) as QuestionKind[]).map((kind) => ({
      ...sectionFor(kind, plan),
      questions: (written[kind] ?? []).slice(0, counts[kind] ?? 0),
    }));
    const reserve: Partial<Record<QuestionKind, Question[]>> = {};
    for (const kind of Object.keys(written) as QuestionKind[]) {
      reserve[kind] = (written[kind] ?? []).slice(counts[kind] ?? 0);
    }

    let lesson: MaterialDocument['lesson'];
    let exitTicketReserve: Question[] = [];
    if (plan.kind === 'lesson') {
      const prompts = (written.discussion ?? []).map((q) => q.prompt);
      const made = writeLesson(ctx, request, vocabulary.slice(0, plan.vocabulary), prompts);
      lesson = made.lesson;
      exitTicketReserve = made.exitTicketSpares;
    }

    const document: MaterialDocument = {
      version: 1,
      title: request.name,
      type: request.type,
      grade: request.grade,
      subject: request.subject,
      instructions: instructionsFor(plan),
      sections,
      vocabulary,
      ...(lesson ? { lesson } : {}),
      generator: {
        engine: 'local',
        droppedQuestions: 0,
        distractorRejections: ctx.stats?.distractorRejections ?? 0,
        unverified: false,
        notes: [],
      },
    };
    return { document, reserve, exitTicketReserve, ...(mixing ? { counts } : {}) };
  }
}
