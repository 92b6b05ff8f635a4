import type { SearchPlan } from '../books.repository.js';
import { withoutArticle } from '../text/normalize.js';

/** Words of a search, at most this many (longer terms are cut). */
export const MAX_SEARCH_WORDS = 12;
/** Title + author readings: at most this many author words at either end. */
const MAX_AUTHOR_WORDS = 3;

/**
 * PostgreSQL's English stop words (Snowball): full-text search drops them, so "just so
 * stories" would match every title with "stories". Title tiers check them as words instead.
 */
export const STOP_WORDS = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself ' +
    'she her hers herself it its itself they them their theirs themselves what which who whom ' +
    'this that these those am is are was were be been being have has had having do does did ' +
    'doing a an the and but if or because as until while of at by for with about against ' +
    'between into through during before after above below to from up down in out on off over ' +
    'under again further then once here there when where why how all any both each few more ' +
    'most other some such no nor not only own same so than too very s t can will just don ' +
    'should now'
  ).split(' '),
);

const prefixOf = (words: string[], weight = '') => words.map((w) => `${w}:*${weight}`).join(' & ');

/**
 * The ranking plan of normalised search words (see `searchBooks`): every word prefix-matched
 * selects the books; the exact title, the phrase and the title words decide the tier, for the
 * whole term and for each reading of it as a title with author words before or after it.
 */
export function planSearch(words: string[]): SearchPlan {
  const splits: SearchPlan['splits'] = [];
  for (let k = 1; k <= Math.min(MAX_AUTHOR_WORDS, words.length - 1); k++) {
    for (const [title, author] of [
      [words.slice(0, words.length - k), words.slice(words.length - k)],
      [words.slice(k), words.slice(0, k)],
    ] as const) {
      splits.push({
        exact: withoutArticle(title.join(' ')),
        titlePrefix: prefixOf(title, 'A'),
        titleStopWords: stopWordsOf(title),
        authorPrefix: prefixOf(author, 'B'),
        authorHasStopWord: author.some((w) => STOP_WORDS.has(w)),
      });
    }
  }
  return {
    prefix: prefixOf(words),
    titlePrefix: prefixOf(words, 'A'),
    authorWords: words.map((w) => `${w}:B`).join(' & '),
    subjectWords: words.join(' & '),
    exact: withoutArticle(words.join(' ')),
    titleStopWords: stopWordsOf(words),
    splits,
  };
}

/** The stop words of a title reading, meaningful ones only ("the"/"a"/"an" never are). */
function stopWordsOf(words: readonly string[]): string[] {
  return [...new Set(words.filter((w) => STOP_WORDS.has(w) && !/^(?:the|a|an)$/.test(w)))];
}

/**
 * Optimal string alignment distance (Levenshtein with adjacent transpositions): "wrolds" is
 * one edit from "worlds".
 */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      }
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The catalogue word a misspelt word most likely meant: the fewest edits (one for words of up
 * to five letters, two for longer ones), then the word of the most downloaded book ("hamlit":
 * Hamlet rather than Hamlin Garland), then the word most books use. A word the catalogue
 * has is corrected only to one at least ten times as common ("iland", an old spelling in a
 * few titles, to "island"; "sherlock" stays). Null when nothing qualifies.
 */
export function bestCorrection(
  word: string,
  candidates: Array<{ word: string; books: number; downloads: number }>,
): string | null {
  const allowed = word.length <= 5 ? 1 : 2;
  const own = candidates.find((c) => c.word === word)?.books ?? 0;
  let best: { word: string; distance: number; books: number; downloads: number } | null = null;
  for (const c of candidates) {
    if (c.word === word || c.books < own * 10) continue;
    const distance = editDistance(word, c.word);
    if (distance > allowed) continue;
    const better =
      !best ||
      distance < best.distance ||
      (distance === best.distance &&
        (c.downloads > best.downloads || (c.downloads === best.downloads && c.books > best.books)));
    if (better) best = { word: c.word, distance, books: c.books, downloads: c.downloads };
  }
  return best?.word ?? null;
}
