import type { Analysis } from './analyse.js';

/**
 * The kind of text, so the question families fit it: story questions (characters, "what will
 * happen next") for narratives, not for an informational text about volcanoes; claims and
 * reasons for an argument; images and lines for a poem. Read from surface signals, all cheap:
 * line shape (verse), dialogue and past-tense personal narration (narrative), first-person
 * claims with should/must and signposts (argument); informational otherwise.
 */
export type Genre = 'narrative' | 'informational' | 'argument' | 'poem';

export interface GenreReading {
  genre: Genre;
  /** The signals, for tests and the teacher's notes. */
  signals: Record<string, number>;
}

const PERSONAL = new Set(['he', 'she', 'i', 'him', 'her', 'me', 'my', 'his']);
const PAST = new Set(['was', 'were', 'had', 'said', 'did', 'came', 'went', 'saw', 'took', 'told']);
const PRESENT = new Set(['is', 'are', 'has', 'have', 'does', 'do', 'can']);
const ARGUE =
  /\b(?:should|must|ought|need to|i believe|i think|we believe|in my opinion|clearly|therefore|however|for these reasons|it is (?:clear|important|wrong|right)|we (?:must|should|need)|(?:first|second|third|finally|in short|in conclusion|of course),|argue[sd]?|claims?|critics|opponents|not merely|rather than|the (?:question|answer|point) is)\b/gi;

const cache = new WeakMap<Analysis, GenreReading>();

export function detectGenre(analysis: Analysis): GenreReading {
  const cached = cache.get(analysis);
  if (cached) return cached;
  const body = analysis.prepared.body;
  // Verse: stanzas that stop without a full stop, and lines joined into them that start with a
  // capital after a comma ("…rich with corn, Clear in the cool September morn,").
  const prose = analysis.prepared.paragraphs.filter(
    (p) => p.kind === 'prose' || p.kind === 'speech',
  );
  const open = prose.filter((p) => !/[.!?]["”’')\]]*$/.test(p.full.trim())).length;
  const lineStarts = (body.match(/[,;:!?]\s+\p{Lu}\p{Ll}/gu) ?? []).length;
  const bodyWords = Math.max(1, body.split(/\s+/).length);
  const verse =
    prose.length >= 6
      ? Math.min(1, open / prose.length + (lineStarts / bodyWords) * 10)
      : (lineStarts / bodyWords) * 10;
  let words = 0;
  let personal = 0;
  let past = 0;
  let present = 0;
  for (const s of analysis.sentences) {
    for (const t of s.tokens) {
      if (!/\p{L}/u.test(t.value)) continue;
      words += 1;
      const n = t.normal;
      if (PERSONAL.has(n)) personal += 1;
      if (PAST.has(n) || (t.pos === 'VERB' && /ed$/.test(n) && n !== t.lemma)) past += 1;
      if (PRESENT.has(n)) present += 1;
    }
  }
  const w = Math.max(1, words);
  const dialogue =
    analysis.sentences.filter((s) => s.hasQuotes).length / Math.max(1, analysis.sentences.length);
  const argue = (body.match(ARGUE) ?? []).length / Math.max(1, analysis.sentences.length);
  const people = [...analysis.names.values()].filter(
    (n) => n.kind === 'person' && n.count >= 2,
  ).length;
  const signals = {
    verse: round(verse),
    personal: round((personal / w) * 100),
    past: round((past / w) * 100),
    present: round((present / w) * 100),
    dialogue: round(dialogue),
    argue: round(argue),
    people,
  };
  let genre: Genre;
  if (analysis.prepared.isPlay) genre = 'narrative';
  else if (verse >= 0.6) genre = 'poem';
  else if (argue >= 0.2 && signals.present >= signals.past) genre = 'argument';
  else if (
    dialogue >= 0.15 ||
    (signals.personal >= 3 && signals.past > signals.present) ||
    (people >= 2 && signals.personal >= 2 && signals.past > signals.present * 1.5)
  )
    genre = 'narrative';
  else genre = 'informational';
  const reading = { genre, signals };
  cache.set(analysis, reading);
  return reading;
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}

/** Story questions (characters' feelings, predictions) fit narratives (and plays) only. */
export function storyQuestionsFit(analysis: Analysis): boolean {
  return detectGenre(analysis).genre === 'narrative';
}
