import type { FastifyBaseLogger } from 'fastify';
import {
  DEFAULT_MATERIAL_TYPES,
  type GenerateMaterialBodySchema,
  MATERIAL_LIMITS,
  referenceTextTooLongMessage,
  renderMaterialText,
  type CheckGenerationAnswer,
  type ChapterMaterialCard,
  type ExportFormatId,
  type Material,
  type MaterialDocument,
  type MaterialListCard,
  type MaterialOutput,
  type MaterialSet,
} from '@chapterwise/shared';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import type { UserRow } from '../../db/schema/index.js';
import type { JobQueue } from '../../jobs/queue.js';
import {
  AppError,
  badRequest,
  conflict,
  notFound,
  payloadTooLarge,
  paymentRequired,
} from '../../lib/errors.js';
import { GenerationError, type MaterialGenerator } from '../../providers/llm/index.js';
import { countWords } from '../../providers/llm/local/text.js';
import { buildGoogleForm, type GoogleFormPlan } from './exports/formats/google-forms.js';
import { applyTeacherEdit } from './materials.edit.js';
import {
  exporterOf,
  exportMany,
  exportOne,
  type ExportCopy,
  type ExportFile,
} from './exports/index.js';
import {
  presentChapterMaterialCard,
  presentMaterial,
  presentMaterialCard,
  presentSet,
} from './materials.presenter.js';
import * as repo from './materials.repository.js';
import { questionShortfall, withNotCountedNote } from './materials.shortfall.js';

export type { GoogleFormPlan };

export const GENERATION_QUEUE = 'materials-generate';
/** Runs a generation may take before it is given up (each a claim of the material). */
export const MAX_ATTEMPTS = 3;
/** The most materials one folder export takes (a folder of a year's quizzes fits). */
export const FOLDER_EXPORT_LIMIT = 200;

export type GenerateMaterialBody = z.output<typeof GenerateMaterialBodySchema>;

export interface MaterialsServiceDeps {
  db: Db;
  jobs: JobQueue;
  generator: MaterialGenerator;
  log: FastifyBaseLogger;
  /** How long a running generation holds its material before another worker may take it over. */
  leaseSeconds: number;
  /** Pending materials older than this are queued again by the sweep (their job was lost). */
  pendingSeconds?: number;
  /**
   * A chapter's ready-made materials changed: pages showing them must go, on every instance
   * (wired to `app.changes.publish('book:' + url)`).
   */
  onChapterMaterialsChange?: (bookUrl: string) => void;
}

/** A chapter page's ready-made material cards. */
export interface ChapterCards {
  data: ChapterMaterialCard[];
  count: number;
}

/** Chapters whose cards `chapterMaterials` keeps (a few hundred bytes each). */
const CHAPTER_CARDS_KEPT = 5000;

/** The material types the generator offers (the spec's default list). */
export function availableMaterialTypes(): string[] {
  return [...DEFAULT_MATERIAL_TYPES];
}

/**
 * Folders, materials and their generation. A generation takes one credit when it starts
 * (never from a subscriber), runs as a background job, and gives the credit back if it fails
 * or makes fewer than half of the questions asked for (decision 025).
 */
export class MaterialsService {
  /** `chapterMaterials` answers by "book\nchapter", least recently used first. */
  private readonly chapterCards = new Map<string, Promise<ChapterCards>>();

  constructor(private readonly deps: MaterialsServiceDeps) {}

  private get db() {
    return this.deps.db;
  }

  /* --------------------------------------------------------------------------------------- */
  /* Folders                                                                                  */
  /* --------------------------------------------------------------------------------------- */

  async createSet(user: UserRow, name: string): Promise<MaterialSet> {
    return presentSet({ ...(await repo.insertSet(this.db, user.id, name)), materialCount: 0 });
  }

  async listSets(user: UserRow, page: repo.Page): Promise<{ data: MaterialSet[]; count: number }> {
    const { rows, count } = await repo.listSets(this.db, user.id, page);
    return { data: rows.map(presentSet), count };
  }

  async getSet(user: UserRow, id: string): Promise<MaterialSet> {
    const set = await repo.findSet(this.db, user.id, id);
    if (!set) throw notFound('Folder not found.');
    const { count } = await repo.listMaterials(this.db, user.id, { setId: id, page: 1, limit: 1 });
    return presentSet({ ...set, materialCount: count });
  }

