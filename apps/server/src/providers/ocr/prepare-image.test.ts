import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { estimateSkew, prepareImageForOcr, splitIntoStrips, toPgm } from './prepare-image.js';

/** A printed page: `lines` lines of text, optionally turned by `angle` degrees. */
async function page(lines: number, angle = 0): Promise<Buffer> {
  const text = Array.from(
    { length: lines },
    (_, i) =>
      `<text x="120" y="${200 + i * 70}" font-family="DejaVu Serif" font-size="40">Line ${i + 1}: water moves between the oceans, the air and the land.</text>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1700" height="2400"><rect width="100%" height="100%" fill="#fff"/>${text}</svg>`;
  return sharp(Buffer.from(svg)).rotate(angle, { background: '#fff' }).png().toBuffer();
}

describe('preparing images for OCR', () => {
  it('gives an upright grey image scaled to a readable size', async () => {
    // Stored sideways with EXIF orientation 6, as phones do.
    const sideways = await sharp(await page(10))
      .rotate(-90)
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const prepared = await prepareImageForOcr(sideways);
    expect(prepared.height).toBeGreaterThan(prepared.width);
    expect(Math.max(prepared.width, prepared.height)).toBe(2000);
    expect(prepared.pixels.length).toBe(prepared.width * prepared.height);
    const header = `P5\n${prepared.width} ${prepared.height}\n255\n`;
    const pgm = toPgm(prepared);
    expect(pgm.subarray(0, header.length).toString('latin1')).toBe(header);
    expect(pgm.length).toBe(header.length + prepared.pixels.length);
  });

  it('cuts a full page between two lines of text, never through one', async () => {
    const prepared = await prepareImageForOcr(await page(30));
    const strips = splitIntoStrips(prepared, 2);
    expect(strips).toHaveLength(2);
    const cut = strips[0]!.height;
    expect(cut).toBeGreaterThan(prepared.height * 0.35);
    expect(cut).toBeLessThan(prepared.height * 0.65);
    const row = prepared.pixels.subarray(cut * prepared.width, (cut + 1) * prepared.width);
    expect(row.every((value) => value >= 128)).toBe(true);
    expect(strips[0]!.height + strips[1]!.height).toBe(prepared.height);
  });

  it('keeps a page whole when no gap runs across it, and small images whole', async () => {
    const slanted = await prepareImageForOcr(await page(30, 12));
    expect(splitIntoStrips(slanted, 2)).toHaveLength(1);
    const small = await prepareImageForOcr(
      await sharp(await page(30))
        .resize(400)
        .toBuffer(),
    );
    expect(splitIntoStrips(small, 2)).toHaveLength(1);
  });
});

describe('levelling tilted text', () => {
  it.each([3, -2, 1.5])('finds a page turned by %s° and turns it back', async (angle) => {
    const turned = await sharp(await page(30))
      .rotate(angle, { background: '#fff' })
      .png()
      .toBuffer();
    const plain = await sharp(turned)
      .greyscale()
      .toColourspace('b-w')
      .raw()
      .toBuffer({ resolveWithObject: true });
    const found = estimateSkew({
      pixels: plain.data,
      width: plain.info.width,
      height: plain.info.height,
    });
    expect(Math.abs(found + angle)).toBeLessThanOrEqual(0.3);
  });

  it('so a tilted photo of a page can still be read in two strips', async () => {
    const turned = await sharp(await page(30))
      .rotate(2, { background: '#5b4a3a' })
      .jpeg()
      .toBuffer();
    const prepared = await prepareImageForOcr(turned);
    expect(splitIntoStrips(prepared, 2)).toHaveLength(2);
  });
});
