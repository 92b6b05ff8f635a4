import {
  generationNotCountedNote,
  MaterialDocumentSchema,
  type MaterialDocument,
} from '@chapterwise/shared';

/** What a generation made against what was asked for, when that is too little to charge for. */
export interface QuestionShortfall {
  /** Questions in the sections (a lesson's exit ticket is not counted: it is not asked for). */
  made: number;
  /** Questions the plan asked for in the sections. */
  askedFor: number;
}

/**
 * The shortfall that makes a generation free (decision 025), or null when it is charged for.
 *
 * The generator abstains rather than pads, so a short text can give a 1-question quiz when 10
 * were asked for. A generation is not charged for when it made fewer than half of the questions
 * asked for, counted against the type's default at this grade when the description asked for
 * more: asking for 50 questions of a text that supports 20 does not make a full quiz free. So a
 * free material always holds fewer than half the questions of a standard one of its type.
 * Documents without the plan's counts (made before them, or by a generator without a plan)
 * are charged for, as before.
 */
export function questionShortfall(document: MaterialDocument): QuestionShortfall | null {
  const { questionsAskedFor: askedFor, typicalQuestions } = document.generator;
  if (!askedFor) return null;
  const made = document.sections.reduce((n, section) => n + section.questions.length, 0);
  const expected = Math.min(askedFor, typicalQuestions || askedFor);
  return made * 2 < expected ? { made, askedFor } : null;
}

/** The document with the teacher's note that this generation was not counted, first. */
export function withNotCountedNote(
  document: MaterialDocument,
  shortfall: QuestionShortfall,
): MaterialDocument {
  const notes = [
    generationNotCountedNote(shortfall.made, shortfall.askedFor),
    ...document.generator.notes,
  ];
  return MaterialDocumentSchema.parse({
    ...document,
    generator: { ...document.generator, notes: notes.slice(0, 10) },
  });
}