  /** Deletes a folder; its materials are kept, outside any folder. */
  async deleteSet(user: UserRow, id: string): Promise<void> {
    if (!(await repo.deleteSet(this.db, user.id, id))) throw notFound('Folder not found.');
  }

  /* --------------------------------------------------------------------------------------- */
  /* Materials                                                                                */
  /* --------------------------------------------------------------------------------------- */

  async listMaterials(
    user: UserRow,
    options: repo.Page & { setId?: string | undefined },
  ): Promise<{ data: Material[]; count: number }> {
    if (options.setId && !(await repo.findSet(this.db, user.id, options.setId)))
      throw notFound('Folder not found.');
    const { rows, count } = await repo.listMaterials(this.db, user.id, options);
    return { data: rows.map(presentMaterial), count };
  }

  /**
   * `listMaterials` with the cards' fields only (decision 026): what 'Your Materials' shows,
   * without the texts a card never shows.
   */
  async listMaterialCards(
    user: UserRow,
    options: repo.Page & { setId?: string | undefined },
  ): Promise<{ data: MaterialListCard[]; count: number }> {
    if (options.setId && !(await repo.findSet(this.db, user.id, options.setId)))
      throw notFound('Folder not found.');
    const { rows, count } = await repo.listMaterialCards(this.db, user.id, options);
    return { data: rows.map(presentMaterialCard), count };
  }

  /** One material: the user's own, or a platform-made one anyone may see. */
  async getMaterial(user: UserRow | null, id: string): Promise<Material> {
    const row =
      (user ? await repo.findOwnMaterial(this.db, user.id, id) : undefined) ??
      (await repo.findPlatformMaterial(this.db, id));
    if (!row) throw notFound('Material not found.');
    return presentMaterial(row);
  }

  async deleteMaterial(user: UserRow, id: string): Promise<void> {
    if (!(await repo.deleteMaterial(this.db, user.id, id))) throw notFound('Material not found.');
  }

  async moveMaterial(user: UserRow, id: string, setId: string | null): Promise<Material> {
    if (setId && !(await repo.findSet(this.db, user.id, setId)))
      throw notFound('Folder not found.');
    const row = await repo.moveMaterial(this.db, user.id, id, setId);
    if (!row) throw notFound('Material not found.');
    return presentMaterial(row);
  }

  /**
   * Saves a teacher's edit of their own finished material (404 for anyone else's and for
   * platform materials, 409 before it has finished). The edited document is checked by the
   * shared editing rules (400 naming the question), keeps what the client may not change, and
   * has every evidence quote looked up again in the reference text: a quote that is not there
   * is kept and marked, not refused (decision 012). The text of the output is rendered again
   * from the document, so exports, print and `choices[0].message.content` agree.
   */
  async updateMaterial(
    user: UserRow,
    input: { id: string; name?: string | undefined; document: Record<string, unknown> },
  ): Promise<Material> {
    const row = await repo.findOwnMaterial(this.db, user.id, input.id);
    if (!row) throw notFound('Material not found.');
    if (row.status === 'failed' || (row.status === 'finished' && !row.output)) {
      throw conflict(
        'This material did not finish generating, so there is nothing to edit. Delete it and generate it again.',
      );
    }
    if (row.status !== 'finished' || !row.output) {
      throw conflict('This material is still generating. You can edit it once it has finished.');
    }
    const document = applyTeacherEdit(row.output.document, input.document, row.referenceText);
    const saved = await repo.saveMaterialEdit(this.db, user.id, row.id, {
      name: input.name,
      output: toOutput(document),
    });
    if (!saved) throw notFound('Material not found.');
    return presentMaterial(saved);
  }

  async checkGeneration(user: UserRow, id: string): Promise<CheckGenerationAnswer> {
    const row = await repo.findOwnMaterial(this.db, user.id, id);
    if (!row) throw notFound('Material not found.');
    return {
      finished: row.status === 'finished',
      status: row.status,
      ...(row.error ? { error: row.error } : {}),
    };
  }

