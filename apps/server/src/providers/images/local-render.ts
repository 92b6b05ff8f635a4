import sharp from 'sharp';
import { OFFLINE_PREVIEW_LABEL } from '@chapterwise/shared';

/**
 * The offline image engine's drawing: an illustration made only from the prompt's words (and,
 * for a custom model, the colours of its training photos). Nothing is learned or guessed: the
 * same prompt, model and seed always give the same picture, and every picture says it is an
 * "offline preview".
 *
 * - Palette: colour words ("red", "ocean", "autumn"…) choose hues; other words hash to hues; a
 *   custom model's photo colours come first.
 * - Composition: scene words ("mountain", "sea", "city", "forest", "night"…) pick the layers
 *   (hills, waves, skyline, trees, stars, a sun or moon); every other word becomes one shape
 *   whose kind, place and size come from the word's hash and the seed.
 */
export interface RenderInput {
  prompt: string;
  width: number;
  height: number;
  seed: number;
  /** Extra words from the model (a base model's style, a custom model's trigger word). */
  modelWords?: string[];
  /** Colours (`#rrggbb`) that lead the palette (a custom model's training photos). */
  palette?: string[];
}

const STOP_WORDS = new Set(
  'a an the of and or in on at to for with by from into over under near is are was be as it its this that these those very some any my your our their his her them they we you i me so but not no'.split(
    ' ',
  ),
);

/** Hues (degrees), saturation and lightness for words that name a colour or a mood of one. */
const COLOUR_WORDS: Record<string, [number, number, number]> = {
  red: [2, 75, 50],
  crimson: [350, 70, 42],
  orange: [28, 90, 55],
  amber: [40, 90, 52],
  yellow: [50, 90, 58],
  gold: [45, 80, 50],
  golden: [45, 80, 50],
  sun: [45, 95, 60],
  sunny: [48, 95, 62],
  sunset: [18, 85, 58],
  sunrise: [30, 85, 62],
  autumn: [24, 70, 45],
  fall: [24, 70, 45],
  green: [120, 45, 42],
  grass: [100, 50, 45],
  forest: [135, 40, 30],
  jungle: [140, 55, 30],
  leaf: [110, 50, 42],
  spring: [95, 55, 60],
  teal: [178, 55, 38],
  blue: [215, 70, 50],
  sky: [205, 75, 68],
  ocean: [205, 70, 38],
  sea: [200, 65, 42],
  water: [195, 60, 50],
  river: [195, 55, 45],
  ice: [190, 50, 82],
  winter: [205, 35, 80],
  snow: [210, 30, 92],
  purple: [275, 50, 45],
  violet: [265, 55, 55],
  lavender: [260, 45, 75],
  pink: [335, 70, 70],
  rose: [345, 60, 60],
  brown: [28, 45, 32],
  wood: [30, 45, 38],
  desert: [38, 60, 65],
  sand: [40, 55, 72],
  black: [230, 15, 12],
  night: [235, 45, 16],
  dark: [230, 25, 20],
  space: [250, 40, 12],
  white: [40, 20, 94],
  grey: [220, 8, 55],
  gray: [220, 8, 55],
  silver: [210, 10, 72],
  fire: [12, 90, 52],
  lava: [8, 85, 45],
};

type Scene =
  | 'hills'
  | 'waves'
  | 'skyline'
  | 'trees'
  | 'stars'
  | 'sun'
  | 'moon'
  | 'clouds'
  | 'books'
  | 'planet';

const SCENE_WORDS: Record<string, Scene> = {
  mountain: 'hills',
  mountains: 'hills',
  hill: 'hills',
  hills: 'hills',
  valley: 'hills',
  field: 'hills',
  meadow: 'hills',
  landscape: 'hills',
  farm: 'hills',
  sea: 'waves',
  ocean: 'waves',
  beach: 'waves',
  lake: 'waves',
  river: 'waves',
  wave: 'waves',
  waves: 'waves',
  water: 'waves',
  city: 'skyline',
  town: 'skyline',
  street: 'skyline',
  building: 'skyline',
  buildings: 'skyline',
  castle: 'skyline',
  school: 'skyline',
  house: 'skyline',
  forest: 'trees',
  tree: 'trees',
  trees: 'trees',
  woods: 'trees',
  garden: 'trees',
  jungle: 'trees',
  park: 'trees',
  night: 'stars',
  stars: 'stars',
  star: 'stars',
  galaxy: 'stars',
  space: 'stars',
  sun: 'sun',
  sunny: 'sun',
  sunset: 'sun',
  sunrise: 'sun',
  summer: 'sun',
  moon: 'moon',
  moonlight: 'moon',
  cloud: 'clouds',
  clouds: 'clouds',
  sky: 'clouds',
  storm: 'clouds',
  rain: 'clouds',
  book: 'books',
  books: 'books',
  library: 'books',
  reading: 'books',
  classroom: 'books',
  planet: 'planet',
  planets: 'planet',
  earth: 'planet',
  world: 'planet',
};

