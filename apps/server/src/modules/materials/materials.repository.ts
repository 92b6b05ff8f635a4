import { and, count, desc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { MaterialOutput } from '@chapterwise/shared';
import type { Db } from '../../db/client.js';
import {
  generatedMaterials,
  materialSets,
  users,
  type GeneratedMaterialRow,
  type MaterialSetRow,
  type NewGeneratedMaterialRow,
} from '../../db/schema/index.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuid = (id: string) => UUID.test(id);

export interface Page {
  page: number;
  limit: number;
}

/* ----------------------------------------------------------------------------------------- */
/* Folders                                                                                     */
/* ----------------------------------------------------------------------------------------- */

export async function insertSet(db: Db, userId: string, name: string): Promise<MaterialSetRow> {
  const [row] = await db.insert(materialSets).values({ userId, name }).returning();
  return row!;
}

export async function findSet(
  db: Db,
  userId: string,
  id: string,
): Promise<MaterialSetRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select()
    .from(materialSets)
    .where(and(eq(materialSets.id, id), eq(materialSets.userId, userId)))
    .limit(1);
  return row;
}

/** A user's folders, newest first, each with how many materials it holds. */
export async function listSets(
  db: Db,
  userId: string,
  page: Page,
): Promise<{ rows: Array<MaterialSetRow & { materialCount: number }>; count: number }> {
  const materialCount = db
    .select({ setId: generatedMaterials.setId, n: count().as('n') })
    .from(generatedMaterials)
    .where(eq(generatedMaterials.userId, userId))
    .groupBy(generatedMaterials.setId)
    .as('counts');
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: materialSets.id,
        userId: materialSets.userId,
        name: materialSets.name,
        createdAt: materialSets.createdAt,
        materialCount: sql<number>`coalesce(${materialCount.n}, 0)::int`,
      })
      .from(materialSets)
      .leftJoin(materialCount, eq(materialCount.setId, materialSets.id))
      .where(eq(materialSets.userId, userId))
      .orderBy(desc(materialSets.createdAt), desc(materialSets.id))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    db.select({ n: count() }).from(materialSets).where(eq(materialSets.userId, userId)),
  ]);
  return {
    rows: rows.map((r) => ({ ...r, materialCount: Number(r.materialCount) })),
    count: total?.n ?? 0,
  };
}

/** Deletes a folder; its materials stay, outside any folder. False when it is not the user's. */
export async function deleteSet(db: Db, userId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const deleted = await db
    .delete(materialSets)
    .where(and(eq(materialSets.id, id), eq(materialSets.userId, userId)))
    .returning({ id: materialSets.id });
  return deleted.length > 0;
}

/* ----------------------------------------------------------------------------------------- */
/* Materials                                                                                   */
/* ----------------------------------------------------------------------------------------- */

export type NewMaterial = Pick<
  NewGeneratedMaterialRow,
  | 'name'
  | 'grade'
  | 'subject'
  | 'type'
  | 'referenceText'
  | 'descriptionText'
  | 'setId'
  | 'bookUrl'
  | 'chapterUrl'
>;

/**
 * Takes one credit and records the pending material, in one transaction. The credit is taken
 * by a single conditional UPDATE, so parallel starts can never spend more than the balance:
 * subscribers are let through without a charge, others only while credits are above 0.
 * Returns null when the user has neither credits nor a subscription.
 */
export async function startGeneration(
  db: Db,
  userId: string,
  values: NewMaterial,
): Promise<GeneratedMaterialRow | null> {
  return db.transaction(async (tx) => {
    const [payer] = await tx
      .update(users)
      .set({
        generationCredits: sql`case when ${users.isSubscribed} then ${users.generationCredits} else ${users.generationCredits} - 1 end`,
      })
      .where(
        and(eq(users.id, userId), or(eq(users.isSubscribed, true), gt(users.generationCredits, 0))),
      )
      .returning({ isSubscribed: users.isSubscribed });
    if (!payer) return null;
    const [row] = await tx
      .insert(generatedMaterials)
      .values({ ...values, userId, status: 'pending', charged: !payer.isSubscribed })
      .returning();
    return row!;
  });
}

/** The user's own material. */
export async function findOwnMaterial(
  db: Db,
  userId: string,
  id: string,
): Promise<GeneratedMaterialRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select()
    .from(generatedMaterials)
    .where(and(eq(generatedMaterials.id, id), eq(generatedMaterials.userId, userId)))
    .limit(1);
  return row;
}