  /**
   * Materials the platform made for a featured chapter, for its chapter page. Kept in memory
   * per chapter (none is an answer too) until a change of the book's materials reaches
   * `forgetChapterMaterials`: every cold render of a chapter page asks, and reading the cards
   * means reading their documents (issue 18).
   */
  chapterMaterials(bookUrl: string, chapterUrl: string): Promise<ChapterCards> {
    const key = `${bookUrl}\n${chapterUrl}`;
    const kept = this.chapterCards.get(key);
    if (kept) {
      // Most recently used last: the first entry is the one to drop.
      this.chapterCards.delete(key);
      this.chapterCards.set(key, kept);
      return kept;
    }
    const made = repo
      .listPlatformMaterialCards(this.db, bookUrl, chapterUrl)
      .then((rows) => ({ data: rows.map(presentChapterMaterialCard), count: rows.length }));
    // Shared while it runs; a change meanwhile removes it, so a stale answer is not kept.
    this.chapterCards.set(key, made);
    made.catch(() => {
      if (this.chapterCards.get(key) === made) this.chapterCards.delete(key);
    });
    if (this.chapterCards.size > CHAPTER_CARDS_KEPT) {
      this.chapterCards.delete(this.chapterCards.keys().next().value!);
    }
    return made;
  }

  /**
   * Drops the kept cards a change topic concerns: `book:<url>` that book's chapters, `*` all
   * (the materials module subscribes this to `app.changes`, so it runs on every instance).
   */
  forgetChapterMaterials(topic: string): void {
    if (topic === '*') {
      this.chapterCards.clear();
      return;
    }
    if (!topic.startsWith('book:')) return;
    const prefix = `${topic.slice('book:'.length)}\n`;
    for (const key of [...this.chapterCards.keys()]) {
      if (key.startsWith(prefix)) this.chapterCards.delete(key);
    }
  }

  /**
   * Gives a teacher their own copies of a chapter's ready-made materials (editable, exportable,
   * movable to folders); those already copied are skipped. `db` is the caller's transaction when
   * a purchase is being fulfilled. Billing decides who may have them.
   */
  async copyChapterMaterials(
    userId: string,
    bookUrl: string,
    chapterUrl: string,
    db: Db = this.db,
  ): Promise<number> {
    return repo.copyPlatformMaterials(db, userId, bookUrl, chapterUrl);
  }

  /**
   * A finished material a user may export: their own, or a ready-made one anyone may read
   * (404 otherwise; 409 while it is still generating). Also used by "Send to Google Forms".
   */
  async readableMaterial(
    userId: string | null,
    id: string,
  ): Promise<{ name: string; type: string; document: MaterialDocument }> {
    const row =
      (userId ? await repo.findOwnMaterial(this.db, userId, id) : undefined) ??
      (await repo.findPlatformMaterial(this.db, id));
    if (!row) throw notFound('Material not found.');
    if (row.status !== 'finished' || !row.output)
      throw conflict('This material has not finished generating yet.');
    return { name: row.name, type: row.type, document: row.output.document };
  }

  /**
   * A material as a Google Forms quiz (the requests of `forms.create` and `forms.batchUpdate`;
   * exports/formats/google-forms.ts), for "Send to Google Forms".
   */
  async googleFormPlan(userId: string, id: string): Promise<GoogleFormPlan> {
    const material = await this.readableMaterial(userId, id);
    return buildGoogleForm({ document: material.document, name: material.name, copy: 'teacher' });
  }

  async exportMaterial(
    user: UserRow | null,
    id: string,
    format: ExportFormatId,
    copy: ExportCopy,
  ): Promise<ExportFile> {
    const material = await this.readableMaterial(user?.id ?? null, id);
    if (!exporterOf(format)) throw badRequest(`The ${format} export is not available yet.`);
    return exportOne(format, {
      name: material.name,
      type: material.type,
      input: { document: material.document, name: material.name, copy },
    });
  }

