import sharp, { type OverlayOptions, type Sharp } from 'sharp';
import { LOCAL_MOCKUP_VIEWS, type ProductKind } from '@chapterwise/shared';

/**
 * The offline print adapter's mockups: the artwork placed on product templates drawn here in
 * SVG (a framed poster, a mug, a t-shirt, a tote bag), seen in five framings (front, close-up,
 * small on the left and on the right with a prop, tilted) against six wall colours: 30 views
 * per product. Templates are rendered once per framing and kept; each view is then one
 * composite (background, template, artwork, shading) encoded as JPEG. Every view says
 * "Test mode mockup".
 */

export const MOCKUP_SIZE = 600;
const S = MOCKUP_SIZE;

const BACKGROUNDS = ['#f3efe7', '#e4ecf2', '#efe3e3', '#e6eee2', '#2f3440', '#f6e7c8'] as const;

interface Framing {
  name: string;
  scale: number;
  dx: number;
  dy: number;
  rotate: number;
  prop: boolean;
}

const FRAMINGS: Framing[] = [
  { name: 'front', scale: 1, dx: 0, dy: 0, rotate: 0, prop: false },
  { name: 'close', scale: 1.45, dx: 0, dy: 20, rotate: 0, prop: false },
  { name: 'left', scale: 0.72, dx: -70, dy: 40, rotate: 0, prop: true },
  { name: 'right', scale: 0.72, dx: 70, dy: 40, rotate: 0, prop: true },
  { name: 'tilted', scale: 0.9, dx: 0, dy: 10, rotate: -6, prop: false },
];

/** A product's drawing in a 600 × 600 design space, and where the artwork goes on it. */
interface Design {
  /** Drawn under the artwork. */
  under: string;
  /** Drawn over the artwork (shading, frame edges); may be empty. */
  over: string;
  art: { x: number; y: number; w: number; h: number };
}

const DESIGNS: Record<ProductKind, Design> = {
  poster: {
    under: `
      <rect x="128" y="88" width="344" height="424" rx="4" fill="#1d1d1f"/>
      <rect x="142" y="102" width="316" height="396" fill="#fbfbf8"/>
      <rect x="128" y="508" width="344" height="10" fill="#000" opacity="0.12"/>`,
    over: `<path d="M142 102 L300 102 L142 300 Z" fill="#fff" opacity="0.08"/>`,
    art: { x: 170, y: 130, w: 260, h: 340 },
  },
  mug: {
    under: `
      <ellipse cx="290" cy="478" rx="150" ry="18" fill="#000" opacity="0.10"/>
      <path d="M420 230 C520 230 520 400 420 400" fill="none" stroke="#f4f4f4" stroke-width="34"/>
      <path d="M420 230 C520 230 520 400 420 400" fill="none" stroke="#d6d6d6" stroke-width="6"/>
      <rect x="150" y="160" width="280" height="320" rx="26" fill="#fafafa"/>`,
    over: `
      <defs><linearGradient id="mugshade" x1="0" x2="1" y1="0" y2="0">
        <stop offset="0" stop-color="#000" stop-opacity="0.22"/>
        <stop offset="0.25" stop-color="#fff" stop-opacity="0.10"/>
        <stop offset="0.7" stop-color="#000" stop-opacity="0"/>
        <stop offset="1" stop-color="#000" stop-opacity="0.25"/>
      </linearGradient></defs>
      <rect x="150" y="160" width="280" height="320" rx="26" fill="url(#mugshade)"/>
      <ellipse cx="290" cy="162" rx="140" ry="12" fill="#e9e9e9"/>`,
    art: { x: 185, y: 205, w: 210, h: 230 },
  },
  tshirt: {
    under: `
      <path d="M215 95 L165 110 L70 190 L118 262 L170 228 L170 520 L430 520 L430 228 L482 262 L530 190 L435 110 L385 95
               C370 130 330 146 300 146 C270 146 230 130 215 95 Z" fill="#fdfdfd" stroke="#d9d9d9" stroke-width="3"/>
      <path d="M215 95 C230 130 270 146 300 146 C330 146 370 130 385 95" fill="none" stroke="#cfcfcf" stroke-width="8"/>`,
    over: `<path d="M170 228 L170 520 L200 520 L200 240 Z" fill="#000" opacity="0.05"/>`,
    art: { x: 215, y: 180, w: 170, h: 200 },
  },
  tote: {
    under: `
      <path d="M215 190 C215 60 385 60 385 190" fill="none" stroke="#cdbb94" stroke-width="18"/>
      <rect x="140" y="180" width="320" height="350" rx="6" fill="#eadfc6"/>
      <rect x="140" y="180" width="320" height="14" fill="#d9ca9f"/>`,
    over: `<rect x="140" y="180" width="320" height="350" rx="6" fill="#fff" opacity="0.04"/>`,
    art: { x: 190, y: 230, w: 220, h: 250 },
  },
};

const PROP = `
  <g opacity="0.95">
    <rect x="-40" y="470" width="80" height="70" rx="8" fill="#b86b3c"/>
    <path d="M0 470 C-50 400 -70 360 -20 330 C-10 380 0 420 0 470 Z" fill="#4f8a4a"/>
    <path d="M0 470 C40 390 70 370 50 320 C20 360 8 420 0 470 Z" fill="#5f9d55"/>
  </g>`;

function transformOf(f: Framing): string {
  return `translate(${S / 2 + f.dx} ${S / 2 + f.dy}) rotate(${f.rotate}) scale(${f.scale}) translate(${-S / 2} ${-S / 2})`;
}

function svgOf(body: string): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${S}" height="${S}" viewBox="0 0 ${S} ${S}">${body}</svg>`,
  );
}

interface Raw {
  data: Buffer;
  raw: { width: number; height: number; channels: 4 };
}

