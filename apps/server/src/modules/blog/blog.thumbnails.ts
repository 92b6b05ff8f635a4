import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';
import { BLOG_THUMBNAIL } from '@chapterwise/shared';

/**
 * The serif shipped in the repository (Liberation Serif Bold, SIL OFL 1.1): sharp renders text
 * through Pango, and a fresh machine may have no fonts at all.
 */
const FONT_FILE = path.resolve(
  path.dirname(new URL(import.meta.url).pathname),
  '../../../assets/fonts/LiberationSerif-Bold.ttf',
);
const FONT_FAMILY = 'Liberation Serif';

/** Public-domain covers of the sample books (seed-data/books/covers/public_domain/<id>.jpg). */
const COVERS_DIR = path.resolve(
  path.dirname(new URL(import.meta.url).pathname),
  '../../../seed-data/books/covers/public_domain',
);

export interface SampleThumbnailInput {
  title: string;
  /** Small capitals above the title (the first category). */
  kicker: string;
  /** Background colour, `#rrggbb`. */
  colour: string;
  /** A sample book's ebook number: its public-domain cover goes on the right. */
  cover?: number | undefined;
}

const { width: W, height: H } = BLOG_THUMBNAIL;

/**
 * A typographic thumbnail for a sample post (1200×630 PNG): the title on a colour, with a
 * book cover from the sample catalogue or a drawn worksheet on the right. Made at first
 * start, so the repository holds Markdown and no binary pictures.
 */
