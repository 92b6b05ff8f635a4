import { googleFormEditUrl } from '@chapterwise/shared';
import type { ToastInput } from '../../../lib/toast';

/** The toast of a new Google form: how many questions, what was left out, and its link. */
export function googleFormsCreatedToast(
  formId: string,
  questions: number,
  notes: string[],
): ToastInput {
  const extra = notes.length ? ` ${notes.join(' ')}` : '';
  return {
    title: 'Sent to Google Forms',
    message: `A quiz with ${questions} ${questions === 1 ? 'question' : 'questions'} is in your Google Forms. Review it and press Publish to share it.${extra}`,
    tone: 'success',
    durationMs: 15000,
    link: { href: googleFormEditUrl(formId), label: 'Open in Google Forms' },
  };
}
