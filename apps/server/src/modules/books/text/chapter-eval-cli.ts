import { evaluateChapters } from './chapter-eval.js';

/**
 * `npm run books:chapters-eval`: splits the evaluation texts (test-data/chapter-eval) and
 * prints which disagree with the chapters counted by hand. Exit code 0 either way: this is a
 * report, the unit tests hold the floor.
 */
const results = evaluateChapters();
const pad = (s: string | number, n: number) => String(s).slice(0, n).padEnd(n);
console.log(`${pad('id', 6)} ${pad('kind', 12)} ${pad('title', 34)} expected  got  first words`);
for (const r of results) {
  const mark = r.countOk && r.firstOk ? ' ' : '✗';
  console.log(
    `${mark}${pad(r.id, 5)} ${pad(r.kind, 12)} ${pad(r.title, 34)} ${pad(r.chapters, 9)} ${pad(r.got, 4)} ${r.firstOk ? 'ok' : `expected “${r.firstWords}”, got “${r.gotFirstWords}”`}`,
  );
}
const disagree = results.filter((r) => !r.countOk || !r.firstOk);
const exact = results.filter((r) => r.countOk).length;
const close = results.filter((r) => Math.abs(r.got - r.chapters) <= Math.max(1, r.chapters * 0.1));
console.log(
  `\n${results.length} texts: ${exact} with the exact chapter count, ${close.length} within 10% (or one), ` +
    `${results.filter((r) => r.firstOk).length} with the right first words; ${disagree.length} disagree:`,
);
for (const r of disagree) {
  console.log(
    `  pg${r.id} ${r.title} (${r.kind}): ${r.countOk ? '' : `${r.got} parts, expected ${r.chapters} (${r.how}). `}` +
      `${r.firstOk ? '' : `first part “${r.gotFirstTitle}” starts “${r.gotFirstWords}”.`}`,
  );
}
