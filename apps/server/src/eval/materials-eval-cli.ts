import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  EVAL_DIR,
  EVAL_SETS,
  EVAL_TYPES,
  formatSummary,
  formatUnlabelled,
  LabelIndex,
  loadLabels,
  loadPassages,
  parseRatings,
  runGeneration,
  summarise,
  type EvalSet,
  type EvalType,
} from './materials-eval.js';

const HELP = `The materials evaluation (issues 13 and 22; decision 018): generates every type from the
passages of eval/materials with the built-in generator, splits them into items and reports the
share a teacher labelled acceptable (eval/materials/labels, rubric in eval/materials/RUBRIC.md).

  npm run eval:materials -- [--set dev|heldout|all] [--type Quiz,Test,Lesson,Worksheet]
                            [--passage slug,slug] [--json] [--write-unlabelled FILE]
                            [--only-rater NAME]
  npm run eval:materials -- --apply-labels FILE --rater NAME

  --set               which passages (default all); the held-out figure is the one that counts
  --type              material types (default all four)
  --passage           only these passages (file names without .txt)
  --json              print figures and items as JSON
  --write-unlabelled  write the items that need a label (new, or changed since labelled) to FILE
  --only-rater        use only the labels of raters whose name contains this text (for
                      the independent figure: --only-rater evalset)
  --apply-labels      read the LABEL lines a rater filled in FILE and append them to
                      eval/materials/labels/<set>.jsonl (with --rater)`;

class UsageError extends Error {}

async function main() {
  const { values } = parseArgs({
    options: {
      set: { type: 'string', default: 'all' },
      type: { type: 'string' },
      passage: { type: 'string' },
      json: { type: 'boolean', default: false },
      'write-unlabelled': { type: 'string' },
      'apply-labels': { type: 'string' },
      rater: { type: 'string' },
      'only-rater': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(HELP);
    return;
  }

  if (values['apply-labels']) {
    if (!values.rater) throw new UsageError('--apply-labels needs --rater NAME.');
    const date = new Date().toISOString().slice(0, 10);
    const labels = parseRatings(readFileSync(values['apply-labels'], 'utf8'), values.rater, date);
    const bySet = new Map<string, string[]>();
    for (const label of labels) {
      const set = label.id.split('/')[0]!;
      if (!(EVAL_SETS as readonly string[]).includes(set))
        throw new UsageError(`Label ${label.id}: the id does not start with a set name.`);
      bySet.set(set, [...(bySet.get(set) ?? []), JSON.stringify(label)]);
    }
    for (const [set, lines] of bySet) {
      appendFileSync(path.join(EVAL_DIR, 'labels', `${set}.jsonl`), `${lines.join('\n')}\n`);
    }
    console.log(
      `Added ${labels.length} labels (${labels.filter((l) => l.acceptable).length} acceptable).`,
    );
    return;
  }

  const set = values.set as EvalSet | 'all';
  if (set !== 'all' && !(EVAL_SETS as readonly string[]).includes(set))
    throw new UsageError(`--set must be dev, heldout or all (got "${set}").`);
  const types = values.type
    ? values.type.split(',').map((t) => {
        const type = EVAL_TYPES.find((known) => known.toLowerCase() === t.trim().toLowerCase());
        if (!type) throw new UsageError(`--type: "${t}" is not one of ${EVAL_TYPES.join(', ')}.`);
        return type;
      })
    : [...EVAL_TYPES];
  const only = values.passage?.split(',').map((p) => p.trim());
  const passages = loadPassages(set, only ? { only } : {});
  if (passages.length === 0) throw new UsageError('No passage matches.');

  const runs = await runGeneration(passages, types as EvalType[]);
  const onlyRater = values['only-rater']?.toLowerCase();
  const index = new LabelIndex(
    loadLabels().filter((l) => !onlyRater || l.rater.toLowerCase().includes(onlyRater)),
  );
  const summary = summarise(runs, index);

  if (values['write-unlabelled']) {
    const { text, count } = formatUnlabelled(runs, passages, index);
    writeFileSync(values['write-unlabelled'], text);
    console.error(`Wrote ${count} items needing a label to ${values['write-unlabelled']}.`);
  }
  if (values.json) {
    console.log(
      JSON.stringify(
        {
          set,
          types,
          passages: passages.map(({ text: _text, ...p }) => p),
          summary,
          runs: runs.map((run) => ({
            ...run,
            items: run.items.map((item) => ({ ...item, label: index.lookup(item) })),
          })),
        },
        null,
        2,
      ),
    );
    return;
  }
  const failures = runs.filter((r) => r.error);
  console.log(
    formatSummary(
      summary,
      `Materials evaluation: ${passages.length} passages (${set}), ${types.join(', ')}`,
    ),
  );
  for (const failure of failures) {
    console.log(
      `  generation failed: ${failure.set}/${failure.passage} ${failure.type}: ${failure.error}`,
    );
  }
}

main().catch((error: unknown) => {
  if (
    error instanceof UsageError ||
    (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
  ) {
    console.error((error as Error).message);
    console.error('Run with --help for the options.');
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
});
