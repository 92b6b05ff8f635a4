import {
  MaterialDocumentSchema,
  QUESTION_KIND_LABELS,
  type MaterialDocument,
  type Question,
  type QuestionKind,
} from '@chapterwise/shared';
import { LocalAdapter } from './local/index.js';
import { OpenAiAdapter } from './openai.js';
import { buildPlan, type GenerationPlan } from './plan.js';
import { applyQualityGate, ReferenceIndex, type GateResult } from './quality.js';
import { sectionFor } from './sections.js';
import { ThreadedLocalGenerator } from './local/threaded-generator.js';
import {
  GenerationError,
  type GenerationRequest,
  type GeneratorAdapter,
  type MaterialGenerator,
} from './types.js';

export { GenerationError, type GenerationRequest, type MaterialGenerator } from './types.js';
export { buildPlan } from './plan.js';
/** The gate's evidence matching, for checking quotes a teacher edits (materials module). */
export { ReferenceIndex } from './quality.js';

export interface LlmConfig {
  provider: 'local' | 'openai';
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
  model?: string | undefined;
  timeoutMs: number;
  /** Worker threads of the built-in generator; 0 runs it on the main thread (tools, debugging). */
  localThreads?: number;
}

/** The fewest words of text the built-in generator can write a material from. */
export const LOCAL_MINIMUM_WORDS = 60;

/** The generator the config asks for, behind the plan and the quality gate. Chosen once at boot. */
export function createMaterialGenerator(
  config: LlmConfig,
  fetchImpl?: typeof fetch,
  onThreadCrash?: (error: unknown) => void,
): MaterialGenerator {
  if (config.provider === 'openai') {
    if (!config.baseUrl || !config.model)
      throw new Error('LLM_BASE_URL and LLM_MODEL are required for the openai provider');
    return new GatedGenerator(
      new OpenAiAdapter({
        baseUrl: config.baseUrl,
        apiKey: config.apiKey,
        model: config.model,
        timeoutMs: config.timeoutMs,
        ...(fetchImpl ? { fetch: fetchImpl } : {}),
      }),
      0,
    );
  }
  const threads = config.localThreads ?? 1;
  if (threads === 0) return createInProcessLocalGenerator();
  return new ThreadedLocalGenerator(LOCAL_MINIMUM_WORDS, threads, onThreadCrash);
}

/** The built-in generator on the calling thread (what each generation thread runs). */
export function createInProcessLocalGenerator(): MaterialGenerator {
  return new GatedGenerator(new LocalAdapter(), LOCAL_MINIMUM_WORDS);
}

function sumOf(counts: Partial<Record<QuestionKind, number>>): number {
  return Object.values(counts).reduce((a, b) => a + (b ?? 0), 0);
}

function label(kind: QuestionKind): string {
  return QUESTION_KIND_LABELS[kind].toLowerCase();
}

/**
 * Runs an adapter and passes its draft through the quality gate: spares fill the places of
 * dropped questions, and an adapter that can (a chat model) is asked once for what is still
 * missing. The result is validated against the document schema before anyone sees it.
 */
export class GatedGenerator implements MaterialGenerator {
  readonly engine: string;
  constructor(
    private readonly adapter: GeneratorAdapter,
    readonly minimumWords: number,
  ) {
    this.engine = adapter.engine;
  }

