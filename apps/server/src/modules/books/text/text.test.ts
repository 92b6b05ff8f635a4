import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BOOKS_SEED_DIR } from '../books.seed.js';
import { evaluateChapters } from './chapter-eval.js';
import { countWords, PART_WORDS, splitChapters, titleCase } from './chapters.js';
import { normalizeText, stripGutenbergText } from './gutenberg-text.js';
import { countSyllables, fleschKincaidGrade, measureText, readingMinutes } from './readability.js';

/** The raw PG files as the repository keeps them (gzipped, exactly as PG distributes them). */
function raw(id: number): string {
  return gunzipSync(readFileSync(path.join(BOOKS_SEED_DIR, 'texts', `pg${id}.txt.gz`))).toString(
    'utf8',
  );
}

/**
 * Expected chapters of every sample text, counted by hand in the text: the headings were
 * listed with grep (e.g. `grep -n -E '^\s*CHAPTER' pg11.txt`), the contents list at the
 * start of the book was set aside (it repeats the headings), and each count was checked
 * against the book's own contents list. "+ Preface" etc. are front or back matter with their
 * own heading and real text, which become parts of their own; title pages, contents,
 * dedications and epigraphs are left out.
 */
const EXPECTED: Array<{ id: number; chapters: number; first: string; last: string; how: string }> =
  [
    {
      id: 11,
      chapters: 12,
      first: 'Chapter I: Down the Rabbit-Hole',
      last: 'Chapter XII: Alice’s Evidence',
      how: '12 CHAPTER headings after the contents list',
    },
    {
      id: 16,
      chapters: 17,
      first: 'Chapter I: Peter Breaks Through',
      last: 'Chapter XVII: When Wendy Grew Up',
      how: '34 "Chapter" lines = 17 in the contents + 17 in the text',
    },
    {
      id: 23,
      chapters: 13,
      first: 'Preface',
      last: 'Appendix',
      how: 'Preface (Garrison, with the Phillips letter) + CHAPTER I–XI + Appendix',
    },
    {
      id: 33,
      chapters: 25,
      first: 'Introductory to "the Scarlet Letter"',
      last: 'Chapter XXIV: Conclusion',
      how: 'The Custom-House introduction + 24 chapters (the contents lines "I. THE PRISON DOOR" are skipped)',
    },
    {
      id: 35,
      chapters: 17,
      first: 'Chapter I: Introduction',
      last: 'Epilogue',
      how: '16 bare roman numeral lines I–XVI, each followed by a title line, + Epilogue',
    },
    {
      id: 43,
      chapters: 10,
      first: 'Story of the Door',
      last: 'Henry Jekyll’s Full Statement of the Case',
      how: '10 unnumbered ALL-CAPS titles (the book title and the “HENRY JEKYLL.” signature are not chapters)',
    },
    {
      id: 45,
      chapters: 38,
      first: 'Chapter I: Mrs. Rachel Lynde is Surprised',
      last: 'Chapter XXXVIII: The Bend in the road',
      how: '76 CHAPTER lines = 38 contents + 38 headings',
    },
    {
      id: 46,
      chapters: 5,
      first: "Stave I: Marley's Ghost",
      last: 'Stave V: The End of It',
      how: '5 STAVE headings; the one-paragraph preface is too short to be a part',
    },
    {
      id: 55,
      chapters: 25,
      first: 'Introduction',
      last: 'Chapter 24: Home Again',
      how: 'Introduction + 24 "N.  Title" headings',
    },
    {
      id: 74,
      chapters: 37,
      first: 'Preface',
      last: 'Conclusion',
      how: 'Preface + 35 chapters (the text misprints XXVI as "CHAPTER XVI"; the splitter renumbers it) + Conclusion',
    },
    {
      id: 76,
      chapters: 43,
      first: 'Chapter I',
      last: 'Chapter The Last',
      how: 'CHAPTER I–XLII + "CHAPTER THE LAST"; the contents entries carry long descriptions and are skipped',
    },
    {
      id: 84,
      chapters: 28,
      first: 'Letter 1',
      last: 'Chapter 24',
      how: 'Letter 1–4 + Chapter 1–24 (48 + 8 lines with the contents)',
    },
    {
      id: 98,
      chapters: 45,
      first: 'Book the First, Chapter I: The Period',
      last: 'Book the Third, Chapter XV: The Footsteps Die Out For Ever',
      how: '6 + 24 + 15 chapters in three books whose numbering restarts',
    },
    {
      id: 113,
      chapters: 27,
      first: 'Chapter I: There Is No One Left',
      last: 'Chapter XXVII: In the Garden',
      how: '27 CHAPTER headings, each with a title line',
    },
    {
      id: 120,
      chapters: 34,
      first: 'Chapter 1: The Old Sea-dog at the Admiral Benbow',
      last: 'Chapter 34: And Last',
      how: '34 bare numbers 1–34, each followed by a title line (six PART headings group them)',
    },
    {
      id: 174,
      chapters: 21,
      first: 'The Preface',
      last: 'Chapter 20',
      how: 'The Preface + CHAPTER 1–20',
    },
    {
      id: 215,
      chapters: 7,
      first: 'Chapter I: Into the Primitive',
      last: 'Chapter VII: The Sounding of the Call',
      how: '7 chapters',
    },
    {
      id: 345,
      chapters: 27,
      first: 'Chapter I: Jonathan Harker’s Journal',
      last: 'Chapter XXVII: Mina Harker’s Journal',
      how: '54 CHAPTER lines = 27 contents + 27 headings',
    },
    {
      id: 514,
      chapters: 47,
      first: 'Chapter One: Playing Pilgrims',
      last: 'Chapter Forty-Seven: Harvest Time',
      how: 'CHAPTER ONE … CHAPTER FORTY-SEVEN, numbers written as words',
    },
    {
      id: 844,
      chapters: 3,
      first: 'First Act',
      last: 'Third Act',
      how: 'FIRST ACT, SECOND ACT, THIRD ACT (the contents lines "ACT I. …" are skipped)',
    },
    {
      id: 1260,
      chapters: 39,
      first: 'Preface',
      last: 'Chapter XXXVIII: Conclusion',
      how: 'Preface + CHAPTER I–XXXVIII',
    },
    {
      id: 1342,
      chapters: 62,
      first: 'Preface',
      last: 'Chapter LXI',
      how: 'Saintsbury preface + 61 chapters; chapter I sits in "[Illustration: … Chapter I.]"',
    },
    {
      id: 1400,
      chapters: 59,
      first: 'Chapter I',
      last: 'Chapter LIX',
      how: '118 "Chapter" lines = 59 contents + 59 headings',
    },
    {
      id: 1513,
      chapters: 26,
      first: 'Prologue',
      last: 'Act V, Scene III: A churchyard; in it a Monument belonging to the Capulets',
      how: 'Prologue + Act II chorus + 24 scenes (5+6+5+5+3)',
    },
    {
      id: 1524,
      chapters: 20,
      first: 'Act I, Scene I: Elsinore. A platform before the Castle',
      last: 'Act V, Scene II: A hall in the Castle',
      how: '20 scenes (5+2+4+7+2); the contents acts are skipped',
    },
    {
      id: 1533,
      chapters: 26,
      first: 'Act I, Scene I: An open Place. Thunder and Lightning',
      last: 'Act V, Scene VIII: The same. Another part of the field',
      how: '26 SCENE headings (7+2+6+3+8 in this 1990s edition)',
    },
    {
      id: 1661,
      chapters: 12,
      first: 'Adventure I: A Scandal in Bohemia',
      last: 'Adventure XII: The Adventure of the Copper Beeches',
      how: 'ADVENTURE I–VI, then "VII. THE ADVENTURE OF …" to XII',
    },
    {
      id: 1727,
      chapters: 26,
      first: 'Preface to First Edition',
      last: 'Book XXIV',
      how: 'two prefaces + Book I–XXIV',
    },
    {
      id: 1952,
      chapters: 2,
      first: 'Part 1',
      last: 'Part 2',
      how: 'no headings, 6,100 words: two parts of about 3,000 words',
    },
    { id: 2542, chapters: 3, first: 'Act I', last: 'Act III', how: 'ACT I–III' },
    {
      id: 2701,
      chapters: 136,
      first: 'Chapter 1: Loomings',
      last: 'Epilogue',
      how: 'CHAPTER 1–135 + Epilogue; "BOOK I. (Folio), CHAPTER I." inside Cetology is not a chapter',
    },
    {
      id: 5200,
      chapters: 3,
      first: 'Chapter I',
      last: 'Chapter III',
      how: 'bare roman numerals I–III',
    },
    {
      id: 20203,
      chapters: 21,
      first: 'Introduction',
      last: 'Appendix',
      how: 'Introduction + 19 bare roman numerals + Appendix',
    },
    {
      id: 64317,
      chapters: 9,
      first: 'Chapter I',
      last: 'Chapter IX',
      how: 'bare roman numerals I–IX (the contents list I–IX is skipped)',
    },
  ];