/** A material anyone may see: a platform-made one. */
export async function findPlatformMaterial(
  db: Db,
  id: string,
): Promise<GeneratedMaterialRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select()
    .from(generatedMaterials)
    .where(and(eq(generatedMaterials.id, id), eq(generatedMaterials.isPlatform, true)))
    .limit(1);
  return row;
}

export async function findMaterialById(
  db: Db,
  id: string,
): Promise<GeneratedMaterialRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select()
    .from(generatedMaterials)
    .where(eq(generatedMaterials.id, id))
    .limit(1);
  return row;
}

/** A user's materials, newest first, optionally in one folder. */
export async function listMaterials(
  db: Db,
  userId: string,
  options: Page & { setId?: string | undefined },
): Promise<{ rows: GeneratedMaterialRow[]; count: number }> {
  const where = and(
    eq(generatedMaterials.userId, userId),
    options.setId ? eq(generatedMaterials.setId, options.setId) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(generatedMaterials)
      .where(where)
      .orderBy(desc(generatedMaterials.createdAt), desc(generatedMaterials.id))
      .limit(options.limit)
      .offset((options.page - 1) * options.limit),
    db.select({ n: count() }).from(generatedMaterials).where(where),
  ]);
  return { rows, count: total?.n ?? 0 };
}

/** A material's card fields (`listMaterialCards`): no reference text or description. */
export type MaterialCardRow = Pick<
  GeneratedMaterialRow,
  | 'id'
  | 'name'
  | 'grade'
  | 'subject'
  | 'type'
  | 'setId'
  | 'bookUrl'
  | 'chapterUrl'
  | 'createdAt'
  | 'editedAt'
  | 'isPlatform'
  | 'status'
  | 'error'
  | 'output'
>;

/**
 * `listMaterials` as the cards show it (decision 026): the reference text and description (a
 * chapter each) are not read. The presenter keeps only the output's document.
 */
export async function listMaterialCards(
  db: Db,
  userId: string,
  options: Page & { setId?: string | undefined },
): Promise<{ rows: MaterialCardRow[]; count: number }> {
  const where = and(
    eq(generatedMaterials.userId, userId),
    options.setId ? eq(generatedMaterials.setId, options.setId) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: generatedMaterials.id,
        name: generatedMaterials.name,
        grade: generatedMaterials.grade,
        subject: generatedMaterials.subject,
        type: generatedMaterials.type,
        setId: generatedMaterials.setId,
        bookUrl: generatedMaterials.bookUrl,
        chapterUrl: generatedMaterials.chapterUrl,
        createdAt: generatedMaterials.createdAt,
        editedAt: generatedMaterials.editedAt,
        isPlatform: generatedMaterials.isPlatform,
        status: generatedMaterials.status,
        error: generatedMaterials.error,
        // The whole column, not `output -> 'document'`: building a new JSON value in the
        // database cost embedded PostgreSQL (PGlite) several times what reading the column does.
        output: generatedMaterials.output,
      })
      .from(generatedMaterials)
      .where(where)
      .orderBy(desc(generatedMaterials.createdAt), desc(generatedMaterials.id))
      .limit(options.limit)
      .offset((options.page - 1) * options.limit),
    db.select({ n: count() }).from(generatedMaterials).where(where),
  ]);
  return { rows, count: total?.n ?? 0 };
}

/** The finished materials of one of a user's folders, oldest first (a folder export). */
export async function listFinishedInSet(
  db: Db,
  userId: string,
  setId: string,
  limit: number,
): Promise<GeneratedMaterialRow[]> {
  return db
    .select()
    .from(generatedMaterials)
    .where(
      and(
        eq(generatedMaterials.userId, userId),
        eq(generatedMaterials.setId, setId),
        eq(generatedMaterials.status, 'finished'),
      ),
    )
    .orderBy(generatedMaterials.createdAt, generatedMaterials.id)
    .limit(limit);
}

/**
 * Deletes a user's material. A material deleted before it finished gives its credit back
 * (the teacher never got it). False when it is not the user's.
 */
