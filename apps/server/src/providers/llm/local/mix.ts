import type { Question, QuestionKind } from '@chapterwise/shared';

/** Kinds whose places a default mix may move between: each is written from single sentences. */
const MOVABLE: QuestionKind[] = ['short_answer', 'multiple_choice', 'true_false'];

/**
 * The counts of a default mix (the teacher named no kind), moved towards the kinds the text
 * supports: a place its kind cannot fill well goes to a kind that wrote more good questions than
 * asked, short answers first (a "why" or "who" question asks more than recall), then multiple
 * choice, then true/false (by half and by one place at most). "Well" leaves out sentences with a blank past the material's cloze
 * budget (issue 13: at most about 40% cloze): such a place goes to another kind when one can take
 * it, and stays (to be filled by a blank) when none can. The total never changes.
 */
export function rebalanced(
  counts: Partial<Record<QuestionKind, number>>,
  written: Partial<Record<QuestionKind, Question[]>>,
  clozeCap: number,
): Partial<Record<QuestionKind, number>> {
  const out = { ...counts };
  const good = (k: QuestionKind): number => {
    const qs = written[k] ?? [];
    if (k !== 'multiple_choice') return qs.length;
    const cloze = qs.filter((q) => (q as { form?: string }).form === 'cloze').length;
    return qs.length - cloze + Math.min(cloze, Math.max(0, clozeCap));
  };
  const kinds = MOVABLE.filter((k) => (counts[k] ?? 0) > 0);
  if (kinds.length < 2) return out;
  const short = new Map<QuestionKind, number>();
  for (const k of kinds) {
    const missing = (out[k] ?? 0) - good(k);
    if (missing > 0) short.set(k, missing);
  }
  let free = [...short.values()].reduce((a, b) => a + b, 0);
  if (free === 0) return out;
  for (const [k, n] of short) out[k] = (out[k] ?? 0) - n;
  for (const k of kinds) {
    if (free === 0) break;
    // Multiple choice grows by half at most, true/false by one place: a quiz of true statements
    // copied from the text (its later ones the weakest), or of blanks, is no better than one
    // with places left empty.
    const most =
      k === 'short_answer' ? Infinity : k === 'true_false' ? 1 : Math.ceil((counts[k] ?? 0) / 2);
    const take = Math.min(free, good(k) - (out[k] ?? 0), most);
    if (take <= 0) continue;
    out[k] = (out[k] ?? 0) + take;
    free -= take;
  }
  // Places no kind can fill well go back where they came from, multiple choice first (a spare
  // blank may fill them).
  for (const k of ['multiple_choice', 'true_false', 'short_answer'] as QuestionKind[]) {
    const n = short.get(k) ?? 0;
    if (free === 0) break;
    const back = Math.min(free, n);
    out[k] = (out[k] ?? 0) + back;
    free -= back;
  }
  return out;
}