const TITLES: Record<number, string> = { 1952: 'The Yellow Wallpaper' };

describe('stripGutenbergText', () => {
  it.each(EXPECTED.map((e) => e.id))(
    'removes every Project Gutenberg reference from pg%i',
    (id) => {
      const body = stripGutenbergText(raw(id));
      expect(body).not.toMatch(/Project Gutenberg/i);
      expect(body).not.toMatch(/\*\*\* ?(START|END) OF/);
      expect(body).not.toMatch(/SMALL PRINT/);
      expect(body).not.toContain('\r');
      expect(body.charCodeAt(0)).not.toBe(0xfeff);
      expect(countWords(body)).toBeGreaterThan(5000);
    },
  );

  it('removes the old 1990s Etext header, which has no START marker (Macbeth)', () => {
    const text = raw(1533);
    expect(text).not.toMatch(/\*\*\* ?START OF/);
    const body = stripGutenbergText(text);
    expect(body.startsWith('MACBETH')).toBe(true);
    expect(body.trimEnd().endsWith('[Flourish. Exeunt.]')).toBe(true);
  });

  it('handles a START marker that wraps onto a second line (Jekyll and Hyde)', () => {
    const body = stripGutenbergText(raw(43));
    expect(body.startsWith('THE STRANGE CASE OF DR. JEKYLL AND MR. HYDE')).toBe(true);
  });

  it('removes the byte-order mark and CRLF line endings', () => {
    const text =
      '\uFEFFThe Project Gutenberg EBook of X\r\n*** START OF THIS PROJECT GUTENBERG EBOOK X ***\r\nBody line\r\n\r\n*** END OF THIS PROJECT GUTENBERG EBOOK X ***\r\nlicence';
    expect(stripGutenbergText(text)).toBe('Body line\n');
    expect(normalizeText('a\r\nb\rc  \n')).toBe('a\nb\nc\n');
  });

  it('gives the same text as PG’s own header-free copies (compared without whitespace)', () => {
    // texts_noheader/1342.txt and 84.txt (PG's GitHub copies) begin and end where ours do.
    const body = stripGutenbergText(raw(1342)).replace(/\s+/g, ' ').trim();
    expect(body.startsWith('[Illustration: GEORGE ALLEN PUBLISHER')).toBe(true);
    expect(body.endsWith('TOOKS COURT, CHANCERY LANE, LONDON.')).toBe(true);
    const frankenstein = stripGutenbergText(raw(84)).replace(/\s+/g, ' ').trim();
    expect(frankenstein.startsWith('Frankenstein; or, the Modern Prometheus by Mary')).toBe(true);
    expect(frankenstein.endsWith('lost in darkness and distance.')).toBe(true);
  });
});

