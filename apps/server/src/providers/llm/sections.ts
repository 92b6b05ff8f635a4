import { QUESTION_KIND_LABELS, type QuestionKind } from '@chapterwise/shared';
import type { GenerationPlan } from './plan.js';

/** Title and instructions of the section of each kind of question, worded for the grade. */
export function sectionFor(
  kind: QuestionKind,
  plan: GenerationPlan,
): { title: string; instructions: string } {
  const young = plan.level <= 2;
  const title =
    plan.kind === 'lesson' && kind === 'discussion'
      ? 'Stop-and-think questions'
      : QUESTION_KIND_LABELS[kind];
  const instructions: Record<QuestionKind, string> = {
    multiple_choice: young
      ? 'Circle the best answer.'
      : 'Choose the best answer for each question.',
    true_false: young
      ? 'Circle True if the sentence matches the story. Circle False if it does not.'
      : 'Decide whether each statement is true or false according to the text. Correct the false ones.',
    fill_blank: young
      ? 'Write the missing word on the line.'
      : 'Complete each sentence from the text with the missing word.',
    short_answer: young
      ? 'Answer each question in a sentence.'
      : 'Answer each question in one or two complete sentences, using details from the text.',
    matching: 'Write the letter of the matching item next to each number.',
    discussion: young
      ? 'Talk about these questions with a partner, then share your ideas.'
      : plan.kind === 'test'
        ? 'Answer in a well-organised paragraph. Support your ideas with evidence from the text.'
        : 'Discuss each question, supporting your ideas with evidence from the text.',
  };
  return { title, instructions: instructions[kind] };
}

/** The instructions at the top of a material. */
export function instructionsFor(plan: GenerationPlan): string {
  const young = plan.level <= 2;
  switch (plan.kind) {
    case 'quiz':
      return young
        ? 'Listen to or read the story. Then answer the questions.'
        : 'Read the text carefully, then answer every question. Use the text to check your answers.';
    case 'test':
      return young
        ? 'Read the story. Then answer each part of the test.'
        : 'Read the text, then complete every part of this test. Answer in complete sentences where asked and support your answers with evidence from the text.';
    case 'worksheet':
      return young
        ? 'Read the story with your teacher. Then do each activity.'
        : 'Read the text, study the vocabulary, then complete each activity.';
    case 'lesson':
      return 'A lesson plan built on the reference text, with vocabulary, discussion questions and an exit ticket.';
  }
}
