import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import type { MaterialOutput, MaterialStatus } from '@chapterwise/shared';
import { users } from './users.js';

/** A teacher's folder of materials (spec: material set). */
export const materialSets = pgTable(
  'material_sets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('material_sets_user_created_idx').on(t.userId, t.createdAt)],
);

/**
 * A generated material and its generation job's state: pending → running → finished | failed.
 * `charged` is true while a credit taken for it has not been given back; `lease_until` marks
 * a running generation as alive (an expired lease means its worker died and it is run again).
 * Platform-made materials for featured chapters have no user and `is_platform` set.
 */
export const generatedMaterials = pgTable(
  'generated_materials',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    setId: uuid('set_id').references(() => materialSets.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    grade: text('grade').notNull(),
    subject: text('subject').notNull(),
    type: text('type').notNull(),
    referenceText: text('reference_text').notNull().default(''),
    descriptionText: text('description_text').notNull().default(''),
    bookUrl: text('book_url'),
    chapterUrl: text('chapter_url'),
    isPlatform: boolean('is_platform').notNull().default(false),
    /**
     * For a teacher's copy of a ready-made chapter material (bought, or added with the plan):
     * the platform material it was copied from. A teacher holds one copy of each.
     */
    copiedFrom: uuid('copied_from').references((): AnyPgColumn => generatedMaterials.id, {
      onDelete: 'set null',
    }),
    status: text('status').$type<MaterialStatus>().notNull().default('pending'),
    error: text('error'),
    output: jsonb('output').$type<MaterialOutput>(),
    charged: boolean('charged').notNull().default(false),
    attempts: integer('attempts').notNull().default(0),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the owner last saved an edit of the output (null: as generated or copied). */
    editedAt: timestamp('edited_at', { withTimezone: true }),
  },
  (t) => [
    index('generated_materials_user_created_idx').on(t.userId, t.createdAt),
    index('generated_materials_set_created_idx').on(t.setId, t.createdAt),
    index('generated_materials_platform_chapter_idx')
      .on(t.bookUrl, t.chapterUrl)
      .where(sql`${t.isPlatform}`),
    uniqueIndex('generated_materials_user_copied_from_key').on(t.userId, t.copiedFrom),
    index('generated_materials_unfinished_idx')
      .on(t.status, t.updatedAt)
      .where(sql`${t.status} in ('pending', 'running')`),
    check(
      'generated_materials_status_check',
      sql`${t.status} in ('pending', 'running', 'finished', 'failed')`,
    ),
    check('generated_materials_owner_check', sql`${t.isPlatform} or ${t.userId} is not null`),
  ],
);

export type MaterialSetRow = typeof materialSets.$inferSelect;
export type GeneratedMaterialRow = typeof generatedMaterials.$inferSelect;
export type NewGeneratedMaterialRow = typeof generatedMaterials.$inferInsert;
