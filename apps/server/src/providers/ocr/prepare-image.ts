import { IMPORT_MAX_IMAGE_PIXELS, IMPORT_MIN_IMAGE_SIDE } from '@chapterwise/shared';
import sharp from 'sharp';
import { badRequest, payloadTooLarge } from '../../lib/errors.js';

const DAMAGED_IMAGE = 'This image is damaged or incomplete, so it could not be opened.';

/** Longest side the OCR engine gets: enough for print on a phone photo, quick to read. */
export const OCR_TARGET_LONG_SIDE = 2400;
/** Images whose longest side is below this are enlarged: small print needs more pixels. */
export const OCR_UPSCALE_BELOW = 1400;

/**
 * Prepares a photo or scan for OCR: turns it upright from its EXIF orientation, makes it
 * grey, scales it so printed text has a size the engine reads well, and stretches the
 * contrast. Refuses images that are too large to decode safely or too small to hold text,
 * reading only the header first.
 */
export async function prepareImageForOcr(bytes: Buffer): Promise<Buffer> {
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

  const upright = orientation !== undefined && orientation >= 5;
  const longSide = Math.max(width, height);
  const scale =
    longSide > OCR_TARGET_LONG_SIDE
      ? OCR_TARGET_LONG_SIDE / longSide
      : longSide < OCR_UPSCALE_BELOW
        ? Math.min(2, OCR_TARGET_LONG_SIDE / longSide)
        : 1;
  const outWidth = Math.round((upright ? height : width) * scale);
  try {
    return await sharp(bytes, { limitInputPixels: IMPORT_MAX_IMAGE_PIXELS, failOn: 'error' })
      .rotate()
      .greyscale()
      .resize({ width: outWidth, kernel: scale > 1 ? 'cubic' : 'lanczos3' })
      .normalise()
      .png({ compressionLevel: 1 })
      .toBuffer();
  } catch {
    throw badRequest(DAMAGED_IMAGE);
  }
}