/** FNV-1a, 32 bits: a stable hash of a word. */
export function hashWord(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** mulberry32: a small deterministic random sequence from a seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The prompt's meaningful words, lower-cased, in order. */
export function promptWords(prompt: string): string[] {
  return (prompt.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter(
    (word) => word.length > 1 && !STOP_WORDS.has(word),
  );
}

function hsl(h: number, s: number, l: number): string {
  return `hsl(${Math.round(((h % 360) + 360) % 360)} ${Math.round(s)}% ${Math.round(l)}%)`;
}

function hexToHsl(hex: string): [number, number, number] | null {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex);
  if (!m) return null;
  const n = parseInt(m[1]!, 16);
  const r = ((n >> 16) & 255) / 255;
  const g = ((n >> 8) & 255) / 255;
  const b = (n & 255) / 255;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l * 100];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  let h: number;
  if (max === r) h = (g - b) / d + (g < b ? 6 : 0);
  else if (max === g) h = (b - r) / d + 2;
  else h = (r - g) / d + 4;
  return [h * 60, s * 100, l * 100];
}

/** The picture's colours: model colours, then colour words, then hashed words. */
export function paletteFor(words: string[], modelPalette: string[] = []): string[] {
  const colours: [number, number, number][] = [];
  for (const hex of modelPalette) {
    const value = hexToHsl(hex);
    if (value)
      colours.push([value[0], Math.max(35, value[1]), Math.min(70, Math.max(25, value[2]))]);
  }
  for (const word of words) {
    const named = COLOUR_WORDS[word];
    if (named) colours.push(named);
  }
  for (const word of words) {
    if (colours.length >= 6) break;
    if (COLOUR_WORDS[word]) continue;
    const h = hashWord(word);
    colours.push([h % 360, 45 + ((h >>> 9) % 35), 40 + ((h >>> 17) % 25)]);
  }
  const base = colours[0] ?? [hashWord(words.join(' ')) % 360, 55, 50];
  while (colours.length < 5) {
    const i = colours.length;
    colours.push([base[0] + i * 47, 50 + ((i * 13) % 25), 35 + ((i * 17) % 35)]);
  }
  return colours.slice(0, 6).map(([h, s, l]) => hsl(h, s, l));
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The SVG of the illustration (exposed for tests: its shapes follow the words). */
export function illustrationSvg(input: RenderInput): string {
  const { width: w, height: h } = input;
  const words = [
    ...promptWords(input.prompt),
    ...(input.modelWords ?? []).map((x) => x.toLowerCase()),
  ];
  const rand = random(input.seed ^ hashWord(words.join(' ')));
  const palette = paletteFor(words, input.palette);
  const scenes = new Set<Scene>();
  for (const word of words) {
    const scene = SCENE_WORDS[word];
    if (scene) scenes.add(scene);
  }
  const night = words.some((x) =>
    ['night', 'dark', 'space', 'moon', 'moonlight', 'galaxy', 'stars'].includes(x),
  );
  const sky = night ? ['hsl(235 45% 14%)', 'hsl(255 40% 28%)'] : [palette[0]!, palette[1]!];
  const parts: string[] = [];
  parts.push(
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="${(rand() * 0.6).toFixed(2)}" y2="1"><stop offset="0" stop-color="${sky[0]}"/><stop offset="1" stop-color="${sky[1]}"/></linearGradient>` +
      `<radialGradient id="glow"><stop offset="0" stop-color="#fff" stop-opacity="0.55"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient></defs>`,
  );
  parts.push(`<rect width="${w}" height="${h}" fill="url(#bg)"/>`);
  const horizon = h * (0.55 + rand() * 0.15);

  if (scenes.has('stars') || night) {
    for (let i = 0; i < 90; i++) {
      const r = 0.8 + rand() * 2.2;
      parts.push(
        `<circle cx="${(rand() * w).toFixed(1)}" cy="${(rand() * horizon).toFixed(1)}" r="${r.toFixed(1)}" fill="#fffbe8" opacity="${(0.4 + rand() * 0.6).toFixed(2)}"/>`,
      );
    }
  }
  if (scenes.has('sun') || scenes.has('moon')) {
    const cx = w * (0.2 + rand() * 0.6);
    const cy = horizon * (0.3 + rand() * 0.3);
    const r = Math.min(w, h) * (0.08 + rand() * 0.06);
    parts.push(
      `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="${(r * 2.4).toFixed(1)}" fill="url(#glow)"/>`,
    );
    parts.push(
      `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="${r.toFixed(1)}" fill="${scenes.has('moon') ? '#f4f1de' : 'hsl(45 95% 62%)'}"/>`,
    );
  }
  if (scenes.has('planet')) {
    const cx = w * (0.25 + rand() * 0.5);
    const cy = horizon * 0.45;
    const r = Math.min(w, h) * 0.16;
    parts.push(
      `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="${r.toFixed(1)}" fill="${palette[2]}"/>`,
    );
    parts.push(
      `<ellipse cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" rx="${(r * 1.7).toFixed(1)}" ry="${(r * 0.35).toFixed(1)}" fill="none" stroke="${palette[3]}" stroke-width="${(r * 0.12).toFixed(1)}" transform="rotate(-18 ${cx.toFixed(1)} ${cy.toFixed(1)})"/>`,
    );
  }
  if (scenes.has('clouds')) {
    for (let i = 0; i < 4; i++) {
      const cx = rand() * w;
      const cy = horizon * (0.15 + rand() * 0.4);
      const s = Math.min(w, h) * (0.05 + rand() * 0.05);
      for (let j = 0; j < 4; j++) {
        parts.push(
          `<circle cx="${(cx + (j - 1.5) * s * 1.1).toFixed(1)}" cy="${(cy + (j % 2) * s * 0.3).toFixed(1)}" r="${(s * (0.9 + (j % 2) * 0.4)).toFixed(1)}" fill="#ffffff" opacity="0.82"/>`,
        );
      }
    }
  }

  // Free words: one shape each, in the sky above the ground.
  const free = words.filter((word) => !SCENE_WORDS[word] && !COLOUR_WORDS[word]).slice(0, 14);
  free.forEach((word, i) => {
    const hword = hashWord(word);
    const kind = (hword + input.seed) % 5;
    const x = ((hword % 1000) / 1000) * w * 0.8 + w * 0.1 + (rand() - 0.5) * w * 0.1;
    const y = (((hword >>> 10) % 1000) / 1000) * horizon * 0.8 + h * 0.08;
    const size = Math.min(w, h) * (0.05 + ((hword >>> 20) % 100) / 900);
    const fill = palette[(i + 2) % palette.length];
    const opacity = (0.7 + rand() * 0.3).toFixed(2);
    const rotate = Math.round(rand() * 360);
    const at = `${x.toFixed(1)} ${y.toFixed(1)}`;
    switch (kind) {
      case 0:
        parts.push(
          `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${size.toFixed(1)}" fill="${fill}" opacity="${opacity}"/>`,
        );
        break;
      case 1:
        parts.push(
          `<rect x="${(x - size).toFixed(1)}" y="${(y - size).toFixed(1)}" width="${(size * 2).toFixed(1)}" height="${(size * 2).toFixed(1)}" rx="${(size * 0.25).toFixed(1)}" fill="${fill}" opacity="${opacity}" transform="rotate(${rotate} ${at})"/>`,
        );
        break;
      case 2:
        parts.push(
          `<polygon points="${x.toFixed(1)},${(y - size * 1.2).toFixed(1)} ${(x + size).toFixed(1)},${(y + size * 0.8).toFixed(1)} ${(x - size).toFixed(1)},${(y + size * 0.8).toFixed(1)}" fill="${fill}" opacity="${opacity}" transform="rotate(${rotate} ${at})"/>`,
        );
        break;
      case 3:
        parts.push(
          `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${size.toFixed(1)}" fill="none" stroke="${fill}" stroke-width="${(size * 0.28).toFixed(1)}" opacity="${opacity}"/>`,
        );
        break;
      default: {
        const points = Array.from({ length: 10 }, (_, k) => {
          const angle = (Math.PI * k) / 5;
          const radius = k % 2 ? size * 0.45 : size;
          return `${(x + Math.sin(angle) * radius).toFixed(1)},${(y - Math.cos(angle) * radius).toFixed(1)}`;
        });
        parts.push(`<polygon points="${points.join(' ')}" fill="${fill}" opacity="${opacity}"/>`);
      }
    }
  });

  // Ground layers.
  if (scenes.has('hills') || scenes.size === 0 || scenes.has('trees')) {
    for (let layer = 0; layer < 3; layer++) {
      const base = horizon + layer * h * 0.09;
      let d = `M0 ${h} L0 ${base.toFixed(1)}`;
      const peaks = 3 + Math.floor(rand() * 3);
      for (let p = 1; p <= peaks; p++) {
        const px = (w * p) / peaks;
        const cx = px - w / peaks / 2;
        const cy = base - h * (0.08 + rand() * (scenes.has('hills') ? 0.22 : 0.08));
        d += ` Q${cx.toFixed(1)} ${cy.toFixed(1)} ${px.toFixed(1)} ${(base + (rand() - 0.5) * 20).toFixed(1)}`;
      }
      d += ` L${w} ${h} Z`;
      parts.push(
        `<path d="${d}" fill="${palette[(layer + 3) % palette.length]}" opacity="${(0.75 + layer * 0.1).toFixed(2)}"/>`,
      );
    }
  }
  if (scenes.has('skyline')) {
    let x = 0;
    while (x < w) {
      const bw = w * (0.05 + rand() * 0.07);
      const bh = h * (0.12 + rand() * 0.3);
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${(horizon + h * 0.08 - bh).toFixed(1)}" width="${bw.toFixed(1)}" height="${(bh + h).toFixed(1)}" fill="${palette[4]}" opacity="0.92"/>`,
      );
      for (let wy = horizon + h * 0.08 - bh + 10; wy < horizon + h * 0.06; wy += 22) {
        if (rand() < 0.45)
          parts.push(
            `<rect x="${(x + bw * 0.3).toFixed(1)}" y="${wy.toFixed(1)}" width="${(bw * 0.4).toFixed(1)}" height="8" fill="#fff3b0" opacity="0.8"/>`,
          );
      }
      x += bw + 4;
    }
  }
  if (scenes.has('waves')) {
    for (let layer = 0; layer < 4; layer++) {
      const base = horizon + h * 0.06 + layer * h * 0.07;
      let d = `M0 ${base.toFixed(1)}`;
      for (let x = 0; x <= w; x += w / 8) {
        d += ` q${(w / 32).toFixed(1)} ${(-14 - layer * 3).toFixed(1)} ${(w / 16).toFixed(1)} 0 t${(w / 16).toFixed(1)} 0`;
      }
      d += ` L${w} ${h} L0 ${h} Z`;
      parts.push(
        `<path d="${d}" fill="hsl(${200 + layer * 6} 65% ${45 - layer * 6}%)" opacity="0.9"/>`,
      );
    }
  }
  if (scenes.has('trees')) {
    const count = 6 + Math.floor(rand() * 6);
    for (let i = 0; i < count; i++) {
      const tx = rand() * w;
      const ty = horizon + h * (0.08 + rand() * 0.2);
      const th = h * (0.12 + rand() * 0.12);
      parts.push(
        `<rect x="${(tx - th * 0.04).toFixed(1)}" y="${(ty - th * 0.2).toFixed(1)}" width="${(th * 0.08).toFixed(1)}" height="${(th * 0.3).toFixed(1)}" fill="hsl(28 40% 28%)"/>`,
      );
      parts.push(
        `<polygon points="${tx.toFixed(1)},${(ty - th).toFixed(1)} ${(tx + th * 0.3).toFixed(1)},${(ty - th * 0.15).toFixed(1)} ${(tx - th * 0.3).toFixed(1)},${(ty - th * 0.15).toFixed(1)}" fill="hsl(${125 + Math.round(rand() * 30)} 45% ${24 + Math.round(rand() * 14)}%)"/>`,
      );
    }
  }
  if (scenes.has('books')) {
    let x = w * 0.15;
    const shelf = h * 0.86;
    while (x < w * 0.85) {
      const bw = w * (0.025 + rand() * 0.025);
      const bh = h * (0.12 + rand() * 0.1);
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${(shelf - bh).toFixed(1)}" width="${bw.toFixed(1)}" height="${bh.toFixed(1)}" fill="${palette[Math.floor(rand() * palette.length)]}" stroke="#00000033"/>`,
      );
      x += bw + 2;
    }
    parts.push(
      `<rect x="${(w * 0.12).toFixed(1)}" y="${shelf.toFixed(1)}" width="${(w * 0.76).toFixed(1)}" height="${(h * 0.02).toFixed(1)}" fill="hsl(28 40% 30%)"/>`,
    );
  }

  // The label: always there, so nobody mistakes it for a model's work.
  const band = Math.round(Math.min(w, h) * 0.075);
  const font = Math.round(band * 0.38);
  const captionX = Math.round(band * 0.35 + font * 10.6);
  const fits = Math.max(8, Math.floor((w - captionX - band * 0.3) / (font * 0.85 * 0.56)));
  const caption = input.prompt.length > fits ? `${input.prompt.slice(0, fits - 1)}…` : input.prompt;
  parts.push(
    `<rect x="0" y="${h - band}" width="${w}" height="${band}" fill="#000" opacity="0.55"/>`,
  );
  parts.push(
    `<text x="${Math.round(band * 0.35)}" y="${Math.round(h - band * 0.36)}" font-family="DejaVu Sans, Arial, sans-serif" font-size="${font}" font-weight="bold" fill="#ffd166">${escapeXml(OFFLINE_PREVIEW_LABEL.toUpperCase())}</text>`,
  );
  parts.push(
    `<text x="${captionX}" y="${Math.round(h - band * 0.36)}" font-family="DejaVu Sans, Arial, sans-serif" font-size="${Math.round(font * 0.85)}" fill="#ffffff">${escapeXml(caption)}</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${parts.join('')}</svg>`;
}

