import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

/** A chapter excerpt of one of the 34 sample books (Project Gutenberg header and licence removed). */
export interface FixtureChapter {
  id: number;
  title: string;
  author: string;
  heading: string;
  text: string;
}

let cached: FixtureChapter[] | undefined;

/** The committed corpus (fixtures/chapters.json.gz, made by scripts/make-chapter-fixtures.mjs). */
export function loadChapters(): FixtureChapter[] {
  cached ??= JSON.parse(
    gunzipSync(
      readFileSync(path.join(import.meta.dirname, 'fixtures', 'chapters.json.gz')),
    ).toString('utf8'),
  ) as FixtureChapter[];
  return cached;
}

export function chapter(id: number): FixtureChapter {
  const found = loadChapters().find((c) => c.id === id);
  if (!found) throw new Error(`no fixture chapter for book ${id}`);
  return found;
}

/** About `words` words of real prose, from several chapters joined. */
export function longText(words: number): string {
  const parts: string[] = [];
  let total = 0;
  for (const c of loadChapters()) {
    if (total >= words) break;
    parts.push(c.text);
    total += c.text.split(/\s+/).length;
  }
  return parts
    .join('\n\n')
    .split(/(?<=\s)/)
    .slice(0, words)
    .join('')
    .trim();
}

/** A passage written for the generator's tests (fixtures/passages/NAME.txt). */
export function passage(name: string): string {
  return readFileSync(
    path.join(import.meta.dirname, 'fixtures', 'passages', `${name}.txt`),
    'utf8',
  );
}
