import {
  describe,
  oneLine,
  questionsOf,
  type ExportInput,
  type ExportResult,
  type Exporter,
} from '../common.js';

/*
 * Quizlet's import box: one card a line, a tab between term and definition (Quizlet's defaults).
 * Cards: the vocabulary (word → meaning), then each question with its answer; a matching
 * question gives one card per pair. Discussion questions have no short answer and are left out.
 * Tabs and newlines inside a text become spaces, so a card never splits.
 */

/** The cards of one material: [term, definition]. */
export function quizletCards(input: ExportInput, notes: string[]): Array<[string, string]> {
  const cards: Array<[string, string]> = [];
  for (const item of input.document.vocabulary) cards.push([item.term, item.definition]);
  for (const entry of questionsOf(input.document)) {
    const q = entry.question;
    switch (q.kind) {
      case 'multiple_choice':
        cards.push([q.prompt, q.choices[q.answerIndex] ?? '']);
        break;
      case 'true_false':
        cards.push([`True or false: ${q.prompt}`, q.answer ? 'True' : 'False']);
        break;
      case 'fill_blank':
      case 'short_answer':
        cards.push([q.prompt, q.answer]);
        break;
      case 'matching':
        for (const pair of q.pairs) cards.push([pair.left, pair.right]);
        break;
      case 'discussion':
        notes.push(
          `${describe(entry)} left out: a discussion question has no short answer for a card.`,
        );
        break;
    }
  }
  return cards.map(([term, definition]) => [oneLine(term), oneLine(definition)]);
}

function text(inputs: ExportInput[], notes: string[]): string {
  return (
    inputs
      .flatMap((input) => quizletCards(input, notes))
      .map(([term, definition]) => `${term}\t${definition}`)
      .join('\n') + '\n'
  );
}

export const quizlet: Exporter = {
  id: 'quizlet',
  extension: 'txt',
  contentType: 'text/plain; charset=utf-8',
  copies: false,
  build(input) {
    const notes: string[] = [];
    return { body: text([input], notes), notes };
  },
  buildMany(inputs): ExportResult {
    const notes: string[] = [];
    return { body: text(inputs, notes), notes };
  },
};
