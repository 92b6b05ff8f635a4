import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';
import { formatAuthorName } from '@chapterwise/shared';
import { GENERATED_COVER_VERSION } from './books.presenter.js';

/**
 * The font of generated covers, shipped in the repository (Liberation Serif Bold, SIL OFL
 * 1.1; see assets/fonts/LICENSE.txt). sharp renders text through Pango and fontconfig, and
 * a fresh machine or CI may have no fonts at all: giving Pango this file directly makes the
 * covers legible everywhere.
 */
export const COVER_FONT_FILE = path.resolve(
  path.dirname(new URL(import.meta.url).pathname),
  '../../../assets/fonts/LiberationSerif-Bold.ttf',
);
const COVER_FONT_FAMILY = 'Liberation Serif';

export const COVER_WIDTH = 400;
export const COVER_HEIGHT = 600;

/** Background colours, one per subject (picked by a hash of the subject's name). */
const PALETTE = [
  '#1f4e79',
  '#7b2d26',
  '#2e5e4e',
  '#5b3a7a',
  '#8a5a00',
  '#374151',
  '#0f5c6e',
  '#6d2f4f',
  '#3f5f1f',
  '#4a4e8f',
  '#7a3e12',
  '#14532d',
];

export function subjectColour(subject: string): string {
  const hash = createHash('sha1').update(subject).digest();
  return PALETTE[hash[0]! % PALETTE.length]!;
}

export interface CoverInput {
  id: number;
  title: string;
  author: string | undefined;
  subject: string;
}

/**
 * A typographic cover (title, author, a colour for the subject) for a book with no
 * public-domain cover. Made once per book and look, then read from DATA_DIR/covers.
 */
export async function generatedCover(dataDir: string, input: CoverInput): Promise<Buffer> {
  const key = createHash('sha1')
    .update(`${GENERATED_COVER_VERSION}|${input.title}|${input.author ?? ''}|${input.subject}`)
    .digest('hex')
    .slice(0, 12);
  const dir = path.join(dataDir, 'covers');
  const file = path.join(dir, `${input.id}-${key}.jpg`);
  if (existsSync(file)) return readFileSync(file);
  const jpeg = await renderCover(input);
  mkdirSync(dir, { recursive: true });
  // Write then rename: a reader never sees half a file.
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, jpeg);
  renameSync(temporary, file);
  return jpeg;
}

export async function renderCover(input: CoverInput): Promise<Buffer> {
  const colour = subjectColour(input.subject);
  const background = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${COVER_WIDTH}" height="${COVER_HEIGHT}">
      <rect width="100%" height="100%" fill="${colour}"/>
      <rect x="18" y="18" width="${COVER_WIDTH - 36}" height="${COVER_HEIGHT - 36}" fill="none" stroke="#ffffff" stroke-opacity="0.55" stroke-width="2"/>
      <rect x="26" y="26" width="${COVER_WIDTH - 52}" height="${COVER_HEIGHT - 52}" fill="none" stroke="#ffffff" stroke-opacity="0.3" stroke-width="1"/>
      <line x1="150" y1="372" x2="250" y2="372" stroke="#ffffff" stroke-opacity="0.7" stroke-width="2"/>
    </svg>`,
  );
  const title = shorten(input.title, 90);
  const titleSize = title.length > 60 ? 26 : title.length > 30 ? 32 : 40;
  const layers: OverlayOptions[] = [];
  const titleImage = await textImage(title, titleSize, 320);
  const titleMeta = await sharp(titleImage).metadata();
  layers.push({
    input: titleImage,
    top: Math.max(48, 350 - (titleMeta.height ?? 0)),
    left: Math.round((COVER_WIDTH - (titleMeta.width ?? 0)) / 2),
  });
  if (input.author) {
    const authorImage = await textImage(shorten(formatAuthorName(input.author), 60), 20, 300);
    const authorMeta = await sharp(authorImage).metadata();
    layers.push({
      input: authorImage,
      top: 396,
      left: Math.round((COVER_WIDTH - (authorMeta.width ?? 0)) / 2),
    });
  }
  const subjectImage = await textImage(input.subject.toUpperCase(), 13, 300);
  const subjectMeta = await sharp(subjectImage).metadata();
  layers.push({
    input: subjectImage,
    top: COVER_HEIGHT - 70,
    left: Math.round((COVER_WIDTH - (subjectMeta.width ?? 0)) / 2),
  });
  return sharp(background)
    .composite(layers)
    .jpeg({ quality: 85, progressive: true, mozjpeg: true })
    .toBuffer();
}

/** White centred text as a transparent PNG, wrapped at word boundaries. */
async function textImage(text: string, size: number, width: number) {
  return sharp({
    text: {
      text: `<span foreground="#ffffff">${escapeMarkup(text)}</span>`,
      font: `${COVER_FONT_FAMILY} Bold ${size}`,
      fontfile: COVER_FONT_FILE,
      width,
      align: 'centre',
      wrap: 'word',
      rgba: true,
      dpi: 72,
    },
  })
    .png()
    .toBuffer();
}

function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, text.lastIndexOf(' ', max - 1) > 20 ? text.lastIndexOf(' ', max - 1) : max - 1)}…`;
}

function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