/** Renders the illustration as a PNG of exactly `width` × `height` pixels. */
export async function renderIllustration(input: RenderInput): Promise<Buffer> {
  const svg = illustrationSvg(input);
  return sharp(Buffer.from(svg), { density: 72 })
    .resize(input.width, input.height, { fit: 'fill' })
    .png({ compressionLevel: 6, adaptiveFiltering: false })
    .withMetadata({ density: 72 })
    .toBuffer();
}

/** A 3×3 sharpening kernel (a Laplacian added to the image): cheap on 16-megapixel images. */
const SHARPEN = { width: 3, height: 3, kernel: [0, -0.25, 0, -0.25, 2, -0.25, 0, -0.25, 0] };

/** A real enlargement: Lanczos resampling, then a sharpening pass to restore edges. */
export async function upscaleImage(
  image: Buffer,
  scale: number,
): Promise<{ data: Buffer; width: number; height: number }> {
  const meta = await sharp(image, { limitInputPixels: 40_000_000 }).metadata();
  if (!meta.width || !meta.height) throw new Error('The image has no size.');
  const width = meta.width * scale;
  const height = meta.height * scale;
  const data = await sharp(image, { limitInputPixels: 40_000_000 })
    .resize(width, height, { kernel: 'lanczos3' })
    .convolve(SHARPEN)
    .png({ compressionLevel: 1, adaptiveFiltering: false })
    .toBuffer();
  return { data, width, height };
}

