import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { OFFLINE_PREVIEW_LABEL } from '@chapterwise/shared';
import { LocalImageProvider } from './local.js';
import { illustrationSvg, paletteFor, promptWords, upscaleImage } from './local-render.js';
import { normalisePhoto, PhotoError, sniffPhoto } from './photos.js';
import type { GenerateTask } from './types.js';

const fixtures = path.resolve(import.meta.dirname, '../../test/fixtures/images');
const provider = new LocalImageProvider({ trainingMs: 0 });

function task(overrides: Partial<GenerateTask> = {}): GenerateTask {
  return {
    type: 'generate',
    prompt: 'A lighthouse on a hill by the sea at sunset',
    negativePrompt: '',
    numImages: 1,
    aspectRatio: '1:1',
    width: 1024,
    height: 1024,
    seed: 42,
    model: {
      kind: 'base',
      id: 'base-illustration',
      providerModel: 'x/y',
      styleWords: ['illustration'],
    },
    ...overrides,
  };
}

async function outputsOf(
  result: Awaited<ReturnType<LocalImageProvider['start']>>,
): Promise<Buffer[]> {
  return Promise.all((result.outputs ?? []).map((output) => provider.download(output)));
}

/** A photo of one flat colour, with EXIF (camera and a GPS position) when asked. */
async function photo(
  colour: string,
  format: 'jpeg' | 'png' | 'webp' = 'jpeg',
  exif = false,
): Promise<Buffer> {
  let image = sharp({ create: { width: 320, height: 240, channels: 3, background: colour } });
  if (exif)
    image = image.withExif({
      IFD0: { Make: 'TestCam', Model: 'Secret 1' },
      IFD3: { GPSLatitudeRef: 'N' },
    });
  return image[format]().toBuffer();
}

describe('local image engine: generation', () => {
  it('makes real PNGs of the asked size and number, each labelled offline preview', async () => {
    const result = await provider.start(
      task({ numImages: 2, aspectRatio: '16:9', width: 1024, height: 576 }),
    );
    expect(result.status).toBe('succeeded');
    const images = await outputsOf(result);
    expect(images).toHaveLength(2);
    for (const image of images) {
      const meta = await sharp(image).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 1024, 576]);
    }
    expect(images[0]!.equals(images[1]!)).toBe(false);
    expect(illustrationSvg({ prompt: 'a cat', width: 512, height: 512, seed: 1 })).toContain(
      OFFLINE_PREVIEW_LABEL.toUpperCase(),
    );
  });

  it('is deterministic: the same prompt, model and seed give the same picture', async () => {
    const [a] = await outputsOf(await provider.start(task()));
    const [b] = await outputsOf(await provider.start(task()));
    const [c] = await outputsOf(
      await provider.start(task({ prompt: 'A castle in a snowy forest at night' })),
    );
    expect(a!.equals(b!)).toBe(true);
    expect(a!.equals(c!)).toBe(false);
  });

  it('draws from the words: colours named in the prompt lead the palette, scenes pick layers', async () => {
    expect(promptWords('The RED fox and the blue sea')).toEqual(['red', 'fox', 'blue', 'sea']);
    expect(paletteFor(['red', 'fox'])[0]).toBe('hsl(2 75% 50%)');
    const night = illustrationSvg({ prompt: 'a city at night', width: 800, height: 600, seed: 3 });
    const day = illustrationSvg({ prompt: 'a meadow', width: 800, height: 600, seed: 3 });
    // Stars and windows at night in the city; hills in the meadow.
    expect((night.match(/fill="#fffbe8"/g) ?? []).length).toBeGreaterThan(50);
    expect(night).toContain('fill="#fff3b0"');
    expect(day).not.toContain('#fffbe8');
    expect(day).toContain('<path d="M0 600');
    // A red prompt is red at the top of the picture.
    const [red] = await outputsOf(
      await provider.start(task({ prompt: 'red red red', width: 256, height: 256 })),
    );
    const { dominant } = await sharp(red!)
      .extract({ left: 0, top: 0, width: 256, height: 64 })
      .stats();
    expect(dominant.r).toBeGreaterThan(dominant.g + 60);
  });

  it("a custom model's photo colours lead its pictures", async () => {
    const model = {
      kind: 'custom' as const,
      id: 'm',
      triggerWord: 'zorp',
      subjectClass: 'pet' as const,
      palette: ['#1e7a2e'],
      providerVersion: null,
    };
    const [image] = await outputsOf(
      await provider.start(task({ prompt: 'zorp on a cushion', model, width: 256, height: 256 })),
    );
    const { dominant } = await sharp(image!)
      .extract({ left: 0, top: 0, width: 256, height: 40 })
      .stats();
    expect(dominant.g).toBeGreaterThan(dominant.r + 40);
  });
});

