import { IMPORT_MAX_IMAGE_PIXELS, IMPORT_MIN_IMAGE_SIDE } from '@chapterwise/shared';
import sharp from 'sharp';
import { badRequest, payloadTooLarge } from '../../lib/errors.js';

const DAMAGED_IMAGE = 'This image is damaged or incomplete, so it could not be opened.';

/** Longest side the OCR engine gets: enough for print on a phone photo, quick to read. */
export const OCR_TARGET_LONG_SIDE = 2000;
/** Images whose longest side is below this are enlarged: small print needs more pixels. */
export const OCR_UPSCALE_BELOW = 1200;

/** An 8-bit grey image, one byte a pixel, row after row. */
export interface GreyImage {
  pixels: Buffer;
  width: number;
  height: number;
}

/**
 * Prepares a photo or scan for OCR: turns it upright from its EXIF orientation, makes it
 * grey, scales it so printed text has a size the engine reads well, and stretches the
 * contrast. Refuses images that are too large to decode safely or too small to hold text,
 * reading only the header first.
 */
export async function prepareImageForOcr(bytes: Buffer): Promise<GreyImage> {
  let width: number;
  let height: number;
  let orientation: number | undefined;
  try {
    ({ width, height, orientation } = await sharp(bytes).metadata());
  } catch {
    throw badRequest(DAMAGED_IMAGE);
  }
  if (!width || !height) {
    throw badRequest(DAMAGED_IMAGE);
  }
  const pixels = width * height;
  if (pixels > IMPORT_MAX_IMAGE_PIXELS) {
    throw payloadTooLarge(
      `This image is ${width} × ${height} pixels (${(pixels / 1e6).toFixed(1)} megapixels); the most it can have is ${IMPORT_MAX_IMAGE_PIXELS / 1e6} megapixels. Resize it or take the photo at a lower resolution.`,
    );
  }
  if (width < IMPORT_MIN_IMAGE_SIDE || height < IMPORT_MIN_IMAGE_SIDE) {
    throw badRequest(
      `This image is only ${width} × ${height} pixels, too small to hold readable text. Use a photo or scan at least ${IMPORT_MIN_IMAGE_SIDE} pixels on each side.`,
    );
  }

  const sideways = orientation !== undefined && orientation >= 5;
  const longSide = Math.max(width, height);
  const scale =
    longSide > OCR_TARGET_LONG_SIDE
      ? OCR_TARGET_LONG_SIDE / longSide
      : longSide < OCR_UPSCALE_BELOW
        ? Math.min(2, OCR_TARGET_LONG_SIDE / longSide)
        : 1;
  const outWidth = Math.max(1, Math.round((sideways ? height : width) * scale));
  try {
    const { data, info } = await sharp(bytes, {
      limitInputPixels: IMPORT_MAX_IMAGE_PIXELS,
      failOn: 'error',
    })
      .rotate()
      // Transparent screenshots: text on white, not on black.
      .flatten({ background: '#ffffff' })
      .greyscale()
      .resize({ width: outWidth, kernel: scale > 1 ? 'cubic' : 'lanczos3' })
      .normalise()
      .toColourspace('b-w')
      .raw()
      .toBuffer({ resolveWithObject: true });
    return await straighten({ pixels: data, width: info.width, height: info.height });
  } catch {
    throw badRequest(DAMAGED_IMAGE);
  }
}

/** Largest tilt looked for, in degrees: a page photographed by hand is rarely turned more. */
const MAX_SKEW_DEGREES = 5;

/**
 * The angle (degrees, clockwise positive as sharp's `rotate` takes it) that makes the lines
 * of text level. Lines of print make sharp peaks in a projection of the page's light/dark
 * edges when projected along their own direction; the angle with the sharpest profile wins.
 * Returns 0 when no angle is clearly better than leaving the image as it is.
 */