describe('splitChapters on the 34 sample texts', () => {
  it.each(EXPECTED)('pg$id: $chapters parts ($how)', ({ id, chapters, first, last }) => {
    const parts = splitChapters(stripGutenbergText(raw(id)), TITLES[id] ?? 'Full text');
    expect(parts.map((p) => p.title).length).toBe(chapters);
    expect(parts[0]!.title).toBe(first);
    expect(parts.at(-1)!.title).toBe(last);
    // Titles and urls are unique within the book; urls follow the slug rule.
    expect(new Set(parts.map((p) => p.title)).size).toBe(parts.length);
    expect(new Set(parts.map((p) => p.url)).size).toBe(parts.length);
    for (const p of parts) {
      expect(p.url).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(countWords(p.text)).toBeGreaterThan(40);
    }
    parts.forEach((p, i) => expect(p.index).toBe(i));
  });

  it('leaves out the title page and the contents list', () => {
    const parts = splitChapters(stripGutenbergText(raw(11)));
    expect(parts[0]!.text.startsWith('Alice was beginning to get very tired')).toBe(true);
    expect(parts.map((p) => p.text).join('\n')).not.toContain('THE MILLENNIUM FULCRUM EDITION');
  });

  it('does not take the Cetology chapter’s “BOOK I. (Folio), CHAPTER I.” for chapters', () => {
    const parts = splitChapters(stripGutenbergText(raw(2701)));
    const cetology = parts.find((p) => p.title === 'Chapter 32: Cetology');
    expect(cetology?.text).toContain('BOOK I. (_Folio_), CHAPTER I. (_Sperm Whale_)');
    expect(parts.filter((p) => /\(_?Folio/.test(p.title))).toEqual([]);
  });

  it('names play scenes with their act', () => {
    const titles = splitChapters(stripGutenbergText(raw(1513))).map((p) => p.title);
    expect(titles).toContain('Act II, Prologue');
    expect(titles).toContain('Act II, Scene II: Capulet’s Garden');
  });

  it('cuts a long text with no structure into parts of 2,000–4,000 words at paragraph breaks', () => {
    const paragraph = (i: number) =>
      `Paragraph ${i} goes on about the weather and the road, the people met and the things said, ` +
      'and it ends where the next one begins, as paragraphs do in a long and patient story.';
    const body = Array.from({ length: 700 }, (_, i) => paragraph(i)).join('\n\n');
    const parts = splitChapters(body, 'Plain');
    expect(parts.map((p) => p.title)).toEqual(parts.map((_, i) => `Part ${i + 1}`));
    expect(parts.length).toBe(Math.round(countWords(body) / PART_WORDS));
    for (const part of parts) {
      expect(countWords(part.text)).toBeGreaterThanOrEqual(2000);
      expect(countWords(part.text)).toBeLessThanOrEqual(4000);
      expect(part.text).toMatch(/^Paragraph \d+ goes/);
      expect(part.text).toMatch(/story\.$/);
    }
    expect(parts.map((p) => p.text).join('\n\n')).toBe(body);
  });

  it('cuts a story of 5,000 words with no headings into two parts, at a scene break', () => {
    const paragraph = (i: number) =>
      `She wrote in the evening ${i} of the house and the garden, of the paper on the wall ` +
      'and the light on the floor, and of the things that John said when he came in late.';
    const paragraphs = Array.from({ length: 140 }, (_, i) => paragraph(i));
    // A scene break a little after the middle: the cut is made there, not at the middle.
    paragraphs.splice(76, 0, '* * *');
    const body = paragraphs.join('\n\n');
    const parts = splitChapters(body, 'Story');
    expect(parts.map((p) => p.title)).toEqual(['Part 1', 'Part 2']);
    expect(parts[0]!.text.endsWith(paragraph(75))).toBe(true);
    expect(parts[1]!.text.startsWith(paragraph(76))).toBe(true);
    expect(parts.map((p) => p.text).join('\n')).not.toContain('* * *');
  });

  it('cuts a long text whose paragraphs have no blank lines between them', () => {
    // Paragraphs marked only by indentation: one block of 30,000 words for the blank-line rule.
    const lines: string[] = [];
    for (let i = 0; i < 1500; i++) {
      lines.push(`    Line ${i} starts a paragraph about the river and the boats that came`);
      lines.push('down it in the spring, with wood and grain and news from the towns.');
    }
    const parts = splitChapters(lines.join('\n'), 'Unbroken');
    expect(parts.length).toBe(Math.round(countWords(lines.join(' ')) / PART_WORDS));
    for (const part of parts) {
      expect(countWords(part.text)).toBeGreaterThanOrEqual(2000);
      expect(countWords(part.text)).toBeLessThanOrEqual(4000);
      expect(part.text).toMatch(/^Line \d+ starts/);
    }
  });

  it('cuts a “chapter” the size of a volume into parts named after it', () => {
    const paragraph =
      'A long paragraph of the one long book that has only two parts in it. '.repeat(4);
    const volume = (n: string) =>
      [`BOOK ${n}`, ...Array.from({ length: 1000 }, () => paragraph.trim())].join('\n\n');
    const parts = splitChapters([volume('I'), volume('II')].join('\n\n\n\n'), 'Two');
    expect(parts.length).toBeGreaterThan(20);
    expect(parts[0]!.title).toBe('Book I, part 1');
    expect(parts.at(-1)!.title).toMatch(/^Book II, part \d+$/);
    for (const part of parts) expect(countWords(part.text)).toBeLessThanOrEqual(4000);
  });

  it('keeps a short text on one page even when it has headings', () => {
    const body = ['I', 'A short poem of some lines.', 'II', 'Another short stanza here.'].join(
      '\n\n',
    );
    expect(splitChapters(body, 'Short').map((p) => p.title)).toEqual(['Short']);
  });

  it('makes one part of a text with no headings, and nothing of an empty one', () => {
    expect(splitChapters('Just a short paragraph of text.', 'Tiny')).toEqual([
      { index: 0, title: 'Tiny', url: 'tiny', text: 'Just a short paragraph of text.' },
    ]);
    expect(splitChapters('   \n\n  ')).toEqual([]);
  });
});

describe('splitChapters on texts it was not written against (test-data/chapter-eval)', () => {
  const results = evaluateChapters();

  it('holds at least 30 hand-counted texts of every kind', () => {
    expect(results.length).toBeGreaterThanOrEqual(30);
    const kinds = new Set(results.map((r) => r.kind));
    for (const kind of ['novel', 'letters', 'play', 'poetry', 'non-fiction', 'essays', 'stories'])
      expect(kinds).toContain(kind);
  });

  it('agrees with the hand counts on most texts and is close on nearly all', () => {
    // `npm run books:chapters-eval` prints which texts disagree and how.
    const exact = results.filter((r) => r.countOk).length;
    const close = results.filter(
      (r) => Math.abs(r.got - r.chapters) <= Math.max(1, r.chapters * 0.1),
    ).length;
    expect(exact / results.length).toBeGreaterThanOrEqual(0.75);
    expect(close / results.length).toBeGreaterThanOrEqual(0.9);
    expect(results.filter((r) => r.firstOk).length / results.length).toBeGreaterThanOrEqual(0.85);
  });

  it('never serves a whole book on one page', () => {
    for (const r of results) {
      expect(r.largestPartWords, `pg${r.id}`).toBeLessThan(25_000);
    }
  });
});

describe('titles and readability', () => {
  it('title-cases ALL-CAPS titles and leaves mixed case alone', () => {
    expect(titleCase("MARLEY'S GHOST")).toBe("Marley's Ghost");
    expect(titleCase('THE FIRST OF THE THREE SPIRITS')).toBe('The First of the Three Spirits');
    expect(titleCase('Down the Rabbit-Hole')).toBe('Down the Rabbit-Hole');
  });

  it('counts syllables close to a dictionary', () => {
    expect(
      ['cat', 'table', 'happy', 'education', 'walked', 'wanted', 'simple'].map(countSyllables),
    ).toEqual([1, 2, 2, 4, 1, 2, 2]);
  });

  it('gives easy prose a low grade and dense prose a high one', () => {
    const easy = fleschKincaidGrade(
      measureText('The cat sat on the mat. It was a big cat. It ran.'),
    );
    const hard = fleschKincaidGrade(
      measureText(
        'Notwithstanding the considerable administrative complications, the municipal authorities deliberately postponed the implementation of comprehensive educational regulations indefinitely.',
      ),
    );
    expect(easy).toBeLessThan(2);
    expect(hard).toBeGreaterThan(14);
    expect(fleschKincaidGrade(measureText(''))).toBe(0);
  });

  it('grades Alice below Pride and Prejudice', () => {
    const grade = (id: number) => fleschKincaidGrade(measureText(stripGutenbergText(raw(id))));
    expect(grade(11)).toBeLessThan(grade(1342));
  });

  it('reads 200 words a minute, at least a minute', () => {
    expect(readingMinutes(0)).toBe(0);
    expect(readingMinutes(50)).toBe(1);
    expect(readingMinutes(2000)).toBe(10);
  });
});

describe('word scanning (the regular expressions it replaces, faster)', () => {
  const WORDS = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;
  const LETTER_WORDS = /[\p{L}]+(?:['’][\p{L}]+)*/gu;
  /** Syllables and words by the regular expressions, as measureText counted them before. */
  const byRegex = (text: string) => ({
    words: text.match(WORDS)?.length ?? 0,
    syllables: (text.match(LETTER_WORDS) ?? []).reduce((n, w) => n + countSyllables(w), 0),
  });
  const byScan = (text: string) => ({
    words: countWords(text),
    syllables: measureText(text).syllableCount,
  });

  it('finds the same words and syllables in every paragraph of real texts', () => {
    for (const id of [11, 84, 1342, 2701]) {
      for (const paragraph of raw(id).split(/\n\s*\n/)) {
        expect(byScan(paragraph), paragraph.slice(0, 60)).toEqual(byRegex(paragraph));
      }
    }
  });

  it('gives each word the syllables countSyllables gives it', () => {
    const words = new Set(raw(1342).match(LETTER_WORDS));
    for (const word of words)
      expect(measureText(word).syllableCount, word).toBe(countSyllables(word));
  });

  it('agrees on random strings of joiners, accents, digits and astral letters', () => {
    const pieces = ['a', 'B', 'zy', 'é', 'Ω', '7', "'", '’', '-', ' ', '\n', '.', 'É', '𝒜', 'ß'];
    pieces.push('\u0301', '²', '٣', '\ud800', 'es', 'ed', 'Y', 'x');
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let i = 0; i < 20_000; i++) {
      let text = '';
      const length = Math.floor(next() * 16);
      for (let j = 0; j < length; j++) text += pieces[Math.floor(next() * pieces.length)];
      expect(byScan(text), JSON.stringify(text)).toEqual(byRegex(text));
    }
  });
});
