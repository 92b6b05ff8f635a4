import { slugify } from '@chapterwise/shared';
import { CARDINALS, TENS, UNITS } from '../../../lib/number-words.js';
import { scanWordCount } from './word-scan.js';

/** One chapter (or scene, stave, letter, part) of a book, as stored and served. */
export interface SplitChapter {
  index: number;
  title: string;
  url: string;
  text: string;
}

/**
 * Splits the body of a book (already stripped by `stripGutenbergText`) into chapters.
 *
 * Handles the heading styles of the Project Gutenberg sample: `CHAPTER I.` with or without a
 * title (same line or the next), `Chapter 1`, `CHAPTER ONE`, `STAVE I:`, `Letter 1` beside
 * chapters, `BOOK I`, `ADVENTURE I.`, `1.  The Cyclone`, a bare `1` or `IV` line followed by a
 * title, plays with `ACT I` / `SCENE I.` (each scene a chapter, named with its act), headings
 * hidden in an illustration tag (`[Illustration: … Chapter I.]`), and unnumbered ALL-CAPS
 * titles. Tables of contents and title pages are left out: a heading only counts when real
 * text follows it, and a heading repeated later (the contents list, then the chapter) counts
 * at its last place. A text of at most ONE_PAGE_WORDS is one page; a longer one with no headings
 * found is cut into readable parts ("Part 1", "Part 2"…).
 */
export function splitChapters(body: string, bookTitle = 'Full text'): SplitChapter[] {
  const blocks = toBlocks(body);
  const total = blocks.reduce((sum, b) => sum + b.words, 0);
  if (blocks.length === 0) return [];
  // A text no longer than one readable part stays on one page, whatever headings it has.
  if (total <= ONE_PAGE_WORDS) {
    return finish([{ title: bookTitle, text: blocksText(blocks, 0, blocks.length) }]);
  }
  const units = chooseUnits(findCandidates(blocks), blocks, total);
  if (units.length === 0) return finish(readableParts(blocks));

  const raw: Array<{ title: string; text: string }> = [];
  for (let i = 0; i < units.length; i++) {
    const unit = units[i]!;
    const end = units[i + 1]?.block ?? blocks.length;
    const slice = blocks.slice(unit.bodyStart, end);
    const words = slice.reduce((sum, b) => sum + b.words, 0);
    if (words > MAX_CHAPTER_WORDS) {
      // A "chapter" of a whole volume: cut into parts too, named after it.
      for (const part of readableParts(slice)) {
        raw.push({ title: `${unit.title}, ${part.title.toLowerCase()}`, text: part.text });
      }
    } else {
      raw.push({ title: unit.title, text: blocksText(blocks, unit.bodyStart, end) });
    }
  }
  return finish(raw);
}

/** A text without structure is cut into parts of about this many words (2,000–4,000). */
export const PART_WORDS = 3000;
/**
 * Texts of at most this many words (the longest readable part) are one page, headings or
 * not; longer ones are split by their structure, or into parts when none is found.
 */
export const ONE_PAGE_WORDS = 4000;
/** A found chapter longer than this (a volume without chapters) is cut into parts as well. */
export const MAX_CHAPTER_WORDS = 25_000;

/**
 * "Part 1", "Part 2"…: a text with no structure found, cut into parts of about PART_WORDS
 * words each (the same size within a book). Each cut is made near its ideal place, at a
 * scene break ("* * *", a run of blank lines) when there is one close by, else at the end of
 * a paragraph that ends a sentence, else at any paragraph break. Paragraphs longer than a
 * part (texts without blank lines between paragraphs) are first cut at their line ends.
 */