export async function deleteMaterial(db: Db, userId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .delete(generatedMaterials)
      .where(and(eq(generatedMaterials.id, id), eq(generatedMaterials.userId, userId)))
      .returning({ charged: generatedMaterials.charged, status: generatedMaterials.status });
    if (!row) return false;
    if (row.charged && (row.status === 'pending' || row.status === 'running')) {
      await tx
        .update(users)
        .set({ generationCredits: sql`${users.generationCredits} + 1` })
        .where(eq(users.id, userId));
    }
    return true;
  });
}

/** Moves a material into a folder (or out of any with null). */
export async function moveMaterial(
  db: Db,
  userId: string,
  id: string,
  setId: string | null,
): Promise<GeneratedMaterialRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .update(generatedMaterials)
    .set({ setId, updatedAt: new Date() })
    .where(and(eq(generatedMaterials.id, id), eq(generatedMaterials.userId, userId)))
    .returning();
  return row;
}

/**
 * Stores a teacher's edit of their own finished material (and its new name, when given):
 * the output and `edited_at`. The status condition keeps an edit from landing on a material
 * that is not finished; undefined when no such material of the user's exists.
 */
export async function saveMaterialEdit(
  db: Db,
  userId: string,
  id: string,
  values: { name?: string | undefined; output: MaterialOutput },
): Promise<GeneratedMaterialRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .update(generatedMaterials)
    .set({
      ...(values.name !== undefined ? { name: values.name } : {}),
      output: values.output,
      editedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(generatedMaterials.id, id),
        eq(generatedMaterials.userId, userId),
        eq(generatedMaterials.status, 'finished'),
      ),
    )
    .returning();
  return row;
}

/* ----------------------------------------------------------------------------------------- */
/* The generation job                                                                          */
/* ----------------------------------------------------------------------------------------- */

/**
 * Claims a material for generation: pending ones, and running ones whose lease ran out (their
 * worker died). The conditional UPDATE makes two workers never run the same material at once.
 */
export async function claimGeneration(
  db: Db,
  id: string,
  leaseSeconds: number,
  maxAttempts: number,
): Promise<GeneratedMaterialRow | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .update(generatedMaterials)
    .set({
      status: 'running',
      attempts: sql`${generatedMaterials.attempts} + 1`,
      leaseUntil: sql`now() + make_interval(secs => ${leaseSeconds})`,
      startedAt: sql`coalesce(${generatedMaterials.startedAt}, now())`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(generatedMaterials.id, id),
        lt(generatedMaterials.attempts, maxAttempts),
        or(
          eq(generatedMaterials.status, 'pending'),
          and(
            eq(generatedMaterials.status, 'running'),
            lt(generatedMaterials.leaseUntil, sql`now()`),
          ),
        ),
      ),
    )
    .returning();
  return row;
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Locks a generation's row to settle it (finish or fail): its status, whether a credit was taken, and whose. */
async function lockForSettling(tx: Tx, id: string) {
  const [row] = await tx
    .select({
      status: generatedMaterials.status,
      charged: generatedMaterials.charged,
      userId: generatedMaterials.userId,
    })
    .from(generatedMaterials)
    .where(eq(generatedMaterials.id, id))
    .for('update');
  return row;
}

async function giveCreditBack(tx: Tx, userId: string): Promise<void> {
  await tx
    .update(users)
    .set({ generationCredits: sql`${users.generationCredits} + 1` })
    .where(eq(users.id, userId));
}

/**
 * Stores the output of a running generation; null when it was deleted or taken over meanwhile.
 * `free` is the output to store instead when the generation is not to be charged for (too few
 * questions, decision 025): if a credit was taken for it, the credit is given back in the same
 * transaction, exactly once (the row is locked and `charged` cleared), and that output stored.
 * A subscriber's generation took no credit, so it keeps `output`.
 */
