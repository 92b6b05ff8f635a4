import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  choiceLetter,
  GRADES,
  type MaterialDocument,
  type Question,
  type QuestionKind,
} from '@chapterwise/shared';
import { createInProcessLocalGenerator, type MaterialGenerator } from '../providers/llm/index.js';

/**
 * The materials evaluation (issues 13 and 22, decision 018): generates every material type from
 * the passages of eval/materials, splits the documents into the items a teacher would sign or
 * strike one by one, gives each a stable id and a hash of its text, and joins the teacher's
 * labels (eval/materials/labels/*.jsonl) to report the share acceptable as written.
 */

/** The repository's eval/materials folder (the same depth from src/eval and dist/eval). */
export const EVAL_DIR = path.resolve(import.meta.dirname, '../../../../eval/materials');

export const EVAL_TYPES = ['Quiz', 'Test', 'Lesson', 'Worksheet'] as const;
export type EvalType = (typeof EVAL_TYPES)[number];
export const EVAL_SETS = ['dev', 'heldout'] as const;
export type EvalSet = (typeof EVAL_SETS)[number];
export const GENRES = ['fiction', 'poetry', 'history', 'science', 'geography', 'essay'] as const;

/** The rubric's defect codes (RUBRIC.md). */
export const DEFECT_CODES = [
  'trivial',
  'wrong_sense',
  'level',
  'ambiguous',
  'nonsense',
  'vague',
  'wrong_key',
] as const;
export type DefectCode = (typeof DEFECT_CODES)[number];

export interface Passage {
  set: EvalSet;
  /** File name without .txt, e.g. "science-volcanoes". */
  slug: string;
  title: string;
  author: string;
  source: string;
  licence: string;
  genre: (typeof GENRES)[number];
  /** US grade, 3–12. */
  grade: number;
  subject: string;
  text: string;
  words: number;
}

const HEADER_KEYS = ['title', 'author', 'source', 'licence', 'genre', 'grade', 'subject'] as const;

