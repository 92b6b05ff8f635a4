/**
 * Removes everything Project Gutenberg adds around a book: the byte-order mark, CRLF line
 * endings, the header (up to and including the `*** START OF … ***` marker, or the 1990s
 * "SMALL PRINT!" block of old Etexts that have no START marker), the producer credits at the
 * top of the body, and the footer from `*** END OF …` or "End of (the) Project Gutenberg …"
 * onwards. PG's licence allows reuse of the public-domain text once its references to
 * Project Gutenberg are gone, so what this returns is what the product may republish.
 */
export function stripGutenbergText(raw: string): string {
  let text = normalizeText(raw);

  const start = START_MARKER.exec(text);
  if (start) {
    text = text.slice(start.index + start[0].length);
  } else {
    const smallPrintEnd = SMALL_PRINT_END.exec(text);
    if (smallPrintEnd) text = text.slice(smallPrintEnd.index + smallPrintEnd[0].length);
  }

  const end = firstMatch(text, END_MARKERS);
  if (end !== -1) text = text.slice(0, end);

  return dropCredits(text).replace(/^\n+/, '').replace(/\s+$/, '') + '\n';
}

/** BOM off, every line ending a plain LF, no trailing spaces, no control characters. */
export function normalizeText(raw: string): string {
  return (
    raw
      .replace(/^\uFEFF/, '')
      .replace(/\r\n?/g, '\n')
      // Control characters (form feeds and the like) other than tab and newline.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '')
      .replace(/[ \t]+$/gm, '')
  );
}

// The marker may wrap onto a second line (The Strange Case of Dr Jekyll and Mr Hyde does).
const START_MARKER =
  /^\*{3}\s*START OF (?:THE|THIS) PROJECT GUTENBERG E(?:BOOK|TEXT)[^*]*\*{3}[^\n]*$/im;
const SMALL_PRINT_END = /^\*END\*\s*THE SMALL PRINT![^\n]*$/im;
const END_MARKERS = [
  /^\*{3}\s*END OF (?:THE|THIS) PROJECT GUTENBERG E(?:BOOK|TEXT)/im,
  /^End of (?:the )?Project Gutenberg/im,
  /^End of Project Gutenberg's/im,
  /^\*{3}\s*START: FULL LICENSE/im,
];

function firstMatch(text: string, patterns: RegExp[]): number {
  let at = -1;
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (match && (at === -1 || match.index < at)) at = match.index;
  }
  return at;
}

/**
 * Producer credits ("Produced by …", "E-text prepared by …") sit in the first paragraphs of
 * the body and often name Project Gutenberg or its proofreaders: they are not the book.
 */
function dropCredits(text: string): string {
  const paragraphs = text.split(/\n{2,}/);
  const limit = Math.min(paragraphs.length, 12);
  const kept: string[] = [];
  for (let i = 0; i < paragraphs.length; i++) {
    const paragraph = paragraphs[i]!;
    if (i < limit && CREDIT.test(paragraph.trim())) continue;
    // A transcriber's note anywhere that names Project Gutenberg goes too (the licence asks
    // for every reference to be removed before republishing).
    if (/\bProject Gutenberg\b/i.test(paragraph)) continue;
    kept.push(paragraph);
  }
  return kept.join('\n\n');
}

const CREDIT =
  /^(?:\[?(?:Produced|Prepared|Transcribed|Scanned|Proofread|Updated|Edited)\b[^\n]*\bby\b|\[?E-?text (?:prepared|produced|scanned)|This (?:e-?text|e-?book) was (?:prepared|produced)|[^\n]*\bProject Gutenberg\b|[^\n]*\bgutenberg\.(?:org|net)\b|[^\n]*\bpgdp\.net\b)/i;
