import type { MaterialDocument } from '@chapterwise/shared';
import {
  feedbackOf,
  oneLine,
  questionsOf,
  type ExportInput,
  type ExportResult,
  type Exporter,
} from '../common.js';

/*
 * Moodle's GIFT format (docs.moodle.org/en/GIFT_format). Every text is one line with GIFT's
 * special characters ~ = # { } : and the backslash escaped; question text is marked [plain], so
 * Moodle shows "</xml>" as typed rather than reading it as HTML. The evidence is the general
 * feedback (####), which Moodle shows after an attempt.
 *
 * Kinds: multiple choice and true/false as themselves; fill in the blank becomes a short-answer
 * question with the blank in place ("text {=answer} text"); matching as matching; short answer
 * and discussion become essays (our short answers are model sentences, which Moodle's exact-match
 * short answer would mark wrong), with the model answer in the feedback.
 */

/** Escapes GIFT's special characters (and flattens the text onto one line). */
export function giftEscape(text: string): string {
  return oneLine(text).replace(/[\\~=#{}:]/g, (c) => `\\${c}`);
}

function feedback(text: string): string {
  return `####${giftEscape(text)}`;
}

function giftQuiz(document: MaterialDocument, notes: string[], prefix = ''): string {
  const out: string[] = [];
  for (const { question, number } of questionsOf(document)) {
    const title = `::${giftEscape(`${prefix}Question ${number}`)}::`;
    const prompt = `[plain]${giftEscape(question.prompt)}`;
    switch (question.kind) {
      case 'multiple_choice': {
        const answers = question.choices
          .map((c, i) => `${i === question.answerIndex ? '=' : '~'}${giftEscape(c)}`)
          .join(' ');
        out.push(`${title}${prompt} {${answers} ${feedback(feedbackOf(question))}}`);
        break;
      }
      case 'true_false':
        out.push(
          `${title}${prompt} {${question.answer ? 'TRUE' : 'FALSE'}${feedback(feedbackOf(question))}}`,
        );
        break;
      case 'fill_blank': {
        const answer = `{=${giftEscape(question.answer)}${feedback(feedbackOf(question))}}`;
        const parts = question.prompt.split(/_{3,}/);
        if (parts.length === 2) {
          out.push(
            `${title}[plain]${giftEscape(parts[0]!)} ${answer} ${giftEscape(parts[1]!)}`.trimEnd(),
          );
        } else {
          out.push(`${title}${prompt} ${answer}`);
        }
        break;
      }
      case 'short_answer':
      case 'discussion':
        out.push(
          `${title}${prompt} {${feedback(`Model answer: ${question.answer} ${feedbackOf(question)}`)}}`,
        );
        break;
      case 'matching': {
        // GIFT splits a pair at its first "->": an arrow inside a left-hand item is shown as →.
        const pairs = question.pairs
          .map((p) => `=${giftEscape(p.left).replace(/->/g, '→')} -> ${giftEscape(p.right)}`)
          .join(' ');
        out.push(`${title}${prompt} {${pairs} ${feedback(feedbackOf(question))}}`);
        if (question.pairs.some((p) => p.left.includes('->')))
          notes.push(`Question ${number}: "->" in a matching item is written as "→".`);
        break;
      }
    }
  }
  return out.join('\n\n');
}

function build({ document }: ExportInput): ExportResult {
  const notes: string[] = [];
  const body = `// ${oneLine(document.title)} (Chapterwise)\n\n${giftQuiz(document, notes)}\n`;
  if (document.vocabulary.length) notes.push('The vocabulary list is not part of a GIFT quiz.');
  return { body, notes };
}

function buildMany(inputs: ExportInput[]): ExportResult {
  const notes: string[] = [];
  const parts = inputs.map(({ document, name }) => {
    // One question-bank category per material, so each becomes its own quiz's pool.
    const category = oneLine(name).replace(/[/\\]/g, '-');
    return `$CATEGORY: $course$/top/${category}\n\n${giftQuiz(document, notes)}`;
  });
  return { body: `${parts.join('\n\n')}\n`, notes };
}

export const gift: Exporter = {
  id: 'gift',
  extension: 'txt',
  contentType: 'text/plain; charset=utf-8',
  copies: false,
  build,
  buildMany,
};