export function countWords(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** Reads one passage file: `key: value` header lines, a line `---`, then the text. */
export function parsePassage(raw: string, set: EvalSet, slug: string): Passage {
  const normalised = raw.replace(/\r\n?/g, '\n');
  const split = normalised.indexOf('\n---\n');
  if (split === -1) throw new Error(`${set}/${slug}: no "---" line after the header`);
  const header: Record<string, string> = {};
  for (const line of normalised.slice(0, split).split('\n')) {
    const match = /^([a-z]+):\s*(.*)$/.exec(line);
    if (!match) throw new Error(`${set}/${slug}: header line "${line}" is not "key: value"`);
    header[match[1]!] = match[2]!.trim();
  }
  for (const key of HEADER_KEYS) {
    if (!header[key]) throw new Error(`${set}/${slug}: header "${key}" is missing`);
  }
  const genre = header.genre as Passage['genre'];
  if (!(GENRES as readonly string[]).includes(genre)) {
    throw new Error(`${set}/${slug}: genre "${genre}" is not one of ${GENRES.join(', ')}`);
  }
  const grade = Number(header.grade);
  if (!Number.isInteger(grade) || grade < 3 || grade > 12) {
    throw new Error(`${set}/${slug}: grade must be a whole number from 3 to 12`);
  }
  const text = normalised.slice(split + 5).trim();
  return {
    set,
    slug,
    title: header.title!,
    author: header.author!,
    source: header.source!,
    licence: header.licence!,
    genre,
    grade,
    subject: header.subject!,
    text,
    words: countWords(text),
  };
}

export function loadPassages(
  set: EvalSet | 'all',
  options: { dir?: string; only?: string[] } = {},
): Passage[] {
  const dir = options.dir ?? EVAL_DIR;
  const sets = set === 'all' ? EVAL_SETS : [set];
  const passages: Passage[] = [];
  for (const s of sets) {
    const folder = path.join(dir, s);
    if (!existsSync(folder)) continue;
    for (const file of readdirSync(folder).sort()) {
      if (!file.endsWith('.txt')) continue;
      const slug = file.slice(0, -4);
      if (options.only && !options.only.includes(slug)) continue;
      passages.push(parsePassage(readFileSync(path.join(folder, file), 'utf8'), s, slug));
    }
  }
  return passages;
}

/* ------------------------------------------------------------------------------------------ */
/* Items                                                                                        */
/* ------------------------------------------------------------------------------------------ */

export type ItemPart = 'question' | 'exit_ticket' | 'vocabulary' | 'objective';

export interface EvalItem {
  /** `<set>/<passage>/<type>/<part>/<n>`: stable while the generator keeps the item's place. */
  id: string;
  /** 16 hex digits of SHA-256 over the item's rated text (choice order ignored). */
  hash: string;
  set: EvalSet;
  passage: string;
  type: EvalType;
  part: ItemPart;
  /** The schema kind for questions, else "vocabulary" or "objective". */
  kind: QuestionKind | 'vocabulary' | 'objective';
  /** What the stem asks (cloze, who, why, sequence, supported statement, …). */
  form: string;
  cloze: boolean;
  /** The item as a rater reads it: prompt, choices (key marked), answer, evidence. */
  text: string;
}

const BLANK = /_{3,}/;

/**
 * What a question's stem asks. A `form` (or `stem`) field set by the generator wins; otherwise
 * it is read from the wording.
 */
export function questionForm(question: Question): string {
  const declared = (question as { form?: unknown; stem?: unknown }).form;
  if (typeof declared === 'string' && declared) return declared;
  const prompt = question.prompt.trim();
  if (question.kind === 'matching') return 'matching';
  if (BLANK.test(prompt)) return 'cloze';
  if (question.kind === 'discussion') return 'discussion';
  if (question.kind === 'true_false') return 'true/false';
  const p = prompt.toLowerCase();
  if (/\bsupported by the (text|passage)|which (statement|sentence) (is|best)/.test(p))
    return 'supported statement';
  if (/happened (first|last|before|after)|which came first|in what order|\bsequence\b/.test(p))
    return 'sequence';
  if (/\bmean(s|ing)?\b|\bdefinition\b|word .* (closest|best) in meaning/.test(p))
    return 'word in context';
  if (
    /^why\b|\bwhat caused\b|\bcause\b|\bresult of\b|\beffect of\b|\bwhat happened because\b/.test(p)
  )
    return 'why/cause';
  const wh = /^(who|whom|whose|what|when|where|which|how many|how much|how long|how)\b/.exec(p);
  if (wh) return wh[1] === 'whom' || wh[1] === 'whose' ? 'who' : wh[1]!;
  return 'other';
}

function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function itemHash(canonical: string): string {
  return createHash('sha256').update(normalise(canonical)).digest('hex').slice(0, 16);
}

/** The rated text of a question and its hashed canonical form (choice order ignored). */
function describeQuestion(question: Question): { text: string; canonical: string } {
  const lines = [question.prompt];
  let canonical = `${question.kind}|${question.prompt}`;
  switch (question.kind) {
    case 'multiple_choice': {
      question.choices.forEach((choice, i) =>
        lines.push(
          `  ${choiceLetter(i)}. ${choice}${i === question.answerIndex ? '   <== key' : ''}`,
        ),
      );
      const key = question.choices[question.answerIndex] ?? '';
      canonical += `|key:${key}|${[...question.choices].sort().join('|')}`;
      break;
    }
    case 'true_false':
      lines.push(`  Key: ${question.answer ? 'TRUE' : 'FALSE'}`);
      if (question.correction) lines.push(`  Correction: ${question.correction}`);
      canonical += `|${question.answer}|${question.correction ?? ''}`;
      break;
    case 'fill_blank':
    case 'short_answer':
    case 'discussion':
      lines.push(`  Answer: ${question.answer}`);
      canonical += `|${question.answer}`;
      break;
    case 'matching': {
      question.pairs.forEach((pair, i) => lines.push(`  ${i + 1}) ${pair.left} = ${pair.right}`));
      canonical += `|${question.pairs
        .map((p) => `${p.left}=${p.right}`)
        .sort()
        .join('|')}`;
      break;
    }
  }
  if (question.kind === 'matching') {
    question.pairs.forEach((pair, i) => lines.push(`  Evidence ${i + 1}: “${pair.evidence}”`));
  } else {
    lines.push(`  Evidence: “${question.evidence}”`);
  }
  if (question.explanation) lines.push(`  Explanation: ${question.explanation}`);
  return { text: lines.join('\n'), canonical };
}

/** Splits a generated document into the items a teacher rates. */
export function itemsOf(document: MaterialDocument, passage: Passage, type: EvalType): EvalItem[] {
  const base = `${passage.set}/${passage.slug}/${type}`;
  const items: EvalItem[] = [];
  const add = (
    part: ItemPart,
    n: number | string,
    kind: EvalItem['kind'],
    form: string,
    text: string,
    canonical: string,
  ) =>
    items.push({
      id: `${base}/${part}/${n}`,
      hash: itemHash(`${part}|${canonical}`),
      set: passage.set,
      passage: passage.slug,
      type,
      part,
      kind,
      form,
      cloze: form === 'cloze',
      text,
    });

  let number = 0;
  for (const section of document.sections) {
    for (const question of section.questions) {
      number += 1;
      const { text, canonical } = describeQuestion(question);
      add('question', number, question.kind, questionForm(question), text, canonical);
    }
  }
  document.vocabulary.forEach((entry, i) => {
    const text = [
      `${entry.term}${entry.partOfSpeech ? ` (${entry.partOfSpeech})` : ''}: ${entry.definition}`,
      `  Context: “${entry.context}”`,
    ].join('\n');
    add(
      'vocabulary',
      i + 1,
      'vocabulary',
      'vocabulary',
      text,
      `${entry.term}|${entry.partOfSpeech ?? ''}|${entry.definition}|${entry.context}`,
    );
  });
  const lesson = document.lesson;
  if (lesson) {
    lesson.objectives.forEach((objective, i) =>
      add('objective', i + 1, 'objective', 'objective', `Students will ${objective}`, objective),
    );
    lesson.exitTicket.forEach((question, i) => {
      const { text, canonical } = describeQuestion(question);
      add('exit_ticket', i + 1, question.kind, questionForm(question), text, canonical);
    });
  }
  return items;
}

/* ------------------------------------------------------------------------------------------ */
/* Generation                                                                                   */
/* ------------------------------------------------------------------------------------------ */

export interface GenerationRun {
  set: EvalSet;
  passage: string;
  type: EvalType;
  ms: number;
  /** Questions the quality gate dropped (document.generator.droppedQuestions). */
  dropped: number;
  /** Questions asked for that the generator did not make (its "supported N of M" notes). */
  abstained: number;
  /** Distractor candidates the generator's gates turned down, when it reports them. */
  distractorRejections: number | null;
  items: EvalItem[];
  error?: string;
}

/** A number the generator may report about its gates, under any of these names. */
function reported(generator: MaterialDocument['generator'], names: string[]): number | null {
  const sources = [
    generator as Record<string, unknown>,
    (generator as { stats?: unknown }).stats as Record<string, unknown> | undefined,
    (generator as { gates?: unknown }).gates as Record<string, unknown> | undefined,
  ];
  for (const source of sources) {
    if (!source || typeof source !== 'object') continue;
    for (const name of names) {
      const value = source[name];
      if (typeof value === 'number' && Number.isFinite(value)) return value;
    }
  }
  return null;
}

export function abstentionsOf(document: MaterialDocument): number {
  const explicit = reported(document.generator, ['abstentions', 'abstained']);
  if (explicit !== null) return explicit;
  let missing = 0;
  for (const note of document.generator.notes) {
    const match = /supported (\d+) of the (\d+)/.exec(note);
    if (match) missing += Number(match[2]) - Number(match[1]);
  }
  return missing;
}

export function gradeName(grade: number): string {
  return GRADES[grade] ?? GRADES[8];
}

export async function generateFor(
  passage: Passage,
  type: EvalType,
  generator: MaterialGenerator,
): Promise<GenerationRun> {
  const started = process.hrtime.bigint();
  const base = { set: passage.set, passage: passage.slug, type };
  try {
    const document = await generator.generate({
      name: `${passage.title} ${type}`,
      subject: passage.subject,
      grade: gradeName(passage.grade),
      type,
      referenceText: passage.text,
      descriptionText: '',
    });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    return {
      ...base,
      ms,
      dropped: document.generator.droppedQuestions,
      abstained: abstentionsOf(document),
      distractorRejections: reported(document.generator, [
        'distractorRejections',
        'rejectedDistractors',
        'distractorsRejected',
      ]),
      items: itemsOf(document, passage, type),
    };
  } catch (error) {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    return {
      ...base,
      ms,
      dropped: 0,
      abstained: 0,
      distractorRejections: null,
      items: [],
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

export async function runGeneration(
  passages: Passage[],
  types: readonly EvalType[] = EVAL_TYPES,
  generator: MaterialGenerator = createInProcessLocalGenerator(),
): Promise<GenerationRun[]> {
  const runs: GenerationRun[] = [];
  for (const passage of passages) {
    for (const type of types) runs.push(await generateFor(passage, type, generator));
  }
  return runs;
}

/* ------------------------------------------------------------------------------------------ */
/* Labels                                                                                       */
/* ------------------------------------------------------------------------------------------ */

export interface Label {
  id: string;
  hash: string;
  acceptable: boolean;
  defects: DefectCode[];
  note?: string;
  rater: string;
  date?: string;
}

export function parseLabelLine(line: string, where: string): Label {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new Error(`${where}: not JSON`);
  }
  const v = value as Partial<Label>;
  if (typeof v.id !== 'string' || typeof v.hash !== 'string' || typeof v.acceptable !== 'boolean')
    throw new Error(`${where}: id, hash and acceptable are required`);
  if (typeof v.rater !== 'string' || !v.rater) throw new Error(`${where}: rater is required`);
  const defects = Array.isArray(v.defects) ? v.defects : [];
  for (const code of defects) {
    if (!(DEFECT_CODES as readonly string[]).includes(code))
      throw new Error(`${where}: unknown defect code "${String(code)}"`);
  }
  if (v.acceptable && defects.length > 0)
    throw new Error(`${where}: an acceptable item has no defect codes`);
  return {
    id: v.id,
    hash: v.hash,
    acceptable: v.acceptable,
    defects: defects as DefectCode[],
    ...(typeof v.note === 'string' ? { note: v.note } : {}),
    rater: v.rater,
    ...(typeof v.date === 'string' ? { date: v.date } : {}),
  };
}

/** All label lines of eval/materials/labels/*.jsonl, in file order (later lines win). */
export function loadLabels(dir: string = EVAL_DIR): Label[] {
  const folder = path.join(dir, 'labels');
  if (!existsSync(folder)) return [];
  const labels: Label[] = [];
  for (const file of readdirSync(folder).sort()) {
    if (!file.endsWith('.jsonl')) continue;
    readFileSync(path.join(folder, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (line.trim()) labels.push(parseLabelLine(line, `labels/${file}:${i + 1}`));
      });
  }
  return labels;
}

export type LabelStatus =
  | { status: 'labelled'; label: Label }
  /** The item's place was labelled, but its text has changed since. */
  | { status: 'changed'; previous: Label }
  | { status: 'unlabelled' };

/**
 * Joins labels to items: the label of the same id and hash; else a label of an identical item
 * (same hash) of the same passage, so an item repeated in a Quiz and a Test is rated once; an id
 * whose only labels carry another hash is "changed" and counts as unlabelled.
 */
export class LabelIndex {
  private readonly byIdHash = new Map<string, Label>();
  private readonly byPassageHash = new Map<string, Label>();
  private readonly byId = new Map<string, Label>();

  constructor(labels: Label[]) {
    for (const label of labels) {
      this.byIdHash.set(`${label.id}#${label.hash}`, label);
      this.byPassageHash.set(`${passageOf(label.id)}#${label.hash}`, label);
      this.byId.set(label.id, label);
    }
  }

  lookup(item: EvalItem): LabelStatus {
    const exact =
      this.byIdHash.get(`${item.id}#${item.hash}`) ??
      this.byPassageHash.get(`${passageOf(item.id)}#${item.hash}`);
    if (exact) return { status: 'labelled', label: exact };
    const previous = this.byId.get(item.id);
    return previous ? { status: 'changed', previous } : { status: 'unlabelled' };
  }
}

function passageOf(id: string): string {
  return id.split('/').slice(0, 2).join('/');
}

/* ------------------------------------------------------------------------------------------ */
/* Figures                                                                                      */
/* ------------------------------------------------------------------------------------------ */

export interface Figures {
  items: number;
  labelled: number;
  acceptable: number;
  /** acceptable / labelled, or null with no labelled item. */
  acceptableRate: number | null;
  unlabelled: number;
  changed: number;
  /** Cloze share of the questions (vocabulary and objectives are not questions). */
  questions: number;
  cloze: number;
  clozeRate: number | null;
  forms: Record<string, number>;
  defects: Record<DefectCode, number>;
  dropped: number;
  abstained: number;
  distractorRejections: number | null;
  generations: number;
  failures: number;
  medianMs: number | null;
  /** Materials (generations) whose questions are at most 40% cloze (issue 13's mix goal). */
  clozeAtMost40: number;
  /** Materials whose questions use at least 4 forms (issue 13: a 10-question test). */
  fourFormsOrMore: number;
}

export interface Summary {
  byType: Record<string, Figures>;
  overall: Figures;
  /** Acceptable share by item kind (multiple_choice, matching, vocabulary, …), all types. */
  byKind: Record<string, Figures>;
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function figuresOf(runs: GenerationRun[], items: EvalItem[], index: LabelIndex): Figures {
  const defects = Object.fromEntries(DEFECT_CODES.map((c) => [c, 0])) as Record<DefectCode, number>;
  const forms: Record<string, number> = {};
  let labelled = 0;
  let acceptable = 0;
  let unlabelled = 0;
  let changed = 0;
  let questions = 0;
  let cloze = 0;
  for (const item of items) {
    if (item.part === 'question' || item.part === 'exit_ticket') {
      questions += 1;
      if (item.cloze) cloze += 1;
      forms[item.form] = (forms[item.form] ?? 0) + 1;
    }
    const found = index.lookup(item);
    if (found.status === 'labelled') {
      labelled += 1;
      if (found.label.acceptable) acceptable += 1;
      for (const code of found.label.defects) defects[code] += 1;
    } else {
      unlabelled += 1;
      if (found.status === 'changed') changed += 1;
    }
  }
  const rejections = runs.map((r) => r.distractorRejections);
  return {
    items: items.length,
    labelled,
    acceptable,
    acceptableRate: labelled ? acceptable / labelled : null,
    unlabelled,
    changed,
    questions,
    cloze,
    clozeRate: questions ? cloze / questions : null,
    forms,
    defects,
    dropped: runs.reduce((n, r) => n + r.dropped, 0),
    abstained: runs.reduce((n, r) => n + r.abstained, 0),
    distractorRejections: rejections.some((r) => r === null)
      ? null
      : rejections.reduce<number>((n, r) => n + (r ?? 0), 0),
    generations: runs.length,
    failures: runs.filter((r) => r.error).length,
    medianMs: median(runs.map((r) => r.ms)),
    clozeAtMost40: runs.filter((r) => {
      const qs = r.items.filter((i) => i.part === 'question' || i.part === 'exit_ticket');
      return qs.length > 0 && qs.filter((i) => i.cloze).length / qs.length <= 0.4;
    }).length,
    fourFormsOrMore: runs.filter(
      (r) =>
        new Set(
          r.items
            .filter((i) => i.part === 'question' || i.part === 'exit_ticket')
            .map((i) => i.form),
        ).size >= 4,
    ).length,
  };
}

export function summarise(runs: GenerationRun[], labels: Label[] | LabelIndex): Summary {
  const index = labels instanceof LabelIndex ? labels : new LabelIndex(labels);
  const allItems = runs.flatMap((r) => r.items);
  const byType: Record<string, Figures> = {};
  for (const type of EVAL_TYPES) {
    const typeRuns = runs.filter((r) => r.type === type);
    if (typeRuns.length === 0) continue;
    byType[type] = figuresOf(
      typeRuns,
      typeRuns.flatMap((r) => r.items),
      index,
    );
  }
  const byKind: Record<string, Figures> = {};
  const kinds = [...new Set(allItems.map((i) => i.kind))].sort();
  for (const kind of kinds) {
    byKind[kind] = figuresOf(
      [],
      allItems.filter((i) => i.kind === kind),
      index,
    );
  }
  return { byType, overall: figuresOf(runs, allItems, index), byKind };
}

/* ------------------------------------------------------------------------------------------ */
/* Reports                                                                                      */
/* ------------------------------------------------------------------------------------------ */

const pct = (rate: number | null) => (rate === null ? 'n/a' : `${(rate * 100).toFixed(1)}%`);

export function formatSummary(summary: Summary, heading: string): string {
  const lines: string[] = [heading, ''];
  const rows: Array<[string, Figures]> = [
    ...Object.entries(summary.byType),
    ['Overall', summary.overall],
  ];
  const table = [
    [
      'type',
      'items',
      'labelled',
      'acceptable',
      'unlabelled',
      'changed',
      'cloze',
      'dropped',
      'abstained',
      'distractor rej.',
      'median ms',
    ],
    ...rows.map(([name, f]) => [
      name,
      String(f.items),
      String(f.labelled),
      `${pct(f.acceptableRate)} (${f.acceptable})`,
      String(f.unlabelled),
      String(f.changed),
      `${pct(f.clozeRate)} (${f.cloze}/${f.questions})`,
      String(f.dropped),
      String(f.abstained),
      f.distractorRejections === null ? 'n/a' : String(f.distractorRejections),
      f.medianMs === null ? 'n/a' : f.medianMs.toFixed(0),
    ]),
  ];
  lines.push(...alignTable(table), '');

  lines.push('Defects by code (labelled items; an item can have two):');
  const defectTable = [
    ['type', ...DEFECT_CODES],
    ...rows.map(([name, f]) => [name, ...DEFECT_CODES.map((c) => String(f.defects[c]))]),
  ];
  lines.push(...alignTable(defectTable), '');

  lines.push('Question forms used:');
  for (const [name, f] of rows) {
    const forms = Object.entries(f.forms)
      .sort((a, b) => b[1] - a[1])
      .map(([form, n]) => `${form} ${n}`)
      .join(', ');
    lines.push(`  ${name}: ${forms || 'none'} (${Object.keys(f.forms).length} forms)`);
  }
  lines.push('');

  lines.push(
    'Question mix per material (issue 13: at most 40% cloze; at least 4 forms in a test):',
  );
  for (const [name, f] of rows) {
    if (f.generations === 0) continue;
    lines.push(
      `  ${name}: ${f.clozeAtMost40} of ${f.generations} at most 40% cloze; ${f.fourFormsOrMore} of ${f.generations} with 4+ forms`,
    );
  }
  lines.push('');

  lines.push('Acceptable by item kind (all types):');
  const kindTable = [
    ['kind', 'items', 'labelled', 'acceptable'],
    ...Object.entries(summary.byKind).map(([kind, f]) => [
      kind,
      String(f.items),
      String(f.labelled),
      `${pct(f.acceptableRate)} (${f.acceptable})`,
    ]),
  ];
  lines.push(...alignTable(kindTable));
  return lines.join('\n');
}

function alignTable(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows.map(
    (row) =>
      '  ' +
      row
        .map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
        .join('  '),
  );
}

/**
 * The items still needing a label, grouped by passage, in a form a rater can read and fill in:
 * each item ends with a line `LABEL <id> <hash> ?`; replace `?` with `ok`, or with `x` and the
 * defect codes and a note (`x trivial,ambiguous: two options fit`). See applyRatings.
 */
export function formatUnlabelled(
  runs: GenerationRun[],
  passages: Passage[],
  index: LabelIndex,
): { text: string; count: number } {
  const out: string[] = [
    '# Items to label',
    '',
    'Rate each item by eval/materials/RUBRIC.md. Replace the `?` of its LABEL line with `ok`, or',
    'with `x` then the defect codes and a short note: `x trivial,ambiguous: two choices fit`.',
    `Defect codes: ${DEFECT_CODES.join(', ')}. Then: npm run eval:materials -- --apply-labels FILE --rater NAME`,
    '',
  ];
  const seen = new Set<string>();
  let count = 0;
  for (const passage of passages) {
    const pending = runs
      .filter((r) => r.passage === passage.slug && r.set === passage.set)
      .flatMap((r) => r.items)
      .filter((item) => index.lookup(item).status !== 'labelled')
      .filter((item) => {
        // An identical item (same hash) of the same passage is rated once.
        const key = `${passage.set}/${passage.slug}#${item.hash}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    if (pending.length === 0) continue;
    out.push(
      `## ${passage.set}/${passage.slug}: ${passage.title} (grade ${passage.grade}, ${passage.genre})`,
      '',
    );
    for (const item of pending) {
      const found = index.lookup(item);
      count += 1;
      out.push(
        `### ${item.id} [${item.kind}; ${item.form}]${found.status === 'changed' ? ' (CHANGED since labelled)' : ''}`,
        item.text,
        `LABEL ${item.id} ${item.hash} ?`,
        '',
      );
    }
  }
  return { text: out.join('\n'), count };
}

/** Reads the LABEL lines a rater filled in (see formatUnlabelled) as labels. */
export function parseRatings(text: string, rater: string, date: string): Label[] {
  const labels: Label[] = [];
  text.split('\n').forEach((line, i) => {
    const match = /^LABEL (\S+) ([0-9a-f]{16}) (.*)$/.exec(line.trim());
    if (!match) return;
    const [, id, hash, verdict] = match as unknown as [string, string, string, string];
    const v = verdict.trim();
    if (v === '?' || v === '') return;
    if (/^ok\b/i.test(v)) {
      const note = v.replace(/^ok\s*:?\s*/i, '');
      labels.push({
        id,
        hash,
        acceptable: true,
        defects: [],
        ...(note ? { note } : {}),
        rater,
        date,
      });
      return;
    }
    const bad = /^x\s+([a-z_,\s]+?)(?::\s*(.*))?$/i.exec(v);
    if (!bad) throw new Error(`line ${i + 1}: "${v}" is neither "ok" nor "x codes: note"`);
    const defects = bad[1]!
      .split(/[,\s]+/)
      .filter(Boolean)
      .map((c) => c.toLowerCase());
    for (const code of defects) {
      if (!(DEFECT_CODES as readonly string[]).includes(code))
        throw new Error(`line ${i + 1}: unknown defect code "${code}"`);
    }
    if (defects.length === 0) throw new Error(`line ${i + 1}: "x" needs at least one defect code`);
    labels.push({
      id,
      hash,
      acceptable: false,
      defects: defects as DefectCode[],
      ...(bad[2] ? { note: bad[2].trim() } : {}),
      rater,
      date,
    });
  });
  return labels;
}
