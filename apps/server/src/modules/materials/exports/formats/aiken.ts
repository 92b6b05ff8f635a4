import { choiceLetter } from '@chapterwise/shared';
import {
  choicesOf,
  describe,
  oneLine,
  questionsOf,
  type ExportInput,
  type ExportResult,
  type Exporter,
} from '../common.js';

/*
 * The Aiken format (docs.moodle.org/en/Aiken_format): the question on one line, choices
 * "A. …", then "ANSWER: B", a blank line between questions. It holds single-answer multiple
 * choice only: true/false goes in as a two-choice question, every other kind is left out and
 * named in the notes. A line that starts like a choice ("A. ") would be read as one, so such a
 * question text gets a leading "Q: ".
 */

const CHOICE_LINE = /^[A-Z][.)]\s/;

function quiz(inputs: ExportInput[], notes: string[]): string {
  const blocks: string[] = [];
  for (const { document } of inputs) {
    for (const entry of questionsOf(document)) {
      const set = choicesOf(entry.question);
      if (!set) {
        notes.push(`${describe(entry)} left out: Aiken holds multiple choice questions only.`);
        continue;
      }
      let prompt = oneLine(entry.question.prompt);
      if (entry.question.kind === 'true_false') prompt = `True or false: ${prompt}`;
      if (CHOICE_LINE.test(prompt) || /^ANSWER:/i.test(prompt)) prompt = `Q: ${prompt}`;
      const lines = [prompt];
      set.choices.forEach((c, i) => lines.push(`${choiceLetter(i)}. ${oneLine(c)}`));
      lines.push(`ANSWER: ${choiceLetter(set.correct)}`);
      blocks.push(lines.join('\n'));
    }
  }
  return blocks.join('\n\n') + '\n';
}

export const aiken: Exporter = {
  id: 'aiken',
  extension: 'txt',
  contentType: 'text/plain; charset=utf-8',
  copies: false,
  build(input) {
    const notes: string[] = [];
    return { body: quiz([input], notes), notes };
  },
  buildMany(inputs): ExportResult {
    const notes: string[] = [];
    return { body: quiz(inputs, notes), notes };
  },
};
