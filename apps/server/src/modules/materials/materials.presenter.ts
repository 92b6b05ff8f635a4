import {
  type ChapterMaterialCard,
  type Material,
  type MaterialListCard,
  type MaterialSet,
} from '@chapterwise/shared';
import type { GeneratedMaterialRow, MaterialSetRow } from '../../db/schema/index.js';
import type { MaterialCardRow, PlatformMaterialCardRow } from './materials.repository.js';

/** The fields a material and its card share, in the spec's wire names. */
function presentCommon(row: MaterialCardRow) {
  return {
    _id: row.id,
    name: row.name,
    grade: row.grade,
    subject: row.subject,
    type: row.type,
    setId: row.setId,
    bookUrl: row.bookUrl,
    chapterUrl: row.chapterUrl,
    createdAt: row.createdAt.toISOString(),
    ...(row.editedAt ? { editedAt: row.editedAt.toISOString() } : {}),
    ...(row.isPlatform ? { isPlatform: true as const } : {}),
    status: row.status,
    ...(row.error ? { error: row.error } : {}),
  };
}

/** A material in the spec's wire names. `output` is present only once the generation finished. */
export function presentMaterial(row: GeneratedMaterialRow): Material {
  return {
    ...presentCommon(row),
    referenceText: row.referenceText,
    descriptionText: row.descriptionText,
    ...(row.status === 'finished' && row.output ? { output: row.output } : {}),
  };
}

/** A material's card on 'Your Materials' (`view=card`): `output` holds only the document. */
export function presentMaterialCard(row: MaterialCardRow): MaterialListCard {
  return {
    ...presentCommon(row),
    ...(row.status === 'finished' && row.output
      ? { output: { document: row.output.document } }
      : {}),
  };
}

export function presentSet(row: MaterialSetRow & { materialCount?: number }): MaterialSet {
  return {
    _id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    materialCount: row.materialCount ?? 0,
  };
}

/** A ready-made material's card on the chapter page: no reference text, no document. */
export function presentChapterMaterialCard(row: PlatformMaterialCardRow): ChapterMaterialCard {
  return {
    _id: row.id,
    name: row.name,
    grade: row.grade,
    subject: row.subject,
    type: row.type,
    bookUrl: row.bookUrl,
    chapterUrl: row.chapterUrl,
    createdAt: row.createdAt.toISOString(),
    status: row.status,
    isPlatform: true,
    questionCount: row.questionCount,
    hasLesson: row.hasLesson,
  };
}
