import { IMAGE_LIMITS } from '@chapterwise/shared';
import sharp, { type Sharp } from 'sharp';

/** The picture formats training photos may come in, told apart by their first bytes. */
export type PhotoFormat = 'jpeg' | 'png' | 'webp' | 'heic';

/** Decoding more pixels than this is refused (a tiny file can claim a huge canvas). */
export const MAX_INPUT_PIXELS = 50_000_000;
/** Training photos are kept at most this many pixels on their long side. */
export const PHOTO_MAX_SIDE = 1536;

const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);

/** What a file is, by its content (its name and declared type count for nothing). */
export function sniffPhoto(bytes: Buffer): PhotoFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return 'jpeg';
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png';
  if (
    bytes.length >= 12 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP'
  )
    return 'webp';
  if (bytes.length >= 12 && bytes.toString('latin1', 4, 8) === 'ftyp') {
    const major = bytes.toString('latin1', 8, 12);
    if (HEIC_BRANDS.has(major)) return 'heic';
    // Compatible brands follow the minor version; AVIF files are not HEIC.
    const boxSize = bytes.readUInt32BE(0);
    for (let at = 16; at + 4 <= Math.min(boxSize, bytes.length, 64); at += 4) {
      const brand = bytes.toString('latin1', at, at + 4);
      if (brand === 'heic' || brand === 'heix') return 'heic';
    }
  }
  return null;
}

export class PhotoError extends Error {
  constructor(
    message: string,
    readonly kind: 'type' | 'damaged' | 'size',
  ) {
    super(message);
    this.name = 'PhotoError';
  }
}

/**
 * Turns an uploaded training photo into what we keep: the EXIF orientation applied, at most
 * 1536 px on its long side, re-encoded as JPEG without any metadata (EXIF, GPS, camera,
 * comments). HEIC (iPhone photos) is decoded with libheif's WebAssembly build, since sharp's
 * own libvips only reads AVIF.
 */
export async function normalisePhoto(bytes: Buffer, fileName: string): Promise<Buffer> {
  if (bytes.length > IMAGE_LIMITS.photoMaxBytes) {
    throw new PhotoError(
      `Photo "${fileName}" is larger than ${IMAGE_LIMITS.photoMaxBytes / 1024 / 1024} MB.`,
      'size',
    );
  }
  const format = sniffPhoto(bytes);
  if (!format) {
    throw new PhotoError(`Photo "${fileName}" is not a JPEG, PNG, HEIC or WebP picture.`, 'type');
  }
  try {
    let image: Sharp;
    if (format === 'heic') {
      const { default: decode } = await import('heic-decode');
      const decoded = await decode({ buffer: bytes });
      if (decoded.width * decoded.height > MAX_INPUT_PIXELS) throw new Error('too many pixels');
      const pixels =
        decoded.data instanceof ArrayBuffer
          ? Buffer.from(decoded.data)
          : Buffer.from(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength);
      image = sharp(pixels, {
        raw: { width: decoded.width, height: decoded.height, channels: 4 },
      });
    } else {
      image = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, animated: false }).rotate();
    }
    return await image
      .resize(PHOTO_MAX_SIDE, PHOTO_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 88, mozjpeg: false })
      .toBuffer();
  } catch {
    throw new PhotoError(
      `Photo "${fileName}" could not be read. Please try another file.`,
      'damaged',
    );
  }
}
