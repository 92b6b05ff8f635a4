/**
 * Cleaning of imported text before it joins a reference text: one kind of space and line end,
 * words split by a hyphen at a line end joined again, PDF and OCR lines flowed back into
 * paragraphs, and page furniture (running headers, page numbers) dropped where it is easy to
 * recognise. Then the text is capped at the reference-text limit.
 */

const LIGATURES: Record<string, string> = {
  '\uFB00': 'ff',
  '\uFB01': 'fi',
  '\uFB02': 'fl',
  '\uFB03': 'ffi',
  '\uFB04': 'ffl',
  '\uFB05': 'st',
  '\uFB06': 'st',
};

/** One kind of space and line end; no control, zero-width or soft-hyphen characters. */
export function normaliseCharacters(text: string): string {
  return (
    text
      .normalize('NFC')
      .replace(/\r\n?/g, '\n')
      .replace(/[\f\v\u2028\u2029]/g, '\n')
      .replace(/[\uFB00-\uFB06]/g, (ch) => LIGATURES[ch] ?? ch)
      // No-break, thin, en/em and other spaces become plain spaces.
      .replace(/[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/g, ' ')
      // Soft hyphens, zero-width characters, byte-order marks and other invisible controls go.
      .replace(/[\u00AD\u200B-\u200D\u2060\uFEFF]/g, '')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000E-\u001F\u007F]/g, '')
  );
}

/** Roman numerals 1-39, as front matter is numbered ("vii"); not words like "mix" or "did". */
const ROMAN = '(?=[xvi])x{0,3}(?:ix|iv|v?i{0,3})';
/** A page-number line: "7", "- 7 -", "Page 7", "Page 7 of 12", "7 / 12", "vii". */
const PAGE_NUMBER = new RegExp(
  `^(?:page\\s+)?[-–—(]?\\s*(?:\\d{1,4}|${ROMAN})\\s*[-–—)]?(?:\\s*(?:of|/)\\s*\\d{1,4})?$`,
  'i',
);

/**
 * Drops running headers and footers from a paged text: a line at the top or bottom of a page
 * that recurs (digits aside) on most pages, and page-number lines there.
 */
export function removePageFurniture(pages: string[][]): string[][] {
  const edge = 2;
  const key = (line: string) => line.trim().toLowerCase().replace(/\d+/g, '#');
  const seen = new Map<string, number>();
  for (const lines of pages) {
    const edges = new Set(
      [...lines.slice(0, edge), ...lines.slice(-edge)].map(key).filter((k) => k.length > 0),
    );
    for (const k of edges) seen.set(k, (seen.get(k) ?? 0) + 1);
  }
  const minimum = Math.max(2, Math.ceil(pages.length * 0.5));
  const repeated = (line: string) =>
    pages.length >= 2 && line.trim().length <= 120 && (seen.get(key(line)) ?? 0) >= minimum;
  return pages.map((lines) =>
    lines.filter((line, i) => {
      const atEdge = i < edge || i >= lines.length - edge;
      if (!atEdge) return true;
      return !(PAGE_NUMBER.test(line.trim()) || repeated(line));
    }),
  );
}

/**
 * Joins words broken with a hyphen at a line end: "photo-\nsynthesis" → "photosynthesis". OCR
 * sometimes sees a paragraph break there, so one empty line between the halves is allowed.
 */
export function joinHyphenatedLines(text: string): string {
  return text.replace(/(\p{L})[-\u2010]\n[ \t]*(?:\n[ \t]*)?(\p{Ll})/gu, '$1$2');
}

const BULLET = /^[\s]*[•●▪◦‣∙·■□➢➤►▸*–]\s+/;

/**
 * Flows lines broken by a page's width back into paragraphs (PDF and OCR text): a line joins
 * the next when the next starts in lower case, or when it ends in a comma. A sentence cut by a
 * page break, or by a paragraph break the OCR imagined, is joined across one empty line too.
 */
export function reflowLines(text: string): string {
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(BULLET, '- ');
    const startsLower = /^\s*\p{Ll}/u.test(line) && !line.startsWith('- ');
    const last = out.length - 1;
    const previous = out[last];
    if (previous !== undefined && previous.trim() !== '' && line.trim() !== '') {
      if (startsLower || /,$/.test(previous.trimEnd())) {
        out[last] = `${previous.trimEnd()} ${line.trim()}`;
        continue;
      }
    } else if (
      startsLower &&
      previous !== undefined &&
      previous.trim() === '' &&
      last > 0 &&
      out[last - 1]!.trim() !== '' &&
      !/[.!?:;)\]"”’]$/.test(out[last - 1]!.trimEnd())
    ) {
      out.pop();
      out[last - 1] = `${out[last - 1]!.trimEnd()} ${line.trim()}`;
      continue;
    }
    out.push(line);
  }
  return out.join('\n');
}

/** Spaces: single inside lines, none at either end; at most one empty line in a row. */
export function tidyWhitespace(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export interface CleanOptions {
  /** Page by page lines (PDF), for removing running headers and page numbers. */
  pages?: string[][];
  /** Flow lines back into paragraphs (PDF and OCR text wraps at the page's width). */
  reflow?: boolean;
}

/** The full cleaning used for every imported file. */
export function cleanImportedText(text: string, options: CleanOptions = {}): string {
  let body = text;
  if (options.pages && options.pages.length > 0) {
    body = removePageFurniture(options.pages.map((lines) => lines.map(normaliseCharacters)))
      .map((lines) => lines.join('\n'))
      .join('\n\n');
  }
  body = normaliseCharacters(body);
  body = joinHyphenatedLines(body);
  if (options.reflow) body = reflowLines(body);
  return tidyWhitespace(body);
}

/**
 * Cuts text to at most `max` characters, at the last paragraph or sentence end in the final
 * stretch when there is one, never inside a surrogate pair.
 */
export function capText(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  let cut = text.slice(0, max);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  const window = Math.min(2000, Math.floor(max / 10));
  const paragraph = cut.lastIndexOf('\n\n');
  const sentence = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('.\n'));
  if (paragraph >= cut.length - window) cut = cut.slice(0, paragraph);
  else if (sentence >= cut.length - window) cut = cut.slice(0, sentence + 1);
  return { text: cut.trimEnd(), truncated: true };
}