  /**
   * A folder in one file: its finished materials as one quiz each in one file where the format
   * holds several, otherwise a zip of one file per material (404 for another teacher's folder,
   * 409 when no material in it has finished).
   */
  async exportSet(
    user: UserRow,
    setId: string,
    format: ExportFormatId,
    copy: ExportCopy,
  ): Promise<ExportFile> {
    const set = await repo.findSet(this.db, user.id, setId);
    if (!set) throw notFound('Folder not found.');
    if (!exporterOf(format)) throw badRequest(`The ${format} export is not available yet.`);
    const rows = await repo.listFinishedInSet(this.db, user.id, setId, FOLDER_EXPORT_LIMIT);
    const materials = rows.flatMap((row) =>
      row.output
        ? [
            {
              name: row.name,
              type: row.type,
              input: { document: row.output.document, name: row.name, copy },
            },
          ]
        : [],
    );
    if (!materials.length) throw conflict('This folder has no finished materials to export.');
    return exportMany(format, set.name, materials, copy);
  }

  /* --------------------------------------------------------------------------------------- */
  /* Generation                                                                               */
  /* --------------------------------------------------------------------------------------- */

  /** Checks the form beyond its schema; throws the 4xx a teacher should see. */
  private validate(input: GenerateMaterialBody): { type: string } {
    const types = availableMaterialTypes();
    const type = types.find((t) => t.toLowerCase() === input.type.trim().toLowerCase());
    if (!type) throw badRequest(`Invalid field "type": must be one of ${types.join(', ')}.`);
    if (input.referenceText.length > MATERIAL_LIMITS.referenceTextChars) {
      throw payloadTooLarge(referenceTextTooLongMessage(input.referenceText.length));
    }
    const minimum = this.deps.generator.minimumWords;
    if (minimum > 0 && countWords(input.referenceText) < minimum) {
      throw badRequest(
        `Invalid field "referenceText": the built-in generator writes questions from a text, and needs at least ${minimum} words of it. Paste a passage or a chapter, or import a file.`,
      );
    }
    return { type };
  }

  /**
   * Starts a generation: checks the form, takes a credit (402 without credits or a
   * subscription), records the material as pending and queues its job.
   */
  async startGeneration(
    user: UserRow,
    input: GenerateMaterialBody,
  ): Promise<{ materialId: string }> {
    const { type } = this.validate(input);
    if (input.setId && !(await repo.findSet(this.db, user.id, input.setId)))
      throw notFound('Folder not found.');
    const row = await repo.startGeneration(this.db, user.id, {
      name: input.name,
      subject: input.subject,
      grade: input.grade,
      type,
      referenceText: input.referenceText,
      descriptionText: input.descriptionText,
      setId: input.setId ?? null,
      bookUrl: input.bookUrl || null,
      chapterUrl: input.chapterUrl || null,
    });
    if (!row) throw paymentRequired('You need a subscription to keep making materials.');
    await this.enqueue(row.id).catch(async (error: unknown) => {
      this.deps.log.error({ err: error, materialId: row.id }, 'could not queue a generation');
      await repo.failGeneration(this.db, row.id, 'The generation could not be queued.');
      throw new AppError(
        'UNAVAILABLE',
        'The generator is not available right now. Your credit has been given back; please try again.',
      );
    });
    return { materialId: row.id };
  }

  private async enqueue(materialId: string): Promise<void> {
    if (!this.deps.jobs.isStarted) {
      // Another process runs the workers; its sweep picks pending materials up.
      this.deps.log.warn(
        { materialId },
        'job queue not running here; the generation waits for a worker',
      );
      return;
    }
    await this.deps.jobs.send(
      GENERATION_QUEUE,
      { materialId },
      {
        retryLimit: MAX_ATTEMPTS,
        retryDelay: 5,
        expireInSeconds: this.deps.leaseSeconds + 60,
      },
    );
  }