interface Layers {
  under: Raw;
  over: Raw | null;
}

/** Decoded RGBA pixels: composites of raw pixels skip a PNG encode and decode each. */
async function rawOf(image: Sharp): Promise<Raw> {
  const { data, info } = await image.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, raw: { width: info.width, height: info.height, channels: 4 } };
}

const layerCache = new Map<string, Promise<Layers>>();

/** The template's layers for a framing, rendered once per process. */
function layersOf(kind: ProductKind, f: Framing): Promise<Layers> {
  const key = `${kind}:${f.name}`;
  let cached = layerCache.get(key);
  if (!cached) {
    const design = DESIGNS[kind];
    const propSide = f.dx < 0 ? S - 70 : 70;
    const under = svgOf(
      `${f.prop ? `<g transform="translate(${propSide} 0)">${PROP}</g>` : ''}
       <g transform="${transformOf(f)}">${design.under}</g>
       <text x="${S - 14}" y="${S - 14}" text-anchor="end" font-family="sans-serif" font-size="14"
             fill="#777" opacity="0.9">Test mode mockup</text>`,
    );
    const over = design.over ? svgOf(`<g transform="${transformOf(f)}">${design.over}</g>`) : null;
    cached = Promise.all([
      rawOf(sharp(under)),
      over ? rawOf(sharp(over)) : Promise.resolve(null),
    ]).then(([u, o]) => ({ under: u, over: o }));
    layerCache.set(key, cached);
  }
  return cached;
}

/** Where the artwork lands for a framing (the centre of its rectangle, moved by the framing). */
function placementOf(kind: ProductKind, f: Framing) {
  const { art } = DESIGNS[kind];
  const cx = art.x + art.w / 2 - S / 2;
  const cy = art.y + art.h / 2 - S / 2;
  const rad = (f.rotate * Math.PI) / 180;
  const x = S / 2 + f.dx + f.scale * (cx * Math.cos(rad) - cy * Math.sin(rad));
  const y = S / 2 + f.dy + f.scale * (cx * Math.sin(rad) + cy * Math.cos(rad));
  return { cx: x, cy: y, w: Math.round(art.w * f.scale), h: Math.round(art.h * f.scale) };
}

/** The artwork fitted (cover) to a framing's rectangle, rotated, and cut to the canvas. */
async function artFor(artwork: Buffer, kind: ProductKind, f: Framing) {
  const place = placementOf(kind, f);
  let fitted = await rawOf(sharp(artwork).resize(place.w, place.h, { fit: 'cover' }));
  if (f.rotate) {
    fitted = await rawOf(
      sharp(fitted.data, { raw: fitted.raw }).rotate(f.rotate, {
        background: { r: 0, g: 0, b: 0, alpha: 0 },
      }),
    );
  }
  const info = fitted.raw;
  let left = Math.round(place.cx - info.width / 2);
  let top = Math.round(place.cy - info.height / 2);
  // Cut what falls outside the canvas (sharp composites only inside it).
  const x0 = Math.max(0, -left);
  const y0 = Math.max(0, -top);
  const x1 = Math.min(info.width, S - left);
  const y1 = Math.min(info.height, S - top);
  let input = fitted;
  if (x0 > 0 || y0 > 0 || x1 < info.width || y1 < info.height) {
    input = await rawOf(
      sharp(fitted.data, { raw: fitted.raw }).extract({
        left: x0,
        top: y0,
        width: x1 - x0,
        height: y1 - y0,
      }),
    );
    left += x0;
    top += y0;
  }
  return { input, left, top };
}

/** The order of the 30 views: framings first, then wall colours, so view i is framing i % 5. */
export function viewsOf(count = LOCAL_MOCKUP_VIEWS) {
  const views: Array<{ framing: Framing; background: string }> = [];
  for (let i = 0; i < count; i++) {
    views.push({
      framing: FRAMINGS[i % FRAMINGS.length]!,
      background: BACKGROUNDS[Math.floor(i / FRAMINGS.length) % BACKGROUNDS.length]!,
    });
  }
  return views;
}

async function mapLimit<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>) {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        out[index] = await work(items[index]!);
      }
    }),
  );
  return out;
}

/**
 * All the mockups of one product (JPEG, 600 × 600), `views` of them. The artwork is fitted
 * once per framing; each view is a single composite.
 */
export async function renderMockups(
  artwork: Buffer,
  kind: ProductKind,
  views = LOCAL_MOCKUP_VIEWS,
): Promise<Buffer[]> {
  // A small copy of the artwork is enough for 600-pixel mockups and much faster to resize.
  const small = await sharp(artwork)
    .resize(520, 520, { fit: 'inside' })
    .png({ compressionLevel: 1 })
    .toBuffer();
  const arts = new Map<string, Promise<Awaited<ReturnType<typeof artFor>>>>();
  const artOf = (f: Framing) => {
    let art = arts.get(f.name);
    if (!art) {
      art = artFor(small, kind, f);
      arts.set(f.name, art);
    }
    return art;
  };
  return mapLimit(viewsOf(views), 4, async ({ framing, background }) => {
    const [layers, art] = await Promise.all([layersOf(kind, framing), artOf(framing)]);
    const composites: OverlayOptions[] = [
      { input: layers.under.data, raw: layers.under.raw, left: 0, top: 0 },
      { input: art.input.data, raw: art.input.raw, left: art.left, top: art.top },
    ];
    if (layers.over) {
      composites.push({ input: layers.over.data, raw: layers.over.raw, left: 0, top: 0 });
    }
    return sharp({ create: { width: S, height: S, channels: 3, background } })
      .composite(composites)
      .jpeg({ quality: 80, mozjpeg: false })
      .toBuffer();
  });
}