/** The dominant colours of photos (`#rrggbb`), one per photo, at most 6. */
export async function photoPalette(photos: Buffer[]): Promise<string[]> {
  const colours: string[] = [];
  for (const photo of photos.slice(0, 6)) {
    const { dominant } = await sharp(photo).stats();
    colours.push(
      `#${[dominant.r, dominant.g, dominant.b].map((v) => v.toString(16).padStart(2, '0')).join('')}`,
    );
  }
  return colours;
}

/** A 512 px cover: up to four photos in a grid (one photo fills it). */
export async function makeCover(photos: Buffer[]): Promise<Buffer> {
  const size = 512;
  const picked = photos.slice(0, 4);
  if (picked.length < 4) {
    return sharp(picked[0]!)
      .resize(size, size, { fit: 'cover', position: 'attention' })
      .jpeg({ quality: 82 })
      .toBuffer();
  }
  const half = size / 2;
  const tiles = await Promise.all(
    picked.map((photo) =>
      sharp(photo).resize(half, half, { fit: 'cover', position: 'attention' }).toBuffer(),
    ),
  );
  return sharp({ create: { width: size, height: size, channels: 3, background: '#ffffff' } })
    .composite(
      tiles.map((input, i) => ({ input, left: (i % 2) * half, top: Math.floor(i / 2) * half })),
    )
    .jpeg({ quality: 82 })
    .toBuffer();
}
