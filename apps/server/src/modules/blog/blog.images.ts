import { BLOG_LIMITS, BLOG_THUMBNAIL } from '@chapterwise/shared';
import sharp from 'sharp';
import { badRequest, payloadTooLarge, unsupportedMediaType } from '../../lib/errors.js';

const DATA_URL = /^data:([\w.+/-]*)(;[\w-]+=[\w.-]+)*;base64,/i;
/** A 5 MB file is about 7 million characters of base64. */
export const BLOG_IMAGE_MAX_BASE64_CHARS = Math.ceil((BLOG_LIMITS.imageBytes * 4) / 3) + 4;
/** Decoding more pixels than this is refused (a tiny PNG can claim a huge canvas). */
const MAX_INPUT_PIXELS = 40_000_000;
const AUTHOR_PICTURE_PX = 256;

/** Is this picture field a new upload (a base64 `data:` URL)? */
export function isImageUpload(value: string): boolean {
  return value.startsWith('data:');
}

/**
 * Reads an uploaded picture: jpeg, png or webp by content (the declared type counts for
 * nothing), at most 5 MB. `label` names the field in the messages.
 */
async function decodeUpload(dataUrl: string, label: string): Promise<Buffer> {
  const header = DATA_URL.exec(dataUrl);
  if (!header) throw badRequest(`The ${label} must be an uploaded image file.`);
  const base64 = dataUrl.slice(header[0].length);
  const tooLarge = `The ${label} is larger than 5 MB. Please choose a smaller picture.`;
  if (base64.length > BLOG_IMAGE_MAX_BASE64_CHARS) throw payloadTooLarge(tooLarge);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) throw badRequest(`The ${label} file is damaged.`);
  const input = Buffer.from(base64, 'base64');
  if (input.length === 0) throw badRequest(`The ${label} file is empty.`);
  if (input.length > BLOG_LIMITS.imageBytes) throw payloadTooLarge(tooLarge);
  let format: string | undefined;
  try {
    format = (await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()).format;
  } catch {
    format = undefined;
  }
  if (format !== 'jpeg' && format !== 'png' && format !== 'webp') {
    throw unsupportedMediaType(`The ${label} must be a JPEG, PNG or WebP picture.`);
  }
  return input;
}

/**
 * A post's thumbnail from an upload: cropped to 1200×630 (the shape link previews use) and
 * a 480×252 copy for cards, both webp. Re-encoding drops EXIF (location, camera) and anything
 * hidden in the file; the EXIF orientation is applied first.
 */
export async function processThumbnail(dataUrl: string): Promise<{ large: Buffer; small: Buffer }> {
  const input = await decodeUpload(dataUrl, 'thumbnail');
  try {
    return await thumbnailSizes(input);
  } catch {
    throw badRequest('The thumbnail could not be read. Please try another file.');
  }
}

/** Both thumbnail sizes of a picture already checked (uploads, generated sample pictures). */
export async function thumbnailSizes(input: Buffer): Promise<{ large: Buffer; small: Buffer }> {
  const base = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, animated: false }).rotate();
  const [large, small] = await Promise.all([
    base
      .clone()
      .resize(BLOG_THUMBNAIL.width, BLOG_THUMBNAIL.height, { fit: 'cover', position: 'attention' })
      .webp({ quality: 80 })
      .toBuffer(),
    base
      .clone()
      .resize(BLOG_THUMBNAIL.smallWidth, BLOG_THUMBNAIL.smallHeight, {
        fit: 'cover',
        position: 'attention',
      })
      .webp({ quality: 78 })
      .toBuffer(),
  ]);
  return { large, small };
}

/** An author's picture from an upload: a 256 px square webp without metadata. */
export async function processAuthorPicture(dataUrl: string): Promise<Buffer> {
  const input = await decodeUpload(dataUrl, 'author picture');
  try {
    return await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
      .rotate()
      .resize(AUTHOR_PICTURE_PX, AUTHOR_PICTURE_PX, { fit: 'cover', position: 'attention' })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    throw badRequest('The author picture could not be read. Please try another file.');
  }
}
