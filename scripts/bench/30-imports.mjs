// File import: OCR time for one page photo, parse times for a 20-page Word document and a
// 20-slide presentation (the parsers in their worker thread, as the server runs them), then
// the same calls over HTTP against the built server.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = (file) =>
  pathToFileURL(path.join(import.meta.dirname, '../../apps/server/dist', file)).href;
const fixtures = path.join(import.meta.dirname, '../../apps/server/src/modules/imports/fixtures');
const fixture = (name) => readFileSync(path.join(fixtures, name));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mb = (bytes) => bytes / (1024 * 1024);

/** Wall time, and CPU time of this whole process (every thread), of one call. */
async function time(fn) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await fn();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, result };
}

/** A photographed A4 page: ~35 lines of 11 pt print, slightly turned, soft, noisy, 9 MP. */
async function pagePhoto(sharp) {
  const words =
    'the water cycle moves water between oceans air and land when the sun warms a lake some water evaporates and rises as vapour which cools into droplets that gather as clouds until they fall again as rain snow or hail'.split(
      ' ',
    );
  const lines = [];
  for (let i = 0; i < 36; i++) {
    const line = [];
    for (let w = 0; w < 12; w++) line.push(words[(i * 7 + w * 3) % words.length]);
    lines.push(line.join(' '));
  }
  const width = 2480;
  const height = 3508;
  const text = lines
    .map(
      (line, i) =>
        `<text x="220" y="${360 + i * 82}" font-family="DejaVu Serif" font-size="46" fill="#1d1d1d">${line}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#f4f0e6"/><text x="220" y="220" font-family="DejaVu Serif" font-size="72" fill="#111">Chapter 4: The Water Cycle</text>${text}</svg>`;
  return sharp(Buffer.from(svg))
    .rotate(-1.5, { background: '#5b4a3a' })
    .blur(0.8)
    .jpeg({ quality: 82 })
    .toBuffer();
}

/** A 20-page lesson made with the docx package: headings, paragraphs, a list and a table per page. */
async function twentyPageDocx(docx) {
  const { Document, Packer, Paragraph, HeadingLevel, PageBreak, Table, TableRow, TableCell } = docx;
  const children = [];
  const sentence =
    'Forces change how objects move: a push or a pull can start, stop, speed up, slow down or turn a moving object. ';
  for (let page = 1; page <= 20; page++) {
    children.push(
      new Paragraph({ text: `Part ${page}: forces and motion`, heading: HeadingLevel.HEADING_1 }),
    );
    for (let p = 0; p < 5; p++) children.push(new Paragraph(sentence.repeat(4)));
    for (let b = 0; b < 4; b++) {
      children.push(
        new Paragraph({ text: `Key idea ${b + 1} of part ${page}.`, bullet: { level: 0 } }),
      );
    }
    children.push(
      new Table({
        rows: [0, 1, 2].map(
          (r) =>
            new TableRow({
              children: [0, 1].map(
                (c) => new TableCell({ children: [new Paragraph(`cell ${r}-${c}`)] }),
              ),
            }),
        ),
      }),
    );
    if (page < 20) children.push(new Paragraph({ children: [new PageBreak()] }));
  }
  return Packer.toBuffer(new Document({ sections: [{ children }] }));
}

export default async function imports(kit) {
  const { loadavg, availableParallelism } = await import('node:os');
  kit.figure(
    'machine load (1 min average) / cores',
    `${loadavg()[0].toFixed(1)} / ${availableParallelism()}`,
    '',
  );
  const { default: sharp } = await import('sharp');
  const docx = await import('docx');
  const { TesseractOcr } = await import(dist('providers/ocr/tesseract-ocr.js'));
  const { WorkerOfficeProvider } = await import(dist('providers/office/worker-office-provider.js'));
  const { SofficeConverter } = await import(dist('providers/office/soffice.js'));
  const { loadConfig } = await import(dist('config.js'));
  const logger = { error() {}, warn() {}, info() {}, debug() {} };

  const page = await pagePhoto(sharp);
  const lessonDocx = await twentyPageDocx(docx);
  const deck = fixture('bench-20-slides.pptx');

  // --- OCR, in this process, through the same provider the server uses.
  const ocr = new TesseractOcr({ logger });
  const cold = await time(() => ocr.transcribe(page));
  kit.figure('OCR, first page (engine start included)', cold.ms / 1000, 's');
  const warm = [];
  const warmCpu = [];
  for (let i = 0; i < 3; i++) {
    const run = await time(() => ocr.transcribe(page));
    warm.push(run.ms);
    warmCpu.push(run.cpuMs);
  }
  kit.figure('OCR, one page photo, 9 MP (median of 3)', median(warm) / 1000, 's', '< 3 s');
  kit.figure('  CPU time for it, all threads', median(warmCpu) / 1000, 's');
  const words = cold.result.text.split(/\s+/).length;
  kit.figure('  words read from that page', words, 'words');
  const phone = [];
  for (let i = 0; i < 3; i++)
    phone.push((await time(() => ocr.transcribe(fixture('photo.jpg')))).ms);
  kit.figure('OCR, half-page phone photo fixture (median of 3)', median(phone) / 1000, 's');
  await ocr.close();

  // --- Parsing, in the worker thread.
  const office = new WorkerOfficeProvider({ soffice: null, logger });
  const first = await time(() => office.extract(lessonDocx, 'docx'));
  kit.figure('parse, first document (thread start included)', first.ms, 'ms');
  const measure = async (label, bytes, format, goal) => {
    const runs = [];
    let text = '';
    for (let i = 0; i < 5; i++) {
      const run = await time(() => office.extract(bytes, format));
      runs.push(run.ms);
      text = run.result.text;
    }
    kit.figure(`${label} (median of 5)`, median(runs), 'ms', goal);
    return text;
  };
  const docxText = await measure('parse .docx, 20 pages', lessonDocx, 'docx', '< 300 ms');
  kit.figure('  characters from that .docx', docxText.length, 'chars');
  const deckText = await measure('parse .pptx, 20 slides', deck, 'pptx', '< 300 ms');
  kit.figure(
    '  slides found in that .pptx',
    (deckText.match(/^Slide \d+$/gm) ?? []).length,
    'slides',
  );
  await measure('parse .pdf, 2 pages', fixture('lesson.pdf'), 'pdf');
  await measure('parse .xlsx, 2 sheets', fixture('planets.xlsx'), 'xlsx');
  await measure('parse .doc', fixture('lesson.doc'), 'doc');

  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: kit.tmpDir(),
    JWT_SECRET: 'x'.repeat(32),
    PATH: process.env.PATH,
  });
  if (config.sofficePath) {
    const soffice = new SofficeConverter(config.sofficePath);
    const convertFirst = await time(() => soffice.convert(fixture('deck.ppt'), 'ppt'));
    const convertNext = await time(() => soffice.convert(fixture('deck.ppt'), 'ppt'));
    kit.figure(
      '.ppt → .pptx with LibreOffice, first / next',
      `${(convertFirst.ms / 1000).toFixed(1)} / ${(convertNext.ms / 1000).toFixed(1)}`,
      's',
    );
    await soffice.close();
  } else {
    console.log('  LibreOffice is not installed: .ppt/.xls conversion not measured');
  }

  // --- Hostile files: memory of this process before and after reading each one 5 times.
  const { detectFileType } = await import(dist('modules/imports/detect-file-type.js'));
  const before = process.memoryUsage().rss;
  for (let i = 0; i < 5; i++) {
    for (const name of ['bomb.docx', 'xxe.docx', 'truncated.docx', 'encrypted.pdf']) {
      const bytes = fixture(name);
      const detected = detectFileType(bytes);
      if (detected.kind === 'document')
        await office.extract(bytes, detected.format).catch(() => undefined);
    }
  }
  kit.figure('RSS growth, 20 hostile documents', mb(process.memoryUsage().rss - before), 'MB');
  await office.close();

  // --- Over HTTP, against the built server, as a teacher's browser sends them.
  const dataDir = kit.tmpDir();
  const { openDatabase } = await import(dist('db/client.js'));
  const { users } = await import(dist('db/schema/index.js'));
  const { TokenService } = await import(dist('lib/tokens.js'));
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
  await database.migrate();
  const [user] = await database.db
    .insert(users)
    .values({
      username: 'bench_teacher',
      email: 'bench@example.org',
      passwordHash: 'x',
      firstName: 'Bench',
      lastName: 'Teacher',
    })
    .returning();
  await database.close();
  const secret = 'bench-secret-that-is-at-least-32-characters';
  const token = await new TokenService(secret).sign({ sub: user.id, ver: user.tokenVersion }, 3600);
  const server = await kit.startServer({
    dataDir,
    env: { SEED_ON_START: 'false', JWT_SECRET: secret },
  });
  const post = async (route, body) => {
    const res = await fetch(`${server.url}/api/v1/materials/${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${route}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  // The server warms its OCR engine and parsing thread after it starts; let that finish.
  await new Promise((resolve) => setTimeout(resolve, 6000));
  const httpDocx = [];
  for (let i = 0; i < 5; i++) {
    httpDocx.push(
      (
        await time(() =>
          post('parseoffice', { file: lessonDocx.toString('base64'), fileName: 'lesson.docx' }),
        )
      ).ms,
    );
  }
  kit.figure('POST parseoffice, 20-page .docx (median of 5)', median(httpDocx), 'ms', '< 300 ms');
  const httpDeck = [];
  for (let i = 0; i < 5; i++) {
    httpDeck.push(
      (
        await time(() =>
          post('parseoffice', { file: deck.toString('base64'), fileName: 'deck.pptx' }),
        )
      ).ms,
    );
  }
  kit.figure('POST parseoffice, 20-slide .pptx (median of 5)', median(httpDeck), 'ms', '< 300 ms');
  const httpOcr = [];
  for (let i = 0; i < 3; i++) {
    httpOcr.push(
      (
        await time(() =>
          post('transcribeimage', { image: `data:image/jpeg;base64,${page.toString('base64')}` }),
        )
      ).ms,
    );
  }
  kit.figure(
    'POST transcribeimage, one page photo (median of 3)',
    median(httpOcr) / 1000,
    's',
    '< 3 s',
  );
  await server.stop();
}
