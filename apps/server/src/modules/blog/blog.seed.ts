import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { BlogPostInputSchema, type BlogPostInputParsed } from '@chapterwise/shared';
import type { Seeder } from '../../db/seed.js';
import { AppError } from '../../lib/errors.js';
import { listSeededFiles, markSeeded } from './blog.repository.js';
import { BlogService } from './blog.service.js';
import { renderSampleAuthorPicture, renderSampleThumbnail } from './blog.thumbnails.js';

/** The sample posts kept in the repository: one Markdown file with front matter each. */
export const BLOG_SEED_DIR = path.resolve(
  path.dirname(new URL(import.meta.url).pathname),
  '../../../seed-data/blog',
);

/** Who the sample posts are by (front matter may name someone else). */
export const SAMPLE_AUTHOR = {
  authorFirstName: 'Chapterwise',
  authorLastName: 'Team',
  authorBio:
    'We build Chapterwise, a free catalogue of public-domain books with a page per chapter and a generator of quizzes, lessons and worksheets whose answer keys are checked against the text. We write here about teaching classic books and about getting the most out of the tools.',
};
const AUTHOR_PICTURE_KEY = 'blog/authors/chapterwise-team.webp';

type FrontMatterValue = string | number | boolean | string[];

/**
 * Reads `---`-fenced front matter: one `key: value` a line, where a value is a string (quotes
 * optional), a number, true/false, or a `[list, "of, strings"]`. Enough for post metadata,
 * without a YAML dependency.
 */
export function parseFrontMatter(text: string): {
  data: Record<string, FrontMatterValue>;
  body: string;
} {
  const normalised = text.replace(/\r\n?/g, '\n');
  const match = /^---\n([\s\S]*?)\n---\n/.exec(normalised);
  if (!match) throw new Error('no front matter (the file must start with a --- block)');
  const data: Record<string, FrontMatterValue> = {};
  for (const line of match[1]!.split('\n')) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    const entry = /^([A-Za-z]\w*):\s*(.*)$/.exec(line);
    if (!entry) throw new Error(`cannot read the front matter line "${line}"`);
    data[entry[1]!] = parseValue(entry[2]!.trim());
  }
  return { data, body: normalised.slice(match[0].length).trim() + '\n' };
}

function parseValue(raw: string): FrontMatterValue {
  if (raw.startsWith('[') && raw.endsWith(']')) {
    const items: string[] = [];
    const inner = raw.slice(1, -1);
    for (const m of inner.matchAll(/\s*("([^"]*)"|'([^']*)'|[^,]+)\s*(,|$)/g)) {
      const value = (m[2] ?? m[3] ?? m[1] ?? '').trim();
      if (value) items.push(value);
    }
    return items;
  }
  if (raw === 'true' || raw === 'false') return raw === 'true';
  if (/^-?\d+$/.test(raw)) return Number(raw);
  const quoted = /^"(.*)"$|^'(.*)'$/.exec(raw);
  return quoted ? (quoted[1] ?? quoted[2] ?? '') : raw;
}

export interface SamplePost {
  file: string;
  input: BlogPostInputParsed;
  thumbnail: { colour: string; cover?: number | undefined };
}

/** The sample files, in name order. */
export function listSampleFiles(dir = BLOG_SEED_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md') && f !== 'README.md')
    .sort();
}

/**
 * One sample post, checked by the same schema as the editor: a file that would not pass
 * the API does not load either.
 */
export function readSamplePost(file: string, dir = BLOG_SEED_DIR): SamplePost {
  const { data, body } = parseFrontMatter(readFileSync(path.join(dir, file), 'utf8'));
  const { cover, colour, ...fields } = data;
  const parsed = BlogPostInputSchema.safeParse({
    ...SAMPLE_AUTHOR,
    ...fields,
    markdown: body,
    status: 'published',
  });
  if (!parsed.success) {
    throw new Error(
      `${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  return {
    file,
    input: parsed.data,
    thumbnail: {
      colour: typeof colour === 'string' ? colour : '#0f766e',
      cover: typeof cover === 'number' ? cover : undefined,
    },
  };
}

/**
 * First start: loads the sample posts in seed-data/blog through the editor's own save path
 * (the Markdown is rendered and sanitised; the generated thumbnails are re-encoded and
 * stored like uploads). Each file loads once ever: a sample post an editor deletes stays
 * deleted, and a file added in a later release loads on the next start.
 */
export const blogSeeder: Seeder = {
  name: 'blog',
  async run(database, log, { storage, publicUrl }) {
    const db = database.db;
    const seeded = await listSeededFiles(db);
    const todo = listSampleFiles().filter((file) => !seeded.has(file));
    if (todo.length === 0) return;
    log.info({ posts: todo.length }, 'loading the sample blog posts');
    const service = new BlogService({ db, storage, publicUrl, log });
    const picture = await renderSampleAuthorPicture();
    await storage.put(AUTHOR_PICTURE_KEY, await sharp(picture).webp({ quality: 85 }).toBuffer(), {
      contentType: 'image/webp',
    });
    const authorPicture = storage.publicUrl(AUTHOR_PICTURE_KEY);
    for (const file of todo) {
      const sample = readSamplePost(file);
      const thumbnail = await renderSampleThumbnail({
        title: sample.input.title,
        kicker: sample.input.categories[0] ?? 'Chapterwise',
        colour: sample.thumbnail.colour,
        cover: sample.thumbnail.cover,
      });
      try {
        await service.create(
          {
            ...sample.input,
            authorProfilePicture: sample.input.authorProfilePicture || authorPicture,
            thumbnailImage: `data:image/png;base64,${thumbnail.toString('base64')}`,
          },
          null,
          { datedAtPublish: true },
        );
      } catch (error) {
        // An editor already wrote a post at this address: theirs stays.
        if (!(error instanceof AppError && error.code === 'CONFLICT')) throw error;
        log.warn({ file, url: sample.input.url }, 'a post already uses this sample address');
      }
      await markSeeded(db, file);
    }
    log.info({ posts: todo.length }, 'sample blog posts loaded');
  },
};