function readableParts(input: Block[]): Array<{ title: string; text: string }> {
  const blocks = input.flatMap((b) => (b.words > ONE_PAGE_WORDS ? splitBlock(b) : [b]));
  const total = blocks.reduce((sum, b) => sum + b.words, 0);
  const count = Math.max(1, Math.round(total / PART_WORDS));
  const target = total / count;
  // after[b]: words in blocks [0, b].
  const after: number[] = [];
  let running = 0;
  for (const b of blocks) after.push((running += b.words));
  const parts: Array<{ title: string; text: string }> = [];
  let start = 0;
  for (let k = 1; k < count; k++) {
    const ideal = target * k;
    const window = target * 0.25;
    let best = -1;
    let bestCost = Infinity;
    for (let b = start; b < blocks.length - 1; b++) {
      if (after[b]! < ideal - window) continue;
      if (after[b]! > ideal + window) break;
      const next = blocks[b + 1]!;
      const cost =
        Math.abs(after[b]! - ideal) / target +
        (isSceneBreak(next) || isSceneBreak(blocks[b]!) || next.gapBefore >= 2 ? 0 : 0.2) +
        (/[.!?…”"’')\]]$/.test(blocks[b]!.flat) ? 0 : 0.3);
      if (cost < bestCost) {
        bestCost = cost;
        best = b;
      }
    }
    if (best < 0) {
      // No paragraph break in the window: the first one after the ideal place.
      best = after.findIndex((w, b) => b >= start && w >= ideal);
      if (best < 0 || best >= blocks.length - 1) break;
    }
    // A scene-break line ("* * *") goes with neither part.
    let end = best + 1;
    while (end - 1 > start && isSceneBreak(blocks[end - 1]!)) end--;
    parts.push({ title: `Part ${parts.length + 1}`, text: blocksText(blocks, start, end) });
    start = best + 1;
    while (start < blocks.length - 1 && isSceneBreak(blocks[start]!)) start++;
  }
  if (start < blocks.length) {
    parts.push({
      title: `Part ${parts.length + 1}`,
      text: blocksText(blocks, start, blocks.length),
    });
  }
  return parts;
}

/** "* * *", "*****", "# # #", "~", "———": a break between scenes, not a paragraph. */
function isSceneBreak(block: Block): boolean {
  return (
    block.words === 0 && block.lines.length === 1 && /^[\s*#~=_.·•—–-]{1,40}$/.test(block.flat)
  );
}

/**
 * A paragraph longer than a part (a text whose paragraphs are not separated by blank lines):
 * pieces of lines, each ending at a line that closes a sentence, about 200 words long.
 */
function splitBlock(block: Block): Block[] {
  const pieces: Block[] = [];
  let lines: string[] = [];
  let words = 0;
  const push = (gapBefore: number) => {
    if (lines.length === 0) return;
    const flat = lines
      .map((l) => l.trim())
      .join(' ')
      .replace(/\s+/g, ' ');
    pieces.push({ lines, flat, words: countWords(flat), gapBefore });
    lines = [];
    words = 0;
  };
  for (const line of block.lines) {
    // An indented line after enough words starts a new paragraph.
    if (words >= 200 && /^\s+\S/.test(line)) push(0);
    lines.push(line);
    words += countWords(line);
    if (words >= 200 && /[.!?…”"’]\s*$/.test(line)) push(0);
  }
  push(0);
  if (pieces[0]) pieces[0].gapBefore = block.gapBefore;
  return pieces;
}

// ---------------------------------------------------------------------------------------
// Blocks: runs of non-blank lines (paragraphs, headings, verse stanzas).

interface Block {
  lines: string[];
  /** The lines trimmed and joined with one space. */
  flat: string;
  words: number;
  /** Blank lines before it (two or more: often a break between scenes). */
  gapBefore: number;
}

function toBlocks(body: string): Block[] {
  const blocks: Block[] = [];
  let current: string[] = [];
  let gap = 0;
  let gapBefore = 0;
  const push = () => {
    if (current.length === 0) return;
    const flat = current
      .map((l) => l.trim())
      .join(' ')
      .replace(/\s+/g, ' ');
    blocks.push({ lines: current, flat, words: countWords(flat), gapBefore });
    current = [];
  };
  for (const line of body.split('\n')) {
    if (line.trim() === '') {
      push();
      gap++;
    } else {
      if (current.length === 0) {
        gapBefore = gap;
        gap = 0;
      }
      current.push(line);
    }
  }
  push();
  return blocks;
}

/** The text of blocks [from, to) with paragraphs separated by one blank line, indentation kept. */
function blocksText(blocks: Block[], from: number, to: number): string {
  return blocks
    .slice(from, to)
    .map((b) => dedent(b.lines).join('\n'))
    .join('\n\n')
    .trim();
}

function dedent(lines: string[]): string[] {
  const indent = Math.min(...lines.map((l) => /^ */.exec(l)![0].length));
  return indent > 0 ? lines.map((l) => l.slice(indent)) : lines;
}

/** Words (runs of letters and digits, joined by ' ’ -): `[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*`. */
export function countWords(text: string): number {
  return scanWordCount(text);
}

// ---------------------------------------------------------------------------------------
// Heading candidates.

type Family =
  | 'chapter'
  | 'letter'
  | 'stave'
  | 'book'
  | 'adventure'
  | 'act'
  | 'scene'
  | 'canto'
  | 'numbered'
  | 'roman-titled'
  | 'bare-number'
  | 'bare-roman'
  | 'named'
  | 'caps';

interface Candidate {
  family: Family;
  block: number;
  /** The first block of the chapter's text (after the heading and a title line, if any). */
  bodyStart: number;
  number: number | null;
  /** How the number was written ("I", "1", "One"). */
  numeral: string;
  title: string;
  /** Words from the body start to the next candidate of the same family. */
  words: number;
}

const ROMAN = '[IVXLC]+';
const WORD_NUMBER = `(?:(?:${TENS.join('|')})(?:[- ](?:${UNITS.slice(0, 9).join('|')}))?|${UNITS.join('|')})`;
const NUMERAL = `(${ROMAN}|\\d{1,3}|the last|${WORD_NUMBER})`;

const LABELLED: Array<{ family: Family; label: string; pattern: RegExp }> = [
  { family: 'chapter', label: 'Chapter', pattern: labelled('chapter') },
  { family: 'letter', label: 'Letter', pattern: labelled('letter') },
  { family: 'stave', label: 'Stave', pattern: labelled('stave') },
  { family: 'book', label: 'Book', pattern: labelled('book') },
  { family: 'adventure', label: 'Adventure', pattern: labelled('adventure') },
  { family: 'act', label: 'Act', pattern: labelled('act') },
  { family: 'scene', label: 'Scene', pattern: labelled('scene') },
  // "Canto I", and "Inferno: Canto I" (the part of the poem named first).
  { family: 'canto', label: 'Canto', pattern: labelled('(?:[a-z]{3,20}:\\s+)?canto') },
];

function labelled(word: string): RegExp {
  // "CHAPTER I.", "Chapter 1", "CHAPTER ONE PLAYING PILGRIMS", "STAVE I:  MARLEY'S GHOST".
  return new RegExp(`^${word}\\s+${NUMERAL}(?![\\w’'])\\s*[.:]?\\s*(.*)$`, 'i');
}

const ORDINAL_ACT = /^(first|second|third|fourth|fifth)\s+act\.?$/i;
/** "ACT FIRST", "Act Second." (Ibsen's translations). */
const ACT_ORDINAL = /^act\s+(first|second|third|fourth|fifth)\.?$/i;
const NUMBERED_TITLE = /^(\d{1,3})\.\s+([A-Z“"‘'].{1,80})$/;
const ROMAN_TITLED = new RegExp(`^(${ROMAN})\\.\\s+([A-Z“"‘'].{1,80})$`);
const BARE_NUMBER = /^(\d{1,3})\.?$/;
const BARE_ROMAN = new RegExp(`^(${ROMAN})\\.?$`);
const NAMED =
  /^(the preface|preface|introduction|introductory|prologue|the prologue|epilogue|conclusion|postscript|appendix|afterword|foreword|sequel|author['’]s note|author's preface|preface to the first edition)\b[.:]?\s*(.{0,60})$/i;
const ILLUSTRATED_CHAPTER = new RegExp(`(chapter)\\s+(${ROMAN}|\\d{1,3})\\.?\\]$`, 'i');

function findCandidates(blocks: Block[]): Candidate[] {
  const found: Candidate[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    const candidate = classify(block, i, blocks);
    if (candidate) found.push(candidate);
  }
  return found;
}

function classify(block: Block, index: number, blocks: Block[]): Candidate | null {
  const first = block.lines[0]!.trim();
  const make = (
    family: Family,
    numeral: string,
    title: string,
    consumeNextTitle: boolean,
  ): Candidate => {
    let bodyStart = index + 1;
    let finalTitle = title.trim();
    if (!finalTitle && consumeNextTitle) {
      const next = blocks[index + 1];
      if (next && looksLikeTitle(next)) {
        finalTitle = next.flat;
        bodyStart = index + 2;
      }
    }
    return {
      family,
      block: index,
      bodyStart,
      number: parseNumeral(numeral),
      numeral,
      title: finalTitle,
      words: 0,
    };
  };

  // A heading inside an illustration tag: "[Illustration: … Chapter I.]".
  if (first.startsWith('[Illustration') && block.lines.length <= 8) {
    const last = block.lines.at(-1)!.trim();
    const m = ILLUSTRATED_CHAPTER.exec(last);
    if (m) return make('chapter', m[2]!, '', true);
    return null;
  }

  if (block.lines.length > 3 || block.flat.length > 120) return null;

  for (const { family, pattern } of LABELLED) {
    const m = pattern.exec(first);
    if (!m) continue;
    // The rest of the block (a second line) is the title when the first line has none.
    const rest = (m[2] ?? '').trim() || block.lines.slice(1).join(' ').trim();
    return make(family, m[1]!, rest, true);
  }
  if (block.lines.length === 1) {
    let m = ORDINAL_ACT.exec(first) ?? ACT_ORDINAL.exec(first);
    if (m) return make('act', m[1]!, '', false);
    m = NUMBERED_TITLE.exec(first);
    if (m) return make('numbered', m[1]!, m[2]!, false);
    m = ROMAN_TITLED.exec(first);
    if (m) return make('roman-titled', m[1]!, m[2]!, false);
    m = BARE_NUMBER.exec(first);
    if (m) return make('bare-number', m[1]!, '', true);
    m = BARE_ROMAN.exec(first);
    if (m) return make('bare-roman', m[1]!, '', true);
  }
  const named = NAMED.exec(block.flat);
  if (named && block.lines.length <= 2) {
    return make('named', '', block.flat.replace(/[.:]$/, ''), false);
  }
  if (block.lines.length === 1 && isAllCapsTitle(first) && !/^[“"‘']/.test(first)) {
    return make('caps', '', first.replace(/\.$/, ''), false);
  }
  return null;
}

/** A short one- or two-line block that reads as a title rather than a sentence of prose. */
function looksLikeTitle(block: Block): boolean {
  if (block.lines.length > 2 || block.flat.length > 90) return false;
  const text = block.flat;
  if (isAllCapsTitle(text)) return true;
  if (/^[([_]/.test(text)) return false;
  // Title Case: most words capitalised, and no sentence ending except a final period.
  const words = text.split(/\s+/).filter((w) => /^[\p{L}]/u.test(w));
  if (words.length === 0 || words.length > 14) return false;
  const capitalised = words.filter((w) => /^\p{Lu}/u.test(w)).length;
  if (capitalised / words.length < 0.5) return false;
  return (
    !/[,;:]$/.test(text) &&
    !/[,.!?][”"’]?\s*$/.test(text.replace(/^[“"].*[”"]$/, 'x')) &&
    !/[a-z]\.\s+[A-Z]/.test(text)
  );
}

function isAllCapsTitle(text: string): boolean {
  if (text.length < 3 || text.length > 70) return false;
  if (!/^[\p{Lu}\d“"‘'(]/u.test(text)) return false;
  const letters = text.replace(/[^\p{L}]/gu, '');
  return letters.length >= 3 && letters === letters.toUpperCase();
}

function parseNumeral(numeral: string): number | null {
  if (!numeral) return null;
  if (/^\d+$/.test(numeral)) return Number(numeral);
  if (/^[IVXLC]+$/i.test(numeral)) return romanToInt(numeral.toUpperCase());
  const lower = numeral.toLowerCase();
  if (lower === 'the last') return 9999;
  const ordinals = ['first', 'second', 'third', 'fourth', 'fifth'];
  if (ordinals.includes(lower)) return ordinals.indexOf(lower) + 1;
  const [tens, ones] = lower.split(/[- ]/);
  if (TENS.includes(tens ?? '')) return CARDINALS[tens!]! + (ones ? (CARDINALS[ones] ?? 0) : 0);
  return UNITS.includes(lower) ? CARDINALS[lower]! : null;
}

function romanToInt(roman: string): number {
  const values: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100 };
  let total = 0;
  for (let i = 0; i < roman.length; i++) {
    const v = values[roman[i]!]!;
    const next = values[roman[i + 1] ?? ''] ?? 0;
    total += v < next ? -v : v;
  }
  return total;
}

// ---------------------------------------------------------------------------------------
// Choosing the units the book is split into.

interface Unit {
  block: number;
  bodyStart: number;
  title: string;
}

/** A heading needs this many words of text after it to be a chapter (not a contents line). */
const MIN_CHAPTER_WORDS = 40;
/** The first chapter of a run has at least this many words (a contents entry has fewer). */
const MIN_START_WORDS = 200;
/** A preface, introduction or appendix needs this many words to be a part of its own. */
const MIN_NAMED_WORDS = 100;

const CHAPTER_FAMILIES: Family[][] = [
  ['chapter', 'letter'],
  ['stave'],
  ['canto'],
  ['book'],
  ['adventure', 'roman-titled'],
  ['numbered'],
  ['bare-number'],
  ['bare-roman'],
];

/** "Book the First--Recalled to Life", "PART ONE—The Old Buccaneer", "VOLUME II". */
const SEGMENT =
  /^((?:book|part|volume)\s+(?:the\s+)?(?:first|second|third|fourth|fifth|sixth|one|two|three|four|five|six|[IVXLC]+|\d{1,2})|(?:first|second|third|fourth|fifth|sixth|seventh|eighth)\s+(?:period|narrative|part|book))\b/i;

function chooseUnits(all: Candidate[], blocks: Block[], total: number): Unit[] {
  const scenes = all.filter((c) => c.family === 'scene');
  if (scenes.length >= 3) {
    const acts = all.filter((c) => c.family === 'act');
    const realScenes = real(scenes, blocks, segmentsFrom(acts));
    if (realScenes.length >= 3) return playUnits(all, realScenes, acts, blocks);
  }
  const acts = real(
    all.filter((c) => c.family === 'act'),
    blocks,
    [],
  );
  if (acts.length >= 2) return [...acts.map((c) => unit(c, actLabel(c)))];

  let best: Candidate[] = [];
  let bestSegments: Segment[] = [];
  for (const families of CHAPTER_FAMILIES) {
    const segments = families.includes('book') ? [] : findSegments(blocks);
    const chosen = real(
      all.filter((c) => families.includes(c.family)),
      blocks,
      segments,
    );
    if (chosen.length > best.length) {
      best = chosen;
      bestSegments = segments;
    }
  }
  if (best.length >= 2) {
    const group = new Set(best.map((c) => c.family));
    const restarts = new Set(best.map((c) => c.number)).size < best.length;
    const units = best.map((c) => {
      const word = group.has('adventure') ? 'Adventure' : familyLabel(c.family);
      const segment = restarts ? segmentOf(bestSegments, c.block) : undefined;
      const title = label(word, c);
      return unit(c, segment ? `${segment.label}, ${title}` : title);
    });
    const withNamed = withNamedParts(all, units, blocks);
    if (plausible(withNamed, blocks, total) && counted(best)) return withNamed;
  }
  const listed = contentsUnits(blocks);
  if (plausible(listed, blocks, total)) return listed;
  const letters = addressedLetters(blocks);
  if (letters.length >= 5 && plausible(letters, blocks, total)) return letters;
  const caps = real(
    all.filter(
      (c) => (c.family === 'caps' || c.family === 'named') && !FRONT_MATTER.test(c.title.trim()),
    ),
    blocks,
    [],
  ).map((c) => unit(c, titleCase(c.title)));
  if (plausible(caps, blocks, total)) return caps;
  return [];
}

/**
 * Headings that are front or back matter, never a chapter: the contents, lists of
 * illustrations or characters, notes, credits, a title page's "By …".
 */
const FRONT_MATTER =
  /^(?:(?:table of )?contents|(?:list of )?illustrations|characters|dramatis personae|persons (?:of the play|represented)|the persons|cast|(?:foot)?notes|index|errata|credits|dedication|advertisements?|(?:transcriber|preparer|producer|editor)[’']?s? notes?|page|by\b.*|engraved by\b.*|illustrated by\b.*|copyright\b.*|printed\b.*|the end)[.:]?$/i;

/** Numbered headings count up (or start again at one): "3." then "8." in a letter do not. */
function counted(list: Candidate[]): boolean {
  let steps = 0;
  for (let i = 1; i < list.length; i++) {
    const [a, b] = [list[i - 1]!.number, list[i]!.number];
    if (a === null || b === null || b === a + 1 || b <= 1 || b === 9999) steps++;
  }
  return steps >= (list.length - 1) / 2;
}

/**
 * A split is believable when the chapters carry most of the book: not more than 40% of the
 * words before the first one (a title page and a preface, not half a novel), and no single
 * chapter holding most of the text (numbered verses inside a poem are not chapters).
 */
function plausible(units: Unit[], blocks: Block[], total: number): boolean {
  if (units.length < 2) return false;
  let before = 0;
  for (let b = 0; b < units[0]!.block; b++) before += blocks[b]!.words;
  if (before > total * 0.4) return false;
  let largest = 0;
  for (let i = 0; i < units.length; i++) {
    const end = units[i + 1]?.block ?? blocks.length;
    let words = 0;
    for (let b = units[i]!.bodyStart; b < end; b++) words += blocks[b]!.words;
    largest = Math.max(largest, words);
  }
  return largest <= total * (units.length >= 3 ? 0.6 : 0.75);
}

const CONTENTS_HEADING = /^(?:table of\s+)?contents\b(?:\s+of\s+[\w\s.]{1,30})?[.:]?$/i;

/**
 * Works whose parts have titles but no numbers (stories, poems, essays): the book's own
 * contents list names them, and each entry found again later as a heading, in order, starts
 * a part. Page numbers, leading numbers and "PAGE" columns of the list are ignored.
 */
function contentsUnits(blocks: Block[]): Unit[] {
  const head = blocks.findIndex(
    (b, i) => i < blocks.length * 0.3 && b.lines.length <= 2 && CONTENTS_HEADING.test(b.flat),
  );
  if (head === -1) return [];
  const entries: string[] = [];
  let end = head + 1;
  for (; end < blocks.length && end < head + 300; end++) {
    const block = blocks[end]!;
    if (!isListBlock(block)) break;
    const lines = block.lines.map(contentsEntry).filter((e): e is string => e !== null);
    // The list ends where its first entry comes again as the first heading of the text.
    if (
      entries.length > 0 &&
      lines.length === 1 &&
      headingKey(lines[0]!) === headingKey(entries[0]!)
    )
      break;
    entries.push(...lines);
  }
  if (entries.length < 3) return [];
  const headings = new Map<string, number[]>();
  for (let b = end; b < blocks.length; b++) {
    const block = blocks[b]!;
    if (block.lines.length > 3 || block.flat.length > 120) continue;
    const key = headingKey(block.flat);
    if (!key) continue;
    const list = headings.get(key) ?? [];
    list.push(b);
    headings.set(key, list);
  }
  const units: Unit[] = [];
  let cursor = end - 1;
  for (const entry of entries) {
    if (FRONT_MATTER.test(entry)) continue;
    const found = headings.get(headingKey(entry))?.find((b) => b > cursor);
    if (found === undefined) continue;
    units.push({ block: found, bodyStart: found + 1, title: cleanTitle(entry) });
    cursor = found;
  }
  const wanted = entries.filter((e) => !FRONT_MATTER.test(e)).length;
  return units.length >= 3 && units.length >= wanted * 0.5 ? units : [];
}

/** A block of a contents list: short or indented lines, or lines ending in a page number. */
function isListBlock(block: Block): boolean {
  if (block.lines.some((l) => l.trim().length > 100)) return false;
  if (block.lines.length === 1) return block.flat.length <= 90;
  const entryLike = block.lines.filter((l) => {
    const t = l.trim();
    return /^\s{2,}/.test(l) || t.length <= 50 || /\d+$/.test(t);
  }).length;
  return entryLike >= block.lines.length * 0.6;
}

/** One contents line without its page number or leading number; null for "PAGE" and the like. */
function contentsEntry(line: string): string | null {
  const text = line
    .trim()
    .replace(/[\s.·_]*\d+$/, '')
    .replace(/^(?:\d{1,3}|[IVXLC]+)[.)]?\s+(?=\S)/, '')
    .trim();
  if (!/\p{L}.*\p{L}.*\p{L}/u.test(text) || /^page$/i.test(text) || text.startsWith('['))
    return null;
  return text;
}

/** How a title is compared between the contents list and the text. */
function headingKey(text: string): string {
  return text
    .replace(/^(?:\d{1,3}|[IVXLC]+)[.)]\s+/, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

const ADDRESSED = /^TO\s+[\p{Lu}][\p{Lu}\s.,'’-]{2,60}$/u;

/** Collections of letters headed "TO HIS BROTHER MIHAIL." (each a part: "Letter 12: To …"). */
function addressedLetters(blocks: Block[]): Unit[] {
  const units: Unit[] = [];
  blocks.forEach((block, i) => {
    if (block.lines.length > 2 || !ADDRESSED.test(block.lines[0]!.trim().replace(/\.$/, '')))
      return;
    const to = titleCase(block.lines[0]!.trim().replace(/\.$/, ''));
    units.push({ block: i, bodyStart: i + 1, title: `Letter ${units.length + 1}: ${to}` });
  });
  return units;
}

interface Segment {
  block: number;
  label: string;
}

function findSegments(blocks: Block[]): Segment[] {
  const segments: Segment[] = [];
  blocks.forEach((block, i) => {
    if (block.lines.length > 2 || block.flat.length > 100) return;
    const m = SEGMENT.exec(block.flat);
    if (m) segments.push({ block: i, label: titleCase(m[1]!.toUpperCase()) });
  });
  return segments;
}

function segmentsFrom(candidates: Candidate[]): Segment[] {
  return candidates.map((c) => ({ block: c.block, label: c.numeral }));
}

function segmentOf(segments: Segment[], block: number): Segment | undefined {
  let found: Segment | undefined;
  for (const s of segments) if (s.block < block) found = s;
  return found;
}

function familyLabel(family: Family): string {
  switch (family) {
    case 'letter':
      return 'Letter';
    case 'stave':
      return 'Stave';
    case 'book':
      return 'Book';
    case 'adventure':
      return 'Adventure';
    case 'canto':
      return 'Canto';
    default:
      return 'Chapter';
  }
}

function actLabel(c: Candidate): string {
  if (/^(first|second|third|fourth|fifth)$/i.test(c.numeral)) {
    return `${titleCase(c.numeral.toUpperCase())} Act`;
  }
  return label('Act', c);
}

/**
 * The candidates that head real text: more than a contents line's worth of words before the
 * next heading of the same kind; not repeated later in the same part of the book (a contents
 * list that sits before a preface repeats every heading: the later copy is the chapter); and
 * numbered upwards within a part (chapter numbers may restart in each "Book the Second").
 */
function real(mine: Candidate[], blocks: Block[], segments: Segment[]): Candidate[] {
  const findStart = segments.length === 0;
  // Numbered headings keep one numeral style: Moby-Dick's chapters are arabic, and its
  // "BOOK I. (Folio), CHAPTER I." inside the Cetology chapter is roman.
  const numbered = mine.filter((c) => c.numeral && c.family !== 'letter');
  const arabic = numbered.filter((c) => /^\d+$/.test(c.numeral)).length;
  const arabicStyle = arabic * 2 > numbered.length;
  const styled = mine.filter(
    (c) =>
      c.family === 'letter' ||
      !c.numeral ||
      !/^([IVXLC]+|\d+)$/i.test(c.numeral) ||
      /^\d+$/.test(c.numeral) === arabicStyle,
  );
  const withWords = styled.map((c, i) => {
    const end = styled[i + 1]?.block ?? blocks.length;
    let words = 0;
    for (let b = c.bodyStart; b < end; b++) words += blocks[b]!.words;
    return { ...c, words };
  });
  let kept = withWords.filter((c) => c.words >= MIN_CHAPTER_WORDS);
  // The real run starts at the first lowest-numbered heading with a chapter's worth of text:
  // whatever comes before it in this family is a contents list (whose entries may carry a
  // few lines of description each) or front matter.
  const numbers = kept.map((c) => c.number).filter((n): n is number => n !== null);
  if (numbers.length > 0 && findStart) {
    const lowest = Math.min(...numbers);
    let start = kept.findIndex((c) => c.number === lowest && c.words >= MIN_START_WORDS);
    if (start === -1) start = kept.map((c) => c.number).lastIndexOf(lowest);
    kept = kept.slice(start);
  }
  // Unnumbered headings that repeat (a contents list, then the part): the later one counts.
  const lastTitle = new Map<string, number>();
  kept.forEach((c, i) => {
    if (c.number === null) lastTitle.set(`${c.family}|${normalTitle(c.title)}`, i);
  });
  const list = kept.filter(
    (c, i) => c.number !== null || lastTitle.get(`${c.family}|${normalTitle(c.title)}`) === i,
  );
  return list.map((c, i) => fixMisnumbered(c, list[i - 1], list[i + 1]));
}

function normalTitle(title: string): string {
  return title
    .toLowerCase()
    .replace(/^the\s+/, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * A printed heading with a typo ("CHAPTER XVI" between XXV and XXVII in Tom Sawyer) takes the
 * number its neighbours imply, so titles stay unique and in order.
 */
function fixMisnumbered(c: Candidate, previous?: Candidate, next?: Candidate): Candidate {
  if (c.number === null || previous?.number == null || next?.number == null) return c;
  if (previous.family !== c.family || next.family !== c.family) return c;
  const expected = previous.number + 1;
  if (c.number === expected || next.number !== expected + 1) return c;
  const numeral = /^[IVXLC]+$/i.test(c.numeral)
    ? intToRoman(expected)
    : /^\d+$/.test(c.numeral)
      ? String(expected)
      : c.numeral;
  return { ...c, number: expected, numeral };
}

function intToRoman(n: number): string {
  const table: Array<[number, string]> = [
    [100, 'C'],
    [90, 'XC'],
    [50, 'L'],
    [40, 'XL'],
    [10, 'X'],
    [9, 'IX'],
    [5, 'V'],
    [4, 'IV'],
    [1, 'I'],
  ];
  let out = '';
  for (const [value, letters] of table) {
    while (n >= value) {
      out += letters;
      n -= value;
    }
  }
  return out;
}

/**
 * Front and back matter: a named part (PREFACE, INTRODUCTION, CONCLUSION, APPENDIX, …) before
 * the first chapter or after the last one becomes a part of its own when it has real text.
 * The rest of the front matter (title page, contents, dedication) is left out.
 */
function withNamedParts(all: Candidate[], units: Unit[], blocks: Block[]): Unit[] {
  const first = units[0]!.block;
  const last = units.at(-1)!.block;
  const named = all.filter((c) => c.family === 'named' && (c.block < first || c.block > last));
  const lastOf = new Map<string, number>();
  named.forEach((c, i) => lastOf.set(c.title.toLowerCase(), i));
  const extra: Unit[] = [];
  named.forEach((c, i) => {
    if (lastOf.get(c.title.toLowerCase()) !== i) return;
    // In the front matter any heading ends it, contents lines included (a contents entry
    // has no text of its own); in the back matter only the next named part does.
    const others = c.block < first ? all : named;
    const boundaries = [...units.map((u) => u.block), ...others.map((n) => n.block)].filter(
      (b) => b > c.block,
    );
    const end = boundaries.length ? Math.min(...boundaries) : blocks.length;
    let words = 0;
    for (let b = c.bodyStart; b < end; b++) words += blocks[b]!.words;
    if (words >= MIN_NAMED_WORDS) extra.push(unit(c, titleCase(c.title)));
  });
  return [...units, ...extra].sort((a, b) => a.block - b.block);
}

/** Plays: each scene is a chapter named with its act; a prologue before a scene is one too. */
function playUnits(
  all: Candidate[],
  scenes: Candidate[],
  acts: Candidate[],
  blocks: Block[],
): Unit[] {
  const units: Unit[] = [];
  const actFor = (block: number) => [...acts].reverse().find((a) => a.block < block);
  const firstScene = scenes[0]!.block;
  const wordsBetween = (from: number, to: number) => {
    let words = 0;
    for (let b = from; b < to; b++) words += blocks[b]!.words;
    return words;
  };
  // The prologue before the play (named in the contents too: the later one counts).
  const prologue = all
    .filter((c) => (c.family === 'named' || c.family === 'caps') && /prologue/i.test(c.title))
    .filter(
      (c) =>
        c.block < firstScene && !acts.some((a) => a.block < c.block && a.block > firstScene - 12),
    )
    .at(-1);
  if (prologue) {
    const boundaries = [...scenes, ...acts].map((c) => c.block).filter((b) => b > prologue.block);
    if (wordsBetween(prologue.bodyStart, Math.min(...boundaries)) >= MIN_CHAPTER_WORDS) {
      units.push(unit(prologue, 'Prologue'));
    }
  }
  // A chorus between an act heading and its first scene is that act's prologue.
  for (const act of acts) {
    const scene = scenes.find((s) => s.block > act.block);
    // An act heading in a contents list has another act heading before the next scene.
    if (!scene || acts.some((a) => a.block > act.block && a.block < scene.block)) continue;
    if (wordsBetween(act.bodyStart, scene.block) >= MIN_CHAPTER_WORDS) {
      units.push(unit(act, `Act ${act.numeral.toUpperCase()}, Prologue`));
    }
  }
  for (const scene of scenes) {
    const act = actFor(scene.block);
    const head = act
      ? `Act ${act.numeral.toUpperCase()}, Scene ${scene.numeral.toUpperCase()}`
      : `Scene ${scene.numeral.toUpperCase()}`;
    const where = cleanTitle(scene.title);
    units.push(unit(scene, where ? `${head}: ${where}` : head));
  }
  return units.sort((a, b) => a.block - b.block);
}

function unit(c: Candidate, title: string): Unit {
  return { block: c.block, bodyStart: c.bodyStart, title };
}

function label(word: string, c: Candidate): string {
  const numeral = /^[IVXLC]+$/i.test(c.numeral) ? c.numeral.toUpperCase() : titleCase(c.numeral);
  const head =
    c.family === 'numbered' || c.family === 'bare-number'
      ? `${word} ${c.numeral}`
      : `${word} ${numeral}`;
  const title = cleanTitle(c.title);
  return title ? `${head}: ${title}` : head;
}

function cleanTitle(title: string): string {
  const trimmed = title
    .replace(/_/g, '')
    .replace(/\s+/g, ' ')
    .replace(/^[-—–.:\]\s]+/, '')
    .replace(/[.\]\s]+$/, '')
    .trim();
  return titleCase(trimmed);
}

const SMALL_WORDS = new Set([
  'a',
  'an',
  'and',
  'as',
  'at',
  'but',
  'by',
  'for',
  'from',
  'in',
  'into',
  'of',
  'on',
  'or',
  'the',
  'to',
  'with',
]);

/** "MARLEY'S GHOST" → "Marley's Ghost". Text that already has lower case is left alone. */
export function titleCase(text: string): string {
  if (/\p{Ll}/u.test(text)) return text;
  let first = true;
  return text.replace(/[\p{L}'’]+/gu, (word) => {
    const lower = word.toLowerCase();
    const isFirst = first;
    first = false;
    if (/^[IVXLC]+$/.test(word) && word.length > 1) return word;
    if (!isFirst && SMALL_WORDS.has(lower)) return lower;
    return lower.charAt(0).toUpperCase() + lower.slice(1);
  });
}

// ---------------------------------------------------------------------------------------

/** Numbers the chapters and makes titles and urls unique within the book. */
function finish(raw: Array<{ title: string; text: string }>): SplitChapter[] {
  const titles = new Map<string, number>();
  const urls = new Set<string>();
  return raw
    .filter((c) => c.text.length > 0)
    .map((c, index) => {
      let title = c.title.slice(0, 200);
      const seen = titles.get(title.toLowerCase()) ?? 0;
      titles.set(title.toLowerCase(), seen + 1);
      if (seen > 0) title = `${title} (${seen + 1})`;
      let base = slugify(title)
        .slice(0, 80)
        .replace(/-+[^-]*$/, (tail) => (slugify(title).length > 80 ? '' : tail));
      if (!base) base = `part-${index + 1}`;
      let url = base;
      for (let n = 2; urls.has(url); n++) url = `${base}-${n}`;
      urls.add(url);
      return { index, title, url, text: c.text };
    });
}
