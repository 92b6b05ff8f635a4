import {
  oneLine,
  questionsOf,
  type ExportInput,
  type ExportResult,
  type Exporter,
} from '../common.js';

/*
 * Blackboard's "Upload Questions" file: one question a line, fields separated by tabs:
 *   MC  prompt  choice  correct|incorrect  choice  correct|incorrect …
 *   TF  prompt  true|false
 *   FIB prompt  answer
 *   SR  prompt  sample answer          (short answer)
 *   ESS prompt  sample answer          (discussion)
 *   MAT prompt  left  right  left  right …
 * Blackboard shows the text as HTML, so & < > are written as entities; tabs and newlines in a
 * text become spaces (they would end the field or the question).
 */

function field(text: string): string {
  return oneLine(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function lines(inputs: ExportInput[]): string {
  const out: string[] = [];
  for (const { document } of inputs) {
    for (const { question: q } of questionsOf(document)) {
      switch (q.kind) {
        case 'multiple_choice':
          out.push(
            [
              'MC',
              field(q.prompt),
              ...q.choices.flatMap((c, i) => [
                field(c),
                i === q.answerIndex ? 'correct' : 'incorrect',
              ]),
            ].join('\t'),
          );
          break;
        case 'true_false':
          out.push(['TF', field(q.prompt), q.answer ? 'true' : 'false'].join('\t'));
          break;
        case 'fill_blank':
          out.push(['FIB', field(q.prompt), field(q.answer)].join('\t'));
          break;
        case 'short_answer':
          out.push(['SR', field(q.prompt), field(q.answer)].join('\t'));
          break;
        case 'discussion':
          out.push(['ESS', field(q.prompt), field(q.answer)].join('\t'));
          break;
        case 'matching':
          out.push(
            [
              'MAT',
              field(q.prompt),
              ...q.pairs.flatMap((p) => [field(p.left), field(p.right)]),
            ].join('\t'),
          );
          break;
      }
    }
  }
  return out.join('\n') + '\n';
}

export const blackboard: Exporter = {
  id: 'blackboard',
  extension: 'txt',
  contentType: 'text/plain; charset=utf-8',
  copies: false,
  build(input): ExportResult {
    return { body: lines([input]), notes: [] };
  },
};
