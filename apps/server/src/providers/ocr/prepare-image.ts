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
    return { pixels: data, width: info.width, height: info.height };
  } catch {
    throw badRequest(DAMAGED_IMAGE);
  }
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