export async function renderSampleThumbnail(input: SampleThumbnailInput): Promise<Buffer> {
  const colour = /^#[0-9a-f]{6}$/i.test(input.colour) ? input.colour : '#0f766e';
  const coverFile = input.cover ? path.join(COVERS_DIR, `${input.cover}.jpg`) : undefined;
  const hasCover = Boolean(coverFile && existsSync(coverFile));
  const background = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
      <defs>
        <linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stop-color="#ffffff" stop-opacity="0.10"/>
          <stop offset="1" stop-color="#000000" stop-opacity="0.25"/>
        </linearGradient>
      </defs>
      <rect width="100%" height="100%" fill="${colour}"/>
      <rect width="100%" height="100%" fill="url(#g)"/>
      <circle cx="${W - 140}" cy="90" r="260" fill="#ffffff" fill-opacity="0.06"/>
      <circle cx="${W - 60}" cy="${H - 40}" r="180" fill="#000000" fill-opacity="0.08"/>
      <rect x="64" y="72" width="56" height="6" rx="3" fill="#fbbf24"/>
      ${hasCover ? '' : worksheetSvg()}
    </svg>`,
  );
  const layers: OverlayOptions[] = [];
  const kicker = await textImage(input.kicker.toUpperCase(), 22, 640, 0.85);
  layers.push({ input: kicker, top: 100, left: 64 });
  const title = input.title.length > 90 ? `${input.title.slice(0, 88)}…` : input.title;
  const size = title.length > 60 ? 52 : title.length > 36 ? 60 : 68;
  const titleImage = await textImage(title, size, 660, 1);
  const titleHeight = (await sharp(titleImage).metadata()).height ?? 0;
  layers.push({
    input: titleImage,
    top: Math.max(150, Math.min(170, 420 - titleHeight)),
    left: 64,
  });
  const brand = await textImage('Chapterwise Blog', 24, 400, 0.8);
  layers.push({ input: brand, top: H - 84, left: 64 });
  if (hasCover && coverFile) {
    const coverHeight = 470;
    const cover = await sharp(readFileSync(coverFile))
      .resize({ height: coverHeight, width: 320, fit: 'cover' })
      .png()
      .toBuffer();
    const coverWidth = (await sharp(cover).metadata()).width ?? 300;
    const left = W - coverWidth - 110;
    const top = Math.round((H - coverHeight) / 2);
    const shadow = await sharp({
      create: {
        width: coverWidth + 60,
        height: coverHeight + 60,
        channels: 4,
        background: { r: 0, g: 0, b: 0, alpha: 0 },
      },
    })
      .composite([
        {
          input: Buffer.from(
            `<svg xmlns="http://www.w3.org/2000/svg" width="${coverWidth + 60}" height="${coverHeight + 60}"><rect x="30" y="36" width="${coverWidth}" height="${coverHeight}" rx="6" fill="#000" fill-opacity="0.45"/></svg>`,
          ),
        },
      ])
      .blur(14)
      .png()
      .toBuffer();
    layers.push({ input: shadow, top: top - 30, left: left - 30 });
    layers.push({ input: cover, top, left });
  }
  return sharp(background).composite(layers).png().toBuffer();
}

/** A worksheet drawn in outline: a page with lines and answer boxes, tilted slightly. */
function worksheetSvg(): string {
  const x = W - 420;
  const y = 110;
  const lines = [0, 1, 2, 3, 4]
    .map((i) => {
      const top = y + 110 + i * 62;
      return `<rect x="${x + 40}" y="${top}" width="22" height="22" rx="4" fill="none" stroke="#0f172a" stroke-opacity="0.55" stroke-width="3"/>
        <rect x="${x + 78}" y="${top + 4}" width="${180 - (i % 2) * 50}" height="12" rx="6" fill="#0f172a" fill-opacity="0.22"/>`;
    })
    .join('');
  return `<g transform="rotate(4 ${x + 150} ${y + 200})">
      <rect x="${x}" y="${y}" width="300" height="420" rx="14" fill="#ffffff" fill-opacity="0.94"/>
      <rect x="${x + 40}" y="${y + 44}" width="170" height="18" rx="9" fill="#0f172a" fill-opacity="0.6"/>
      <rect x="${x + 40}" y="${y + 74}" width="110" height="10" rx="5" fill="#0f172a" fill-opacity="0.25"/>
      ${lines}
      <path d="M${x + 44} ${y + 126} l6 7 l12 -14" fill="none" stroke="#15803d" stroke-width="4" stroke-linecap="round"/>
      <path d="M${x + 44} ${y + 250} l6 7 l12 -14" fill="none" stroke="#15803d" stroke-width="4" stroke-linecap="round"/>
    </g>`;
}

/** White text on transparency, wrapped at words. */
async function textImage(text: string, size: number, width: number, alpha: number) {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return sharp({
    text: {
      text: `<span foreground="#ffffff" alpha="${Math.round(alpha * 100)}%">${escaped}</span>`,
      font: `${FONT_FAMILY} Bold ${size}`,
      fontfile: FONT_FILE,
      width,
      wrap: 'word',
      rgba: true,
      dpi: 72,
    },
  })
    .png()
    .toBuffer();
}

/** The sample posts' author picture: an open book on the product's teal (256 px PNG). */
export async function renderSampleAuthorPicture(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">
    <rect width="256" height="256" fill="#0f766e"/>
    <circle cx="200" cy="40" r="90" fill="#ffffff" fill-opacity="0.08"/>
    <path d="M128 92 C 104 76, 72 72, 48 78 L 48 182 C 72 176, 104 180, 128 196 Z" fill="#ffffff"/>
    <path d="M128 92 C 152 76, 184 72, 208 78 L 208 182 C 184 176, 152 180, 128 196 Z" fill="#e6f4f2"/>
    <path d="M128 92 L 128 196" stroke="#0f766e" stroke-width="4"/>
    <path d="M64 104 C 84 100, 104 104, 116 110 M64 126 C 84 122, 104 126, 116 132 M64 148 C 84 144, 104 148, 116 154" stroke="#0f766e" stroke-opacity="0.5" stroke-width="5" fill="none" stroke-linecap="round"/>
    <path d="M140 110 C 152 104, 172 100, 192 104 M140 132 C 152 126, 172 122, 192 126" stroke="#0f766e" stroke-opacity="0.5" stroke-width="5" fill="none" stroke-linecap="round"/>
    <rect x="176" y="40" width="14" height="58" fill="#fbbf24"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
