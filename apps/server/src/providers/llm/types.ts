import type { MaterialDocument, Question, QuestionKind } from '@chapterwise/shared';
import type { GenerationPlan } from './plan.js';

/** What a teacher asked for: the generation form, as the service hands it to a generator. */
export interface GenerationRequest {
  name: string;
  subject: string;
  grade: string;
  type: string;
  referenceText: string;
  descriptionText: string;
}

/** A draft before the quality gate: the document, plus spare questions to fill any gaps. */
export interface DraftResult {
  document: MaterialDocument;
  /** Extra candidates by kind, best first, used when the gate drops questions. */
  reserve?: Partial<Record<QuestionKind, Question[]>>;
  /** Spare exit-ticket questions for a lesson. */
  exitTicketReserve?: Question[];
  /**
   * The plan's counts as the adapter moved them between kinds (a default mix only: the same
   * total, more of a kind the text supports well in place of one it supports badly).
   */
  counts?: Partial<Record<QuestionKind, number>>;
}

/** One way of writing materials (the offline NLP engine, or a chat-completions model). */
export interface GeneratorAdapter {
  readonly engine: string;
  readonly model?: string;
  draft(
    request: GenerationRequest,
    plan: GenerationPlan,
    signal?: AbortSignal,
  ): Promise<DraftResult>;
  /** Asks again for the questions the gate had to drop (once per generation). */
  regenerate?(
    request: GenerationRequest,
    plan: GenerationPlan,
    missing: Partial<Record<QuestionKind, number>>,
    avoid: string[],
    signal?: AbortSignal,
  ): Promise<Question[]>;
}

/** What the service uses: an adapter behind the plan and the quality gate. */
export interface MaterialGenerator {
  readonly engine: string;
  /** The fewest words of reference text this generator needs (0: none needed). */
  readonly minimumWords: number;
  generate(request: GenerationRequest, signal?: AbortSignal): Promise<MaterialDocument>;
  /** Loads what the first generation would (models, threads) ahead of time. */
  warmUp?(request: GenerationRequest): void;
  /** Ends threads and connections (at shutdown). */
  close?(): Promise<void>;
}

/**
 * A generation that could not be made. `transient` errors (a busy or unreachable model) may
 * succeed when tried again; the others will not.
 */
export class GenerationError extends Error {
  constructor(
    message: string,
    readonly transient = false,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'GenerationError';
  }
}