export async function finishGeneration(
  db: Db,
  id: string,
  output: MaterialOutput,
  free?: MaterialOutput,
): Promise<{ refunded: boolean } | null> {
  return db.transaction(async (tx) => {
    const row = await lockForSettling(tx, id);
    if (!row || row.status !== 'running') return null;
    const refund = free !== undefined && row.charged && !!row.userId;
    await tx
      .update(generatedMaterials)
      .set({
        status: 'finished',
        output: refund ? free : output,
        error: null,
        charged: false,
        leaseUntil: null,
        finishedAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(eq(generatedMaterials.id, id));
    if (refund) await giveCreditBack(tx, row.userId!);
    return { refunded: refund };
  });
}

/** Puts a generation back in the queue's hands after a transient error. */
export async function releaseGeneration(db: Db, id: string): Promise<void> {
  await db
    .update(generatedMaterials)
    .set({ status: 'pending', leaseUntil: null, updatedAt: sql`now()` })
    .where(and(eq(generatedMaterials.id, id), eq(generatedMaterials.status, 'running')));
}

/**
 * Marks a generation failed with its error and gives the credit back, exactly once (the row
 * is locked, and `charged` is cleared in the same transaction); the stored error then says so.
 * Returns whether a credit was refunded, or null when the material was not pending or running.
 */
export async function failGeneration(
  db: Db,
  id: string,
  error: string,
): Promise<{ refunded: boolean } | null> {
  return db.transaction(async (tx) => {
    const row = await lockForSettling(tx, id);
    if (!row || (row.status !== 'pending' && row.status !== 'running')) return null;
    const refund = row.charged && !!row.userId;
    await tx
      .update(generatedMaterials)
      .set({
        status: 'failed',
        error: refund ? `${error} Your credit has been given back.` : error,
        charged: false,
        leaseUntil: null,
        finishedAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(eq(generatedMaterials.id, id));
    if (refund) await giveCreditBack(tx, row.userId!);
    return { refunded: refund };
  });
}

/**
 * Generations that need a worker: running ones whose lease expired (a crash or restart) and
 * pending ones that have waited longer than `pendingSeconds` (their job was lost).
 */
export async function findStalledGenerations(
  db: Db,
  pendingSeconds: number,
  limit = 100,
): Promise<Array<Pick<GeneratedMaterialRow, 'id' | 'status' | 'attempts'>>> {
  return db
    .select({
      id: generatedMaterials.id,
      status: generatedMaterials.status,
      attempts: generatedMaterials.attempts,
    })
    .from(generatedMaterials)
    .where(
      or(
        and(
          eq(generatedMaterials.status, 'running'),
          or(lt(generatedMaterials.leaseUntil, sql`now()`), isNull(generatedMaterials.leaseUntil)),
        ),
        and(
          eq(generatedMaterials.status, 'pending'),
          lt(generatedMaterials.updatedAt, sql`now() - make_interval(secs => ${pendingSeconds})`),
        ),
      ),
    )
    .orderBy(generatedMaterials.updatedAt)
    .limit(limit);
}

/** Marks stalled materials pending again so a worker can claim them. */
export async function markPending(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(generatedMaterials)
    .set({ status: 'pending', leaseUntil: null, updatedAt: sql`now()` })
    .where(
      and(
        inArray(generatedMaterials.id, ids),
        inArray(generatedMaterials.status, ['pending', 'running']),
      ),
    );
}

/* ----------------------------------------------------------------------------------------- */
/* Platform-made materials for featured chapters                                              */
/* ----------------------------------------------------------------------------------------- */

export async function insertPlatformMaterial(
  db: Db,
  values: NewMaterial & { output: MaterialOutput },
): Promise<GeneratedMaterialRow> {
  const [row] = await db
    .insert(generatedMaterials)
    .values({
      ...values,
      isPlatform: true,
      userId: null,
      status: 'finished',
      finishedAt: new Date(),
      attempts: 1,
    })
    .returning();
  return row!;
}

export async function listPlatformMaterials(
  db: Db,
  bookUrl: string,
  chapterUrl: string,
): Promise<GeneratedMaterialRow[]> {
  return db
    .select()
    .from(generatedMaterials)
    .where(platformChapterMaterials(bookUrl, chapterUrl))
    .orderBy(generatedMaterials.type, desc(generatedMaterials.createdAt))
    .limit(50);
}

/** A chapter's finished ready-made materials. */
function platformChapterMaterials(bookUrl: string, chapterUrl: string) {
  return and(
    eq(generatedMaterials.isPlatform, true),
    eq(generatedMaterials.bookUrl, bookUrl),
    eq(generatedMaterials.chapterUrl, chapterUrl),
    eq(generatedMaterials.status, 'finished'),
  );
}

/** A ready-made material's card fields, its counts read inside the database. */
export type PlatformMaterialCardRow = Pick<
  GeneratedMaterialRow,
  'id' | 'name' | 'grade' | 'subject' | 'type' | 'bookUrl' | 'chapterUrl' | 'createdAt' | 'status'
> & { questionCount: number; hasLesson: boolean };

/** `x` when it is a JSON array, else an empty one (a missing or null field counts as none). */
const jsonArray = (x: ReturnType<typeof sql>) =>
  sql`(case when jsonb_typeof(${x}) = 'array' then ${x} else '[]'::jsonb end)`;

/**
 * The chapter page's cards of `listPlatformMaterials`: the question count and whether there is
 * a lesson are computed by the database, so neither the documents nor their reference texts
 * (a chapter's text each) are read, sent or parsed for a card (issue 18: the chapter page's
 * cold render). Counts as `numberedQuestions`: the sections' questions and the exit ticket.
 */
export async function listPlatformMaterialCards(
  db: Db,
  bookUrl: string,
  chapterUrl: string,
): Promise<PlatformMaterialCardRow[]> {
  const document = sql`${generatedMaterials.output} -> 'document'`;
  const sections = jsonArray(sql`${document} -> 'sections'`);
  const exitTicket = jsonArray(sql`${document} -> 'lesson' -> 'exitTicket'`);
  return db
    .select({
      id: generatedMaterials.id,
      name: generatedMaterials.name,
      grade: generatedMaterials.grade,
      subject: generatedMaterials.subject,
      type: generatedMaterials.type,
      bookUrl: generatedMaterials.bookUrl,
      chapterUrl: generatedMaterials.chapterUrl,
      createdAt: generatedMaterials.createdAt,
      status: generatedMaterials.status,
      questionCount: sql<number>`(coalesce((select sum(jsonb_array_length(${jsonArray(
        sql`s -> 'questions'`,
      )})) from jsonb_array_elements(${sections}) as s), 0) + jsonb_array_length(${exitTicket}))::int`,
      hasLesson: sql<boolean>`coalesce(jsonb_typeof(${document} -> 'lesson') = 'object', false)`,
    })
    .from(generatedMaterials)
    .where(platformChapterMaterials(bookUrl, chapterUrl))
    .orderBy(generatedMaterials.type, desc(generatedMaterials.createdAt))
    .limit(50);
}

/** Removes a chapter's platform materials of one type (before they are made again). */
export async function deletePlatformMaterials(
  db: Db,
  bookUrl: string,
  chapterUrl: string,
  type: string,
): Promise<number> {
  const rows = await db
    .delete(generatedMaterials)
    .where(
      and(
        eq(generatedMaterials.isPlatform, true),
        eq(generatedMaterials.bookUrl, bookUrl),
        eq(generatedMaterials.chapterUrl, chapterUrl),
        eq(generatedMaterials.type, type),
      ),
    )
    .returning({ id: generatedMaterials.id });
  return rows.length;
}

/** Whether any ready-made chapter material exists (the seeder's first-start check). */
export async function hasPlatformMaterials(db: Db): Promise<boolean> {
  const [row] = await db
    .select({ id: generatedMaterials.id })
    .from(generatedMaterials)
    .where(eq(generatedMaterials.isPlatform, true))
    .limit(1);
  return row !== undefined;
}

/**
 * Copies a chapter's ready-made materials into a teacher's own (finished, outside any folder),
 * skipping those the teacher already holds a copy of. Runs inside the caller's transaction when
 * given one (a purchase is fulfilled in its payment event's). Returns how many were copied.
 */
export async function copyPlatformMaterials(
  db: Db,
  userId: string,
  bookUrl: string,
  chapterUrl: string,
): Promise<number> {
  const sources = await listPlatformMaterials(db, bookUrl, chapterUrl);
  if (sources.length === 0) return 0;
  const now = new Date();
  const rows = await db
    .insert(generatedMaterials)
    .values(
      sources.map((m) => ({
        userId,
        setId: null,
        name: m.name,
        grade: m.grade,
        subject: m.subject,
        type: m.type,
        referenceText: m.referenceText,
        descriptionText: m.descriptionText,
        bookUrl: m.bookUrl,
        chapterUrl: m.chapterUrl,
        isPlatform: false,
        copiedFrom: m.id,
        status: 'finished' as const,
        output: m.output,
        attempts: 1,
        startedAt: now,
        finishedAt: now,
      })),
    )
    .onConflictDoNothing({ target: [generatedMaterials.userId, generatedMaterials.copiedFrom] })
    .returning({ id: generatedMaterials.id });
  return rows.length;
}