  /**
   * The job: claims the material (so no two workers run it), generates, and stores the output
   * (with the credit given back when the text supported too few questions); a transient failure (a busy model) goes back to the queue while attempts remain, any other
   * failure marks it failed with the reason and refunds the credit.
   */
  async runGeneration(materialId: string): Promise<void> {
    const row = await repo.claimGeneration(
      this.db,
      materialId,
      this.deps.leaseSeconds,
      MAX_ATTEMPTS,
    );
    if (!row) return;
    const started = performance.now();
    try {
      const timeout = AbortSignal.timeout(Math.max(1000, (this.deps.leaseSeconds - 5) * 1000));
      const document = await this.deps.generator.generate(
        {
          name: row.name,
          subject: row.subject,
          grade: row.grade,
          type: row.type,
          referenceText: row.referenceText,
          descriptionText: row.descriptionText,
        },
        timeout,
      );
      const shortfall = questionShortfall(document);
      const finished = await repo.finishGeneration(
        this.db,
        materialId,
        toOutput(document),
        shortfall ? toOutput(withNotCountedNote(document, shortfall)) : undefined,
      );
      this.deps.log.info(
        {
          materialId,
          ms: Math.round(performance.now() - started),
          engine: this.deps.generator.engine,
          stored: finished !== null,
          ...(shortfall ? { shortfall, refunded: finished?.refunded ?? false } : {}),
        },
        'material generated',
      );
    } catch (error) {
      const transient = error instanceof GenerationError && error.transient;
      if (transient && row.attempts < MAX_ATTEMPTS) {
        this.deps.log.warn(
          { err: error, materialId, attempt: row.attempts },
          'generation will be retried',
        );
        await repo.releaseGeneration(this.db, materialId);
        throw error;
      }
      const message =
        error instanceof GenerationError ? error.message : 'The generator failed unexpectedly.';
      if (!(error instanceof GenerationError))
        this.deps.log.error({ err: error, materialId }, 'generation crashed');
      await repo.failGeneration(this.db, materialId, message);
    }
  }

  /**
   * Finds generations left behind (a crash or restart mid-generation, a lost job) and runs
   * them again; those that have used all their attempts fail and refund.
   */
  async recoverStalled(): Promise<number> {
    const stalled = await repo.findStalledGenerations(this.db, this.deps.pendingSeconds ?? 30);
    let requeued = 0;
    for (const row of stalled) {
      if (row.attempts >= MAX_ATTEMPTS) {
        const message = 'The generation was interrupted too many times.';
        await repo.failGeneration(this.db, row.id, message);
        continue;
      }
      await repo.markPending(this.db, [row.id]);
      if (this.deps.jobs.isStarted) {
        await this.enqueue(row.id);
        requeued += 1;
      }
    }
    if (stalled.length)
      this.deps.log.warn({ found: stalled.length, requeued }, 'recovered stalled generations');
    return requeued;
  }

  /**
   * Writes a material document for a text without storing it or taking a credit: the teaching
   * assistant quotes the generator's checked questions, vocabulary and key passages in its
   * answers. Texts too short for the generator are refused with the form's 400.
   */
  async preview(
    input: { type: string; grade: string; referenceText: string; descriptionText: string },
    signal?: AbortSignal,
  ): Promise<MaterialDocument> {
    const minimum = this.deps.generator.minimumWords;
    if (minimum > 0 && countWords(input.referenceText) < minimum) {
      throw badRequest(`The generator needs at least ${minimum} words of text.`);
    }
    return this.deps.generator.generate({ name: input.type, subject: 'English', ...input }, signal);
  }

  /**
   * Makes a platform material for a featured chapter (used by `npm run materials:pregenerate`):
   * generated at once, stored finished, replacing that chapter's earlier one of the same type.
   */
  async createPlatformMaterial(input: {
    bookUrl: string;
    chapterUrl: string;
    name: string;
    subject: string;
    grade: string;
    type: string;
    referenceText: string;
    descriptionText?: string;
  }): Promise<Material> {
    const request = { ...input, descriptionText: input.descriptionText ?? '' };
    const document = await this.deps.generator.generate(request);
    // Replaced in one transaction: a page rendered meanwhile shows the old one or the new one.
    const row = await this.db.transaction(async (tx) => {
      await repo.deletePlatformMaterials(tx, input.bookUrl, input.chapterUrl, input.type);
      return repo.insertPlatformMaterial(tx, {
        ...request,
        setId: null,
        output: toOutput(document),
      });
    });
    this.deps.onChapterMaterialsChange?.(input.bookUrl);
    return presentMaterial(row);
  }
}

/** The stored output: the spec's `choices[0].message.content` text and the structured document. */
export function toOutput(document: MaterialDocument): MaterialOutput {
  return {
    choices: [{ message: { role: 'assistant', content: renderMaterialText(document) } }],
    document,
  };
}