describe('local image engine: upscaling', () => {
  it('really resamples: 2× and 4× change the pixel size, and the result is sharpened', async () => {
    const [image] = await outputsOf(
      await provider.start(task({ width: 256, height: 192, aspectRatio: '4:3' })),
    );
    for (const scale of [2, 4] as const) {
      const result = await provider.start({ type: 'upscale', image: image!, scale });
      const [big] = await outputsOf(result);
      const meta = await sharp(big!).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 256 * scale, 192 * scale]);
    }
    const plain = await sharp(image!).resize(512, 384, { kernel: 'lanczos3' }).raw().toBuffer();
    const { data } = await upscaleImage(image!, 2);
    const sharpened = await sharp(data).removeAlpha().raw().toBuffer();
    expect(sharpened.equals(plain)).toBe(false);
  });

  it('fails the run (not the process) for bytes that are not an image', async () => {
    const result = await provider.start({
      type: 'upscale',
      image: Buffer.from('not a picture'),
      scale: 2,
    });
    expect(result).toMatchObject({ status: 'failed', error: 'The image could not be enlarged.' });
  });
});

describe('local image engine: training', () => {
  it('reports progress, makes a 512 px cover and keeps the photos’ colours', async () => {
    const photos = await Promise.all(
      ['#c81e1e', '#1e3cc8', '#1ec83c', '#c8c81e', '#7a1ec8'].map((c) => photo(c)),
    );
    const progress: number[] = [];
    const result = await provider.start(
      {
        type: 'train',
        modelId: 'm',
        ownerId: 'u',
        name: 'Rex',
        triggerWord: 'rex',
        subjectClass: 'pet',
        photos,
      },
      { onProgress: (p) => void progress.push(p) },
    );
    expect(result.status).toBe('succeeded');
    expect(progress.at(-1)).toBe(100);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    const cover = await sharp(result.cover!).metadata();
    expect([cover.format, cover.width, cover.height]).toEqual(['jpeg', 512, 512]);
    expect(result.palette).toHaveLength(5);
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(result.palette![0]!.slice(i, i + 2), 16));
    expect(r).toBeGreaterThan(150);
    expect(g! + b!).toBeLessThan(120);
  });
});

describe('training photos', () => {
  it('tells formats apart by content, whatever the name says', async () => {
    expect(sniffPhoto(await photo('#888888', 'jpeg'))).toBe('jpeg');
    expect(sniffPhoto(await photo('#888888', 'png'))).toBe('png');
    expect(sniffPhoto(await photo('#888888', 'webp'))).toBe('webp');
    expect(sniffPhoto(readFileSync(path.join(fixtures, 'sample.heic')))).toBe('heic');
    expect(sniffPhoto(Buffer.from('hello, I am a text file named photo.jpg'))).toBeNull();
    const avif = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .avif()
      .toBuffer();
    expect(sniffPhoto(avif)).toBeNull();
  });

  it('re-encodes to JPEG without EXIF, reads HEIC, and refuses text and oversized files', async () => {
    const withExif = await photo('#336699', 'jpeg', true);
    expect((await sharp(withExif).metadata()).exif).toBeDefined();
    const clean = await normalisePhoto(withExif, 'camera.jpg');
    const meta = await sharp(clean).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    expect(clean.includes(Buffer.from('TestCam'))).toBe(false);

    const heic = await normalisePhoto(
      readFileSync(path.join(fixtures, 'sample.heic')),
      'iphone.heic',
    );
    expect((await sharp(heic).metadata()).format).toBe('jpeg');

    await expect(normalisePhoto(Buffer.from('just text'), 'notes.jpg')).rejects.toThrow(
      'Photo "notes.jpg" is not a JPEG, PNG, HEIC or WebP picture.',
    );
    const huge = Buffer.alloc(16 * 1024 * 1024);
    await expect(normalisePhoto(huge, 'huge.jpg')).rejects.toBeInstanceOf(PhotoError);
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100)]);
    await expect(normalisePhoto(broken, 'broken.jpg')).rejects.toThrow('could not be read');
  });
});
