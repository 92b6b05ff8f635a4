import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Document, Packer, Paragraph } from 'docx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE_TEXT_MAX_CHARS } from '@chapterwise/shared';
import { readZipDirectory } from '../../providers/office/zip-inspect.js';
import { createTestApp, createUser, type TestApp } from '../../test/helpers.js';

const fixtures = path.join(import.meta.dirname, 'fixtures');
const fixture = (name: string) => readFileSync(path.join(fixtures, name));
const b64 = (bytes: Buffer) => bytes.toString('base64');

describe('file import', () => {
  let t: TestApp;
  let auth: { authorization: string };

  const parse = (bytes: Buffer, fileName?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/materials/parseoffice',
      headers: auth,
      payload: { file: b64(bytes), fileName },
    });
  const transcribe = (bytes: Buffer) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/materials/transcribeimage',
      headers: auth,
      payload: { image: b64(bytes) },
    });
  const textOf = async (bytes: Buffer, fileName: string) => {
    const res = await parse(bytes, fileName);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ wasSuccessful: true, truncated: false });
    return res.json().text as string;
  };

  beforeAll(async () => {
    t = await createTestApp();
    ({ auth } = await createUser(t.app));
  });
  afterAll(() => t.close());

  describe('who may import', () => {
    it('asks visitors to log in before reading the body', async () => {
      for (const url of ['/api/v1/materials/parseoffice', '/api/v1/materials/transcribeimage']) {
        const res = await t.app.inject({ method: 'POST', url, payload: { file: 'eA==' } });
        expect(res.statusCode).toBe(401);
        expect(res.json().errors).toEqual({
          message: 'Please log in to continue.',
          code: 'UNAUTHORIZED',
        });
      }
    });

    it('names the missing field', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/materials/parseoffice',
        headers: auth,
        payload: { fileName: 'x.docx' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.message).toContain('file');
    });
  });

  describe('documents', () => {
    const lessonLines = [
      'The Water Cycle',
      'Water moves between the oceans, the air and the land in a never-ending loop called the water cycle.',
      'The sun warms the surface of lakes and oceans. Some of the water turns into an invisible gas called water vapour.',
      'Question: Where does the water in a puddle go on a sunny day?',
    ];

    it('reads a Word document (docx package): headings, paragraphs, list items, table rows', async () => {
      const text = await textOf(fixture('lesson.docx'), 'lesson.docx');
      for (const line of lessonLines) expect(text).toContain(line);
      expect(text).toContain('- Evaporation turns liquid into gas.');
      expect(text).toContain('Word | Meaning\nVapour | Water in the form of a gas');
      // Running header and page-number footer are page furniture, not lesson text.
      expect(text).not.toContain('Grade 5 Science Unit 4');
      expect(text).not.toMatch(/Page \d/);
    });

    it('reads a Word 97-2003 .doc (saved by LibreOffice)', async () => {
      const text = await textOf(fixture('lesson.doc'), 'lesson.doc');
      for (const line of lessonLines) expect(text).toContain(line);
      expect(text).toContain('Vapour | Water in the form of a gas');
    });

    it('reads an OpenDocument text', async () => {
      const text = await textOf(fixture('lesson.odt'), 'lesson.odt');
      for (const line of lessonLines) expect(text).toContain(line);
      expect(text).toContain('Runoff | Water that flows over the ground');
    });

    it('reads a PDF, flowing wrapped lines and dropping running headers and page numbers', async () => {
      const text = await textOf(fixture('lesson.pdf'), 'lesson.pdf');
      for (const line of lessonLines) expect(text).toContain(line);
      expect(text).toContain('- Condensation turns gas into liquid.');
      expect(text).not.toContain('Grade 5 Science Unit 4');
      expect(text).not.toMatch(/Page \d/);
    });

    const deckChecks = (text: string) => {
      const slides = [1, 2, 3].map((n) => text.indexOf(`Slide ${n}\n`));
      expect(slides.every((at) => at >= 0)).toBe(true);
      expect([...slides].sort((a, b) => a - b)).toEqual(slides);
      expect(text).toContain(
        'Slide 1\nThe Solar System\nEight planets travel around the Sun.\nEarth is the third planet.\nNotes: Ask the class to name the planets they already know.',
      );
      expect(text).toContain('Slide 3\nOuter Planets\nJupiter, Saturn, Uranus and Neptune');
    };

    it('reads a PowerPoint presentation with slides in order and speaker notes', async () => {
      deckChecks(await textOf(fixture('deck.pptx'), 'deck.pptx'));
    });

    it('reads an OpenDocument presentation', async () => {
      deckChecks(await textOf(fixture('deck.odp'), 'deck.odp'));
    });

    const sheetChecks = (text: string) => {
      expect(text).toContain(
        'Sheet: Planets\nPlanet | Moons | Distance from Sun (million km)\nMercury | 0 | 57.9\nVenus | 0 | 108.2\nEarth | 1 | 149.6\nMars | 2 | 227.9',
      );
      expect(text).toContain(
        'Sheet: Vocabulary\nTerm | Definition\nOrbit | The curved path of a planet around a star',
      );
      expect(text.indexOf('Sheet: Planets')).toBeLessThan(text.indexOf('Sheet: Vocabulary'));
    };

    it('reads an Excel workbook: each sheet, rows with cell separators', async () => {
      sheetChecks(await textOf(fixture('planets.xlsx'), 'planets.xlsx'));
    });

    it('reads an OpenDocument spreadsheet', async () => {
      sheetChecks(await textOf(fixture('planets.ods'), 'planets.ods'));
    });

    it('says what to do with a scanned PDF that has no text', async () => {
      const res = await parse(fixture('scanned.pdf'), 'scanned.pdf');
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.message).toBe(
        'No text was found in this PDF. If it is a scan, save its pages as JPEG or PNG images and import those instead.',
      );
    });

    it('decides the type from the content, not the name', async () => {
      const text = await textOf(fixture('planets.xlsx'), 'renamed.pdf');
      expect(text).toContain('Sheet: Planets');
    });

    it('accepts a data URL as browsers make it', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/materials/parseoffice',
        headers: auth,
        payload: {
          file: `data:application/vnd.openxmlformats-officedocument.wordprocessingml.document;base64,${b64(fixture('lesson.docx'))}`,
          fileName: 'lesson.docx',
        },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().text).toContain('The Water Cycle');
    });

    it('caps the text at the reference-text limit and says so', async () => {
      const sentence = 'Plants need light, water and air to grow well in a classroom. ';
      const paragraphs = Array.from(
        { length: 400 },
        (_, i) => new Paragraph(`${i + 1}. ${sentence.repeat(10)}`),
      );
      const long = await Packer.toBuffer(new Document({ sections: [{ children: paragraphs }] }));
      const res = await parse(long, 'long.docx');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.truncated).toBe(true);
      expect(body.text.length).toBeLessThanOrEqual(REFERENCE_TEXT_MAX_CHARS);
      expect(body.text.length).toBeGreaterThan(REFERENCE_TEXT_MAX_CHARS - 2000);
      expect(body.text.endsWith('.')).toBe(true);
      expect(body.message).toBe(
        'The text was longer than 200,000 characters, the most a reference text can hold, so only the beginning was kept.',
      );
    });
  });

  describe('old PowerPoint and Excel files (LibreOffice)', () => {
    it('converts .ppt and .xls when soffice is installed, else a 415 that says why', async () => {
      const ppt = await parse(fixture('deck.ppt'), 'deck.ppt');
      const xls = await parse(fixture('planets.xls'), 'planets.xls');
      if (t.config.sofficePath) {
        expect(ppt.statusCode, ppt.body).toBe(200);
        expect(ppt.json().text).toContain(
          'Slide 2\nInner Planets\nMercury, Venus, Earth and Mars are rocky.',
        );
        expect(xls.statusCode, xls.body).toBe(200);
        expect(xls.json().text).toContain('Mercury | 0 | 57.9');
      } else {
        expect(ppt.statusCode).toBe(415);
        expect(ppt.json().errors.message).toContain('need LibreOffice on the server');
        expect(xls.statusCode).toBe(415);
        expect(xls.json().errors.message).toContain('need LibreOffice on the server');
      }
    }, 180_000);

    it('without LibreOffice, a .ppt gets a 415 naming what the server lacks', async () => {
      const bare = await createTestApp({ SOFFICE_PATH: 'off' });
      try {
        const { auth: bareAuth } = await createUser(bare.app);
        const res = await bare.app.inject({
          method: 'POST',
          url: '/api/v1/materials/parseoffice',
          headers: bareAuth,
          payload: { file: b64(fixture('deck.ppt')), fileName: 'deck.ppt' },
        });
        expect(res.statusCode).toBe(415);
        expect(res.json().errors).toEqual({
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message:
            'PowerPoint 97-2003 (.ppt) files need LibreOffice on the server, which is not installed here. Save the file as .pptx and import that instead.',
        });
      } finally {
        await bare.close();
      }
    });
  });

  describe('images (OCR)', () => {
    it('reads a phone photo of a printed page: upright from EXIF, hyphenated words joined', async () => {
      const res = await transcribe(fixture('photo.jpg'));
      expect(res.statusCode, res.body).toBe(200);
      const { text } = res.json();
      expect(text).toContain('Chapter 3: How Plants Make Food');
      expect(text).toContain(
        'Green plants capture energy from sunlight and use it to turn water and carbon dioxide into sugar. This process is called photosynthesis, and it takes place in the leaves.',
      );
      expect(text).toContain('Oxygen is released into the air as a by-product');
    }, 60_000);

    it('reads a PNG scan, also when it is sent to parseoffice', async () => {
      const direct = await transcribe(fixture('scan.png'));
      expect(direct.statusCode, direct.body).toBe(200);
      expect(direct.json().text).toBe(
        'Worksheet: Fractions\n\nOne half is the same as two quarters.',
      );
      const viaOffice = await parse(fixture('scan.png'), 'scan.png');
      expect(viaOffice.json().text).toBe(direct.json().text);
    }, 60_000);

    it('a document sent as an image is a 415', async () => {
      const res = await transcribe(fixture('lesson.docx'));
      expect(res.statusCode).toBe(415);
      expect(res.json().errors.message).toContain('not a JPEG or PNG image');
    });
  });

  describe('hostile files', () => {
    /** bomb.docx with both size fields of its body claiming 1 KB: only real byte counts catch it. */
    const lyingBomb = () => {
      const bytes = Buffer.from(fixture('bomb.docx'));
      const entries = readZipDirectory(bytes, 10);
      const body = entries.find((entry) => entry.name === 'word/document.xml')!;
      bytes.writeUInt32LE(1024, body.localHeaderOffset + 22);
      const central = bytes.indexOf(Buffer.from('word/document.xml'), bytes.length - 200) - 46;
      bytes.writeUInt32LE(1024, central + 24);
      return bytes;
    };

    const cases: Array<{ name: string; bytes: () => Buffer; status: number; message: RegExp }> = [
      {
        name: 'a zip bomb',
        bytes: () => fixture('bomb.docx'),
        status: 413,
        message:
          /^This file would unpack to 150 MB, \d+ times its own size; real documents are never packed that tightly\. It looks like a zip bomb, so it was refused\.$/,
      },
      {
        name: 'a zip bomb that lies about its sizes',
        bytes: lyingBomb,
        status: 413,
        message: /looks like a zip bomb/,
      },
      {
        name: 'XML with an external entity',
        bytes: () => fixture('xxe.docx'),
        status: 400,
        message: /XML entity declarations \(a DOCTYPE\).*refused for safety/,
      },
      {
        name: 'a renamed executable',
        bytes: () => fixture('homework.docx'),
        status: 415,
        message:
          /^This file is named like a Word document, but its content is a program \(an executable file\)\. Only JPEG or PNG images/,
      },
      {
        name: 'a truncated docx',
        bytes: () => fixture('truncated.docx'),
        status: 400,
        message: /damaged or incomplete \(it may have been cut off while downloading\)/,
      },
      {
        name: 'an encrypted PDF',
        bytes: () => fixture('encrypted.pdf'),
        status: 400,
        message: /^This PDF is password-protected\./,
      },
      {
        name: 'a 1×1 image',
        bytes: () => fixture('pixel.png'),
        status: 400,
        message: /^This image is only 1 × 1 pixels, too small to hold readable text\./,
      },
      {
        name: 'a 40-megapixel image',
        bytes: () => fixture('huge.jpg'),
        status: 413,
        message:
          /^This image is 8000 × 5000 pixels \(40\.0 megapixels\); the most it can have is 32 megapixels\./,
      },
      {
        name: 'an empty file',
        bytes: () => fixture('empty.docx'),
        status: 400,
        message: /^This file is empty \(0 bytes\)/,
      },
      {
        name: 'a file over 15 MB',
        bytes: () => Buffer.alloc(16 * 1024 * 1024, 7),
        status: 413,
        message: /^This file is 16 MB; files can be at most 15 MB each\.$/,
      },
    ];

    for (const c of cases) {
      it(`refuses ${c.name} with a clear ${c.status}`, async () => {
        const res = await parse(c.bytes(), 'homework.docx');
        expect(res.statusCode, res.body).toBe(c.status);
        expect(res.json().errors.message).toMatch(c.message);
      });
    }

    it('refuses text that is not base64, and a body over 40 MB before reading it', async () => {
      const junk = await t.app.inject({
        method: 'POST',
        url: '/api/v1/materials/parseoffice',
        headers: auth,
        payload: { file: '<html>not base64</html>' },
      });
      expect(junk.statusCode).toBe(400);
      expect(junk.json().errors.message).toBe(
        'Invalid field "file": the file must be sent as base64.',
      );
      const huge = await t.app.inject({
        method: 'POST',
        url: '/api/v1/materials/transcribeimage',
        headers: { ...auth, 'content-type': 'application/json' },
        payload: `{"image":"${'A'.repeat(56 * 1024 * 1024)}"}`,
      });
      expect(huge.statusCode).toBe(413);
      expect(huge.json().errors).toEqual({
        code: 'PAYLOAD_TOO_LARGE',
        message:
          'This upload is larger than 40 MB. Each request can carry at most 40 MB, and each file at most 15 MB.',
      });
    });

    it('stays up and keeps memory bounded under repeated hostile files', async () => {
      const runAll = async () => {
        // A teacher per pass: this is about memory, not the rate limit.
        const { auth: attacker } = await createUser(t.app);
        for (const c of cases) {
          const res = await t.app.inject({
            method: 'POST',
            url: '/api/v1/materials/parseoffice',
            headers: attacker,
            payload: { file: b64(c.bytes()), fileName: 'attack.docx' },
          });
          expect(res.statusCode).toBe(c.status);
        }
      };
      // Two warm-up passes let the parse thread and the allocator reach their working size;
      // after that, more passes must not keep growing the process. The bound is loose on
      // purpose: RSS also moves with garbage-collection timing and the other test files
      // running beside this one (the parse thread's own heap is capped at 384 MB).
      await runAll();
      await runAll();
      const before = process.memoryUsage().rss;
      for (let i = 0; i < 4; i++) await runAll();
      const growth = (process.memoryUsage().rss - before) / (1024 * 1024);
      console.info(
        `RSS ${Math.round(before / 2 ** 20)} MB after two passes of hostile files, +${growth.toFixed(0)} MB after four more`,
      );
      expect(growth).toBeLessThan(200);
      // Still serving, and still reading real files.
      expect((await t.app.inject('/healthz')).statusCode).toBe(200);
      const { auth: teacher } = await createUser(t.app);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/materials/parseoffice',
        headers: teacher,
        payload: { file: b64(fixture('deck.pptx')), fileName: 'deck.pptx' },
      });
      expect(res.json().text).toContain('The Solar System');
    }, 120_000);

    it('limits each teacher to 40 imports a minute', async () => {
      const { auth: busy } = await createUser(t.app);
      const codes: number[] = [];
      for (let i = 0; i < 41; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/materials/parseoffice',
          headers: busy,
          payload: { file: '', fileName: 'x.docx' },
        });
        codes.push(res.statusCode);
      }
      expect(codes.slice(0, 40).every((code) => code === 400)).toBe(true);
      expect(codes[40]).toBe(429);
      // Another teacher is not affected.
      const { auth: other } = await createUser(t.app);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/materials/parseoffice',
        headers: other,
        payload: { file: b64(fixture('planets.xlsx')), fileName: 'planets.xlsx' },
      });
      expect(res.statusCode).toBe(200);
    });
  });
});