  async generate(request: GenerationRequest, signal?: AbortSignal): Promise<MaterialDocument> {
    const plan = buildPlan(request);
    const reference = new ReferenceIndex(request.referenceText);
    const draft = await this.adapter.draft(request, plan, signal);
    // A default mix the adapter rebalanced keeps its total (what is charged and reported).
    const counts =
      draft.counts && sumOf(draft.counts) === sumOf(plan.counts) ? draft.counts : plan.counts;
    const gate = (document: MaterialDocument, reserve = draft.reserve): GateResult =>
      applyQualityGate(document, {
        reference,
        counts,
        ...(reserve ? { reserve } : {}),
        sectionFor: (kind) => sectionFor(kind, plan),
        exitTicketSize: 3,
        vocabularyCount: plan.vocabulary,
        ...(draft.exitTicketReserve ? { exitTicketReserve: draft.exitTicketReserve } : {}),
      });
    let result = gate(draft.document);

    const missing = Object.values(result.shortfall).reduce((a, b) => a + (b ?? 0), 0);
    if (missing > 0 && this.adapter.regenerate && !reference.empty) {
      const avoid = result.document.sections.flatMap((s) => s.questions.map((q) => q.prompt));
      const more = await this.adapter.regenerate(request, plan, result.shortfall, avoid, signal);
      const reserve: Partial<Record<QuestionKind, Question[]>> = {};
      for (const q of more) (reserve[q.kind] ??= []).push(q);
      result = gate(result.document, reserve);
    }
    return this.finish(result, { ...plan, counts }, reference);
  }

  private finish(
    result: GateResult,
    plan: GenerationPlan,
    reference: ReferenceIndex,
  ): MaterialDocument {
    const document = result.document;
    const notes: string[] = [...document.generator.notes];
    if (plan.understood.length) notes.push(`From your description: ${plan.understood.join(', ')}.`);
    for (const [kind, short] of Object.entries(result.shortfall) as Array<[QuestionKind, number]>) {
      const wanted = plan.counts[kind] ?? 0;
      notes.push(
        `The text supported ${wanted - short} of the ${wanted} ${label(kind)} question${wanted === 1 ? '' : 's'} asked for.`,
      );
    }

    // Fill-in-the-blank word bank, alphabetical so it gives nothing away.
    const sections = document.sections.map((section) => {
      const blanks = section.questions.filter((q) => q.kind === 'fill_blank');
      if (
        !plan.wordBank ||
        blanks.length === 0 ||
        section.questions.some((q) => q.kind !== 'fill_blank')
      )
        return section;
      const bank = [...new Set(blanks.map((q) => (q.kind === 'fill_blank' ? q.answer : '')))].sort(
        (a, b) => a.localeCompare(b),
      );
      return { ...section, instructions: `${section.instructions} Word bank: ${bank.join(', ')}.` };
    });

    let lesson = document.lesson;
    if (lesson && lesson.exitTicket.length === 0) {
      const passage = lesson.keyPassages[0];
      if (!passage)
        throw new GenerationError(
          'The text is too short to build a lesson with a checked exit ticket.',
        );
      lesson = {
        ...lesson,
        exitTicket: [
          {
            id: 'q-exit',
            kind: 'discussion',
            // Not "one thing you learned … one new word" (raters: "learned" does not fit a
            // tale, and the key quoted an arbitrary sentence as if it were the answer).
            prompt:
              'In two sentences, say what the passage is mainly about, then copy the sentence from the text that matters most to it and say why.',
            answer: `Answers vary; accept a summary that matches the text and a quoted sentence with a reason that fits it. One of the key passages of this lesson is a good choice, such as “${passage}”.`,
            evidence: passage,
          },
        ],
      };
    }

    const questionCount = sections.reduce((n, s) => n + s.questions.length, 0);
    if (questionCount === 0 && !lesson && document.vocabulary.length === 0) {
      throw new GenerationError(
        reference.empty
          ? 'No questions could be made.'
          : 'No question could be checked against the reference text. Try a longer passage or a different description.',
      );
    }
    const parsed = MaterialDocumentSchema.safeParse({
      ...document,
      sections,
      ...(lesson ? { lesson } : {}),
      generator: {
        ...document.generator,
        notes: notes.slice(0, 10),
        // Set here, from the plan, whatever the adapter wrote: the materials service charges by them.
        questionsAskedFor: sumOf(plan.counts),
        typicalQuestions: plan.typicalQuestions,
      },
    });
    if (!parsed.success) {
      throw new GenerationError(
        `The generated material was not valid: ${parsed.error.issues[0]?.message ?? 'unknown problem'}.`,
      );
    }
    return parsed.data;
  }
}
