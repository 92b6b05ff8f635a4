import { AVATAR_MAX_BYTES, AVATAR_SIZE_PX } from '@chapterwise/shared';
import sharp from 'sharp';
import { badRequest, payloadTooLarge, unsupportedMediaType } from '../../lib/errors.js';

const DATA_URL = /^data:([\w.+/-]*)(;[\w-]+=[\w.-]+)*;base64,/i;
/** A 5 MB file is about 6.7 million characters of base64. */
export const AVATAR_MAX_BASE64_CHARS = Math.ceil((AVATAR_MAX_BYTES * 4) / 3) + 4;
/** Decoding more pixels than this is refused (a tiny PNG can claim a huge canvas). */
const MAX_INPUT_PIXELS = 40_000_000;

/** Is this `avatar` value a new upload (a base64 `data:` URL)? */
export function isAvatarUpload(value: string): boolean {
  return value.startsWith('data:');
}

/**
 * Turns an uploaded picture into the stored avatar: jpeg, png or webp by content (the
 * declared type and file name count for nothing), at most 5 MB, re-encoded to a 256 px
 * square webp. Re-encoding drops EXIF and every other metadata (location, camera) and
 * anything hidden in the file; the EXIF orientation is applied first.
 */
export async function processAvatar(dataUrl: string): Promise<Buffer> {
  const header = DATA_URL.exec(dataUrl);
  if (!header) throw badRequest('The avatar must be an uploaded image file.');
  const base64 = dataUrl.slice(header[0].length);
  if (base64.length > AVATAR_MAX_BASE64_CHARS) {
    throw payloadTooLarge('The avatar is larger than 5 MB. Please choose a smaller picture.');
  }
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) throw badRequest('The avatar file is damaged.');
  const input = Buffer.from(base64, 'base64');
  if (input.length === 0) throw badRequest('The avatar file is empty.');
  if (input.length > AVATAR_MAX_BYTES) {
    throw payloadTooLarge('The avatar is larger than 5 MB. Please choose a smaller picture.');
  }

  let format: string | undefined;
  try {
    format = (await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()).format;
  } catch {
    format = undefined;
  }
  if (format !== 'jpeg' && format !== 'png' && format !== 'webp') {
    throw unsupportedMediaType('The avatar must be a JPEG, PNG or WebP picture.');
  }
  try {
    return await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
      .rotate()
      .resize(AVATAR_SIZE_PX, AVATAR_SIZE_PX, { fit: 'cover', position: 'attention' })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    throw badRequest('The avatar picture could not be read. Please try another file.');
  }
}