export function estimateSkew(image: GreyImage): number {
  const { pixels, width, height } = image;
  // Sample edge points (a dark pixel after a light one) on a grid small enough to be quick.
  const step = Math.max(1, Math.floor(Math.sqrt((width * height) / 400_000)));
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < height; y += step) {
    const row = y * width;
    for (let x = step; x < width; x += step) {
      if (pixels[row + x]! < 128 && pixels[row + x - step]! >= 128) {
        xs.push(x);
        ys.push(y);
      }
    }
  }
  if (xs.length < 200) return 0;
  const bins = new Float64Array(Math.ceil(height / step) + Math.ceil(width / step) + 4);
  const offset = Math.ceil(width / step) + 2;
  const sharpness = (degrees: number) => {
    bins.fill(0);
    const slope = Math.tan((degrees * Math.PI) / 180);
    for (let i = 0; i < xs.length; i++) {
      bins[Math.round((ys[i]! - xs[i]! * slope) / step) + offset]! += 1;
    }
    let sum = 0;
    for (let i = 1; i < bins.length; i++) sum += (bins[i]! - bins[i - 1]!) ** 2;
    return sum;
  };
  const level = sharpness(0);
  let best = 0;
  let bestScore = level;
  for (let degrees = -MAX_SKEW_DEGREES; degrees <= MAX_SKEW_DEGREES; degrees += 0.5) {
    const score = sharpness(degrees);
    if (score > bestScore) [best, bestScore] = [degrees, score];
  }
  for (let degrees = best - 0.4; degrees <= best + 0.4; degrees += 0.1) {
    const score = sharpness(degrees);
    if (score > bestScore) [best, bestScore] = [degrees, score];
  }
  // Lines y = x·tan(a) + c go down to the right for a > 0: turning by -a levels them.
  return bestScore > level * 1.05 ? -Math.round(best * 10) / 10 : 0;
}

/** Levels tilted lines of text (when there are enough of them to tell) on a white ground. */
async function straighten(image: GreyImage): Promise<GreyImage> {
  if (image.width * image.height < 500_000) return image;
  const angle = estimateSkew(image);
  if (Math.abs(angle) < 0.3) return image;
  const { data, info } = await sharp(image.pixels, {
    raw: { width: image.width, height: image.height, channels: 1 },
  })
    .rotate(angle, { background: '#ffffff' })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { pixels: data, width: info.width, height: info.height };
}

/** A row with at most this many light/dark changes holds no text (a page or desk edge at most). */
const GAP_ROW_MAX_CHANGES = 8;

/**
 * Cuts a page into up to `parts` horizontal strips for engines working side by side. Each cut
 * goes through a gap between two lines of text near its even share: a row with (almost) no
 * light/dark changes, which a desk or page edge beside the text does not disturb. Where no such
 * gap exists (small images, tightly packed or steeply slanted lines), the image stays whole.
 */
export function splitIntoStrips(image: GreyImage, parts: number): GreyImage[] {
  const { pixels, width, height } = image;
  if (parts < 2 || height < 1000 || width * height < 2_000_000) return [image];
  const changes = new Uint32Array(height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let count = 0;
    let dark = pixels[row]! < 128;
    for (let x = 1; x < width; x++) {
      const isDark = pixels[row + x]! < 128;
      if (isDark !== dark) count++;
      dark = isDark;
    }
    changes[y] = count;
  }
  const cuts = [0];
  const window = Math.floor(height / (parts * 4));
  for (let i = 1; i < parts; i++) {
    const target = Math.round((height * i) / parts);
    let best = -1;
    for (let y = target - window; y <= target + window; y++) {
      if (changes[y]! > GAP_ROW_MAX_CHANGES) continue;
      if (best === -1 || Math.abs(y - target) < Math.abs(best - target)) best = y;
    }
    if (best !== -1) cuts.push(best);
  }
  if (cuts.length === 1) return [image];
  cuts.push(height);
  return cuts.slice(0, -1).map((top, i) => {
    const bottom = cuts[i + 1]!;
    return { pixels: pixels.subarray(top * width, bottom * width), width, height: bottom - top };
  });
}

/** The image as a binary PGM file, which the OCR engine reads without any decoding work. */
export function toPgm(image: GreyImage): Buffer {
  return Buffer.concat([Buffer.from(`P5\n${image.width} ${image.height}\n255\n`), image.pixels]);
}
