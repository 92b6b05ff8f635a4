/**
 * Turns a pasted or imported text into paragraphs the NLP can read: line endings evened out,
 * hard-wrapped lines joined, headings and stage directions set aside, and, in plays, each
 * speech's speaker found. Every paragraph's text is a run of the original with whitespace
 * evened out, so any sentence cut from it is a verbatim quote.
 */

export interface Paragraph {
  /** The paragraph with its lines joined (speaker label included). */
  full: string;
  /** Where the speech or prose starts inside `full` (after a speaker label). */
  contentStart: number;
  /** The speaker of a speech in a play. */
  speaker?: string;
  kind: 'prose' | 'speech' | 'heading' | 'direction';
}

export interface PreparedText {
  paragraphs: Paragraph[];
  /** The readable paragraphs' content joined by blank lines: what the NLP reads. */
  body: string;
  /** For each readable paragraph: its index and where its content starts in `body`. */
  spans: Array<{ paragraph: number; start: number; end: number }>;
  isPlay: boolean;
  speakers: string[];
}

const HONORIFICS = new Set([
  'MR',
  'MRS',
  'MS',
  'DR',
  'ST',
  'MISS',
  'MME',
  'MLLE',
  'CAPT',
  'COL',
  'GEN',
  'REV',
  'LT',
  'SGT',
  'PROF',
  'NO',
  'VOL',
  'CH',
  'FIG',
]);

// "JACK." / "LADY BRACKNELL." / "FIRST WITCH." / "Nora (drops her cloak)." at the start of a paragraph.
const LABEL =
  /^((?:[A-Z][A-Z’'-]+)(?: (?:[A-Z][A-Z’'-]+|OF|THE|DE|LA|LE)){0,3}|[A-Z][a-z]+(?: [A-Z][a-z]+)?)(?: ?\([^)]{0,80}\))?\.(?:\s+|$)/;

/** "LADY BRACKNELL" → "Lady Bracknell". */
export function titleCaseName(name: string): string {
  return name
    .toLowerCase()
    .replace(
      /(^|[\s-])([a-z])/g,
      (_m, space: string, letter: string) => space + letter.toUpperCase(),
    )
    .replace(/\b(Of|The|De|La|Le)\b/g, (w, _x, offset: number) =>
      offset === 0 ? w : w.toLowerCase(),
    );
}

function isHeading(text: string): boolean {
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  if (
    /^(chapter|stave|letter|book|part|act|scene|section|canto)\b[\s.:]*[\divxlc]*/i.test(text) &&
    words.length <= 14
  ) {
    return true;
  }
  if (/^[IVXLC]+\.?$/.test(text) || /^\d+\.?$/.test(text)) return true;
  const letters = text.replace(/[^A-Za-z]/g, '');
  if (
    letters.length > 0 &&
    letters === letters.toUpperCase() &&
    words.length <= 10 &&
    !/[.!?]["”’)]?$/.test(text)
  ) {
    return true;
  }
  return words.length <= 8 && !/[.!?:;,"”’)\]]$/.test(text);
}

/** Splits, joins and classifies the paragraphs of a text. */
export function prepareText(raw: string): PreparedText {
  const cleaned = raw
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, ' ')
    .replace(/\u00A0/g, ' ');
  const blocks = cleaned
    .split(/\n[ \t]*\n+/)
    .map((b) =>
      b
        .replace(/\s*\n\s*/g, ' ')
        .replace(/_([^_]+?)_/g, '$1')
        .replace(/ {2,}/g, ' ')
        .trim(),
    )
    .filter(Boolean);

  const labelCounts = new Map<string, number>();
  for (const block of blocks) {
    const name = LABEL.exec(block)?.[1];
    if (name && !HONORIFICS.has(name.toUpperCase()))
      labelCounts.set(name, (labelCounts.get(name) ?? 0) + 1);
  }
  const speakerish = [...labelCounts.entries()].filter(
    ([name, count]) =>
      (name === name.toUpperCase() && name.replace(/[^A-Z]/g, '').length >= 2) || count >= 3,
  );
  const speechCount = speakerish.reduce((sum, [, c]) => sum + c, 0);
  const isPlay = speakerish.length >= 2 && speechCount >= 8 && speechCount >= blocks.length * 0.3;
  const speakerSet = new Set(speakerish.map(([name]) => name));

  const paragraphs: Paragraph[] = [];
  let pendingSpeaker: string | undefined;
  for (const block of blocks) {
    if (/^[[(].*[\])]$/.test(block) || /^\[?Illustration/i.test(block)) {
      paragraphs.push({ full: block, contentStart: 0, kind: 'direction' });
      continue;
    }
    if (/^\s*(Enter|Exit|Exeunt|Re-enter)\b/.test(block) && block.length < 200) {
      paragraphs.push({ full: block, contentStart: 0, kind: 'direction' });
      continue;
    }
    if (isPlay) {
      const label = LABEL.exec(block);
      if (label?.[1] && speakerSet.has(label[1])) {
        const rest = block.slice(label[0].length);
        // A label alone on its line ("JACK.") leads the next block in some editions.
        if (!rest.trim()) {
          pendingSpeaker = label[1];
          paragraphs.push({ full: block, contentStart: block.length, kind: 'heading' });
          continue;
        }
        let contentStart = label[0].length;
        // Skip a stage direction that opens the speech: "[Gravely.] In a hand-bag."
        const direction = /^\[[^\]]{0,120}\]\s*/.exec(rest);
        if (direction) contentStart += direction[0].length;
        paragraphs.push({
          full: block,
          contentStart,
          speaker: titleCaseName(label[1]),
          kind: 'speech',
        });
        pendingSpeaker = undefined;
        continue;
      }
      if (pendingSpeaker && !isHeading(block)) {
        paragraphs.push({
          full: block,
          contentStart: 0,
          speaker: titleCaseName(pendingSpeaker),
          kind: 'speech',
        });
        pendingSpeaker = undefined;
        continue;
      }
    }
    paragraphs.push({ full: block, contentStart: 0, kind: isHeading(block) ? 'heading' : 'prose' });
  }

  const parts: string[] = [];
  const spans: PreparedText['spans'] = [];
  let offset = 0;
  paragraphs.forEach((p, index) => {
    if (p.kind !== 'prose' && p.kind !== 'speech') return;
    const content = p.full.slice(p.contentStart);
    if (!content.trim()) return;
    if (parts.length) offset += 2;
    spans.push({ paragraph: index, start: offset, end: offset + content.length });
    parts.push(content);
    offset += content.length;
  });

  return {
    paragraphs,
    body: parts.join('\n\n'),
    spans,
    isPlay,
    speakers: isPlay ? [...speakerSet].map(titleCaseName) : [],
  };
}

/** Words in a text (whitespace-separated runs with a letter or digit). */
export function countWords(text: string): number {
  let n = 0;
  for (const part of text.split(/\s+/)) if (/[\p{L}\p{N}]/u.test(part)) n += 1;
  return n;
}
