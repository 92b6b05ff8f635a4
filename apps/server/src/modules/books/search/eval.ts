import type { Book } from '@chapterwise/shared';
import type { BooksService } from '../books.service.js';
import { SEARCH_CASES, type SearchCase } from './cases.js';

export interface SearchCaseResult {
  case: SearchCase;
  ok: boolean;
  /** 1-based position of the first matching book in the first page, null when absent. */
  position: number | null;
  first: string;
}

const describe = (b: Book | undefined) =>
  b ? `${b.title} — ${b.authors.map((a) => a.name).join(', ')} (${b.gutenbergId})` : '(nothing)';

/** Runs every case through the service as the catalogue page asks (popular sort, 24 a page). */
export async function evaluateSearch(
  books: BooksService,
  cases: SearchCase[] = SEARCH_CASES,
): Promise<SearchCaseResult[]> {
  const results: SearchCaseResult[] = [];
  for (const item of cases) {
    const answer = await books.listBooks({
      searchTerm: item.query,
      sort: 'download_count',
      limit: 24,
      page: 1,
    });
    const matches = (b: Book) =>
      item.title.test(b.title) && b.authors.some((a) => item.author.test(a.name));
    const index = answer.data.findIndex(matches);
    results.push({
      case: item,
      ok: index === 0,
      position: index >= 0 ? index + 1 : null,
      first: describe(answer.data[0]),
    });
  }
  return results;
}

/** "dev 30/31, held-out 24/25" and the cases that missed. */
export function summarise(results: SearchCaseResult[]): string {
  const lines: string[] = [];
  for (const set of ['dev', 'held-out'] as const) {
    const mine = results.filter((r) => r.case.set === set);
    lines.push(`${set}: ${mine.filter((r) => r.ok).length}/${mine.length} first`);
  }
  for (const r of results.filter((x) => !x.ok)) {
    lines.push(
      `  ✗ [${r.case.set}] "${r.case.query}": position ${r.position ?? '—'}, first: ${r.first}`,
    );
  }
  return lines.join('\n');
}
