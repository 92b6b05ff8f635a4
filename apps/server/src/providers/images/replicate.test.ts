import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { imagePredictions, users } from '../../db/schema/index.js';
import { createTestApp, createUser, type TestApp } from '../../test/helpers.js';
import { ReplicateImageProvider } from './replicate.js';
import { ImageProviderError, ImageWebhookError } from './types.js';

/* ------------------------------------------------------------------------------------------- */
/* A fake Replicate API: predictions, trainings, files, models, outputs.                        */
/* ------------------------------------------------------------------------------------------- */

const TOKEN = 'r8_test_token_123456';
const SECRET = `whsec_${Buffer.from('a-test-webhook-secret-of-32-bytes!').toString('base64')}`;

interface FakeRun {
  id: string;
  kind: 'prediction' | 'training';
  status: string;
  body: Record<string, unknown>;
  output?: unknown;
  error?: string;
}

const fake = {
  server: undefined as Server | undefined,
  base: '',
  runs: new Map<string, FakeRun>(),
  files: new Map<string, Buffer>(),
  models: new Set<string>(),
  requests: [] as { method: string; path: string; auth: string | undefined }[],
  throttleNext: 0,
  refuseNext: false,
  png: Buffer.alloc(0),
};

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function runJson(run: FakeRun) {
  const kind = run.kind === 'training' ? 'trainings' : 'predictions';
  return {
    id: run.id,
    status: run.status,
    input: run.body.input,
    output: run.output ?? null,
    error: run.error ?? null,
    urls: {
      get: `${fake.base}/v1/${kind}/${run.id}`,
      cancel: `${fake.base}/v1/${kind}/${run.id}/cancel`,
    },
  };
}

beforeAll(async () => {
  fake.png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
  fake.server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const path = url.pathname;
    fake.requests.push({ method: request.method ?? '', path, auth: request.headers.authorization });
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const body = await readBody(request);
    if (path.startsWith('/out/')) {
      response.writeHead(200, { 'content-type': 'image/png' });
      response.end(fake.png);
      return;
    }
    if (request.headers.authorization !== `Bearer ${TOKEN}`)
      return send(401, { detail: 'Unauthenticated' });
    if (fake.throttleNext > 0) {
      fake.throttleNext -= 1;
      return send(429, { detail: 'Request was throttled.', status: 429, retry_after: 0.05 });
    }
    if (request.method === 'POST' && path === '/v1/files') {
      const id = randomUUID();
      const form = await new Response(body, {
        headers: { 'content-type': request.headers['content-type'] ?? '' },
      }).formData();
      const content = form.get('content') as Blob;
      fake.files.set(id, Buffer.from(await content.arrayBuffer()));
      return send(201, { id, urls: { get: `${fake.base}/v1/files/${id}` } });
    }
    let m = /^\/v1\/files\/([\w-]+)$/.exec(path);
    if (m && request.method === 'GET') {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.end(fake.files.get(m[1]!));
      return;
    }
    m = /^\/v1\/models\/([\w.-]+)\/([\w.-]+)$/.exec(path);
    if (m && request.method === 'GET') {
      return fake.models.has(`${m[1]}/${m[2]}`)
        ? send(200, { owner: m[1], name: m[2] })
        : send(404, { detail: 'Not found' });
    }
    if (path === '/v1/models' && request.method === 'POST') {
      const json = JSON.parse(body.toString()) as {
        owner: string;
        name: string;
        visibility: string;
      };
      expect(json.visibility).toBe('private');
      fake.models.add(`${json.owner}/${json.name}`);
      return send(201, json);
    }
    const create = (kind: FakeRun['kind']) => {
      const json = JSON.parse(body.toString()) as Record<string, unknown>;
      if (fake.refuseNext) {
        fake.refuseNext = false;
        return send(422, {
          detail: '- input.prompt: String too long',
          status: 422,
          title: 'Input validation failed',
        });
      }
      const run: FakeRun = {
        id: `r${randomUUID().slice(0, 8)}`,
        kind,
        status: 'starting',
        body: json,
      };
      fake.runs.set(run.id, run);
      return send(201, runJson(run));
    };
    if (
      request.method === 'POST' &&
      (path === '/v1/predictions' || /^\/v1\/models\/[\w.-]+\/[\w.-]+\/predictions$/.test(path))
    )
      return create('prediction');
    if (
      request.method === 'POST' &&
      /^\/v1\/models\/[\w.-]+\/[\w.-]+\/versions\/\w+\/trainings$/.test(path)
    )
      return create('training');
    m = /^\/v1\/(predictions|trainings)\/(\w+)(\/cancel)?$/.exec(path);
    if (m) {
      const run = fake.runs.get(m[2]!);
      if (!run) return send(404, { detail: 'Not found' });
      if (m[3] && request.method === 'POST') {
        if (!['succeeded', 'failed'].includes(run.status)) run.status = 'canceled';
        return send(200, runJson(run));
      }
      return send(200, runJson(run));
    }
    send(404, { detail: 'Not found' });
  });
  await new Promise<void>((resolve) => fake.server!.listen(0, '127.0.0.1', resolve));
  fake.base = `http://127.0.0.1:${(fake.server!.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => fake.server?.close(resolve));
});

beforeEach(() => {
  fake.throttleNext = 0;
  fake.refuseNext = false;
});

function succeed(run: FakeRun, outputs = 1) {
  run.status = 'succeeded';
  run.output =
    run.kind === 'training'
      ? {
          version:
            'teachers/cw-model:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
          weights: `${fake.base}/out/w.tar`,
        }
      : Array.from({ length: outputs }, (_, i) => `${fake.base}/out/${run.id}-${i}.png`);
}

function lastRun(kind: FakeRun['kind'] = 'prediction'): FakeRun {
  const runs = [...fake.runs.values()].filter((run) => run.kind === kind);
  return runs[runs.length - 1]!;
}

function sign(body: string, options: { id?: string; timestamp?: number; secret?: string } = {}) {
  const id = options.id ?? `msg_${randomUUID()}`;
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const key = Buffer.from((options.secret ?? SECRET).slice('whsec_'.length), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return {
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${signature}`,
  };
}

function adapter() {
  return new ReplicateImageProvider({
    apiToken: TOKEN,
    webhookSecret: SECRET,
    owner: 'teachers',
    models: {
      generate: 'black-forest-labs/flux-schnell',
      upscale:
        'nightmareai/real-esrgan:f121d640bd286e1fdc67f9799164c1d5be36ff74576ee11c803ae5b665dd46aa',
      trainer:
        'ostris/flux-dev-lora-trainer:b6af14222e6bd9be257cbc1ea4afda3cd0503e1133083b9d1de0364d8568e6ef',
    },
    apiBase: fake.base,
    timeoutMs: 5000,
  });
}

const generateTask = {
  type: 'generate' as const,
  prompt: 'a lighthouse',
  negativePrompt: '',
  numImages: 2,
  aspectRatio: '1:1' as const,
  width: 1024,
  height: 1024,
  seed: 7,
  model: {
    kind: 'base' as const,
    id: 'base-illustration',
    providerModel: 'black-forest-labs/flux-schnell',
    styleWords: ['storybook'],
  },
};

describe('Replicate adapter against a fake Replicate API', () => {
  it('creates a prediction, polls it to success and downloads the outputs (without sending the token to the CDN)', async () => {
    const provider = adapter();
    const started = await provider.start(generateTask, { webhookUrl: 'https://example.org/hook' });
    expect(started.status).toBe('running');
    const run = fake.runs.get(started.id)!;
    expect(run.body).toMatchObject({
      input: {
        prompt: 'a lighthouse, storybook',
        num_outputs: 2,
        aspect_ratio: '1:1',
        output_format: 'png',
        seed: 7,
      },
      webhook: 'https://example.org/hook',
      webhook_events_filter: ['completed'],
    });
    expect((await provider.get('generate', started.id)).status).toBe('running');
    succeed(run, 2);
    const done = await provider.get('generate', started.id);
    expect(done.status).toBe('succeeded');
    expect(done.outputs).toHaveLength(2);
    const bytes = await provider.download(done.outputs![0]!);
    expect(bytes.equals(fake.png)).toBe(true);
    const download = fake.requests.filter((r) => r.path.startsWith('/out/')).at(-1)!;
    expect(download.auth).toBeUndefined();
  });

  it('reports failures and cancels', async () => {
    const provider = adapter();
    const started = await provider.start(generateTask);
    const run = fake.runs.get(started.id)!;
    run.status = 'failed';
    run.error = 'NSFW content detected';
    expect(await provider.get('generate', started.id)).toMatchObject({
      status: 'failed',
      error: 'NSFW content detected',
    });
    const other = await provider.start(generateTask);
    await provider.cancel('generate', other.id);
    expect(await provider.get('generate', other.id)).toMatchObject({ status: 'canceled' });
  });

  it('a 422 is refused with its detail; a 429 waits retry_after and tries again', async () => {
    const provider = adapter();
    fake.refuseNext = true;
    const refused = await provider.start(generateTask).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ImageProviderError);
    expect((refused as ImageProviderError).options.status).toBe(422);
    expect((refused as Error).message).toContain('String too long');

    fake.throttleNext = 2;
    const before = fake.requests.length;
    const started = await provider.start(generateTask);
    expect(started.status).toBe('running');
    expect(fake.requests.length - before).toBe(3);

    fake.throttleNext = 10;
    const busy = await provider.start(generateTask).catch((error: unknown) => error);
    expect(busy).toBeInstanceOf(ImageProviderError);
    expect((busy as ImageProviderError).options).toMatchObject({
      status: 429,
      retryAfterSeconds: 0.05,
    });
    fake.throttleNext = 0;
  });

  it('uploads the photos as a zip and trains into a private destination model', async () => {
    const provider = adapter();
    const photos = [Buffer.from('photo-one'), Buffer.from('photo-two')];
    const started = await provider.start({
      type: 'train',
      modelId: 'abc',
      ownerId: 'u',
      name: 'Rex',
      triggerWord: 'rexdog',
      subjectClass: 'pet',
      photos,
    });
    expect(fake.models.has('teachers/cw-abc')).toBe(true);
    const run = fake.runs.get(started.id)!;
    expect(run.body).toMatchObject({
      destination: 'teachers/cw-abc',
      input: { trigger_word: 'rexdog' },
    });
    const zipUrl = (run.body.input as { input_images: string }).input_images;
    const zip = fake.files.get(zipUrl.split('/').pop()!)!;
    expect(zip.subarray(0, 4).toString('hex')).toBe('504b0304');
    expect(zip.includes(Buffer.from('photo-two'))).toBe(true);
    succeed(run);
    expect(await provider.get('train', started.id)).toMatchObject({
      status: 'succeeded',
      version: expect.stringMatching(/^teachers\/cw-model:[0-9a-f]{64}$/),
    });
  });

  it('verifies webhooks: valid, tampered, old, unsigned', () => {
    const provider = adapter();
    const body = JSON.stringify({
      id: 'p1',
      status: 'succeeded',
      output: ['https://x.test/a.png'],
      urls: { get: 'https://api/v1/predictions/p1' },
    });
    const headers = sign(body);
    const delivery = provider.verifyWebhook(headers, Buffer.from(body));
    expect(delivery).toMatchObject({
      eventId: headers['webhook-id'],
      type: 'generate',
      state: { id: 'p1', status: 'succeeded' },
    });
    expect(() => provider.verifyWebhook(headers, Buffer.from(body.replace('p1', 'p2')))).toThrow(
      ImageWebhookError,
    );
    const old = sign(body, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(() => provider.verifyWebhook(old, Buffer.from(body))).toThrow('too old');
    const wrongKey = sign(body, {
      secret: `whsec_${Buffer.from('another secret').toString('base64')}`,
    });
    expect(() => provider.verifyWebhook(wrongKey, Buffer.from(body))).toThrow('does not match');
    expect(() => provider.verifyWebhook({}, Buffer.from(body))).toThrow('missing');
  });
});

/* ------------------------------------------------------------------------------------------- */
/* Through the API: webhooks applied once, polling as the fallback, outputs copied to storage.  */
/* ------------------------------------------------------------------------------------------- */

describe('image studio on Replicate (fake API)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      IMAGE_PROVIDER: 'replicate',
      REPLICATE_API_TOKEN: TOKEN,
      REPLICATE_WEBHOOK_SECRET: SECRET,
      REPLICATE_OWNER: 'teachers',
      REPLICATE_API_BASE: fake.base,
      REPLICATE_POLL_SECONDS: '0.1',
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function waitForProviderId(predictionId: string): Promise<string> {
    for (let i = 0; i < 100; i++) {
      const [row] = await t.app.db
        .select()
        .from(imagePredictions)
        .where(eq(imagePredictions.id, predictionId));
      if (row?.providerId) return row.providerId;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('the prediction never reached Replicate');
  }

  async function webhook(body: string, headers: Record<string, string>) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/models/webhook/replicate',
      headers: { 'content-type': 'application/json', ...headers },
      payload: body,
    });
    return {
      status: response.statusCode,
      body: response.json() as { outcome?: string; errors?: { message: string } },
    };
  }

  it('a signed webhook ends the run once; outputs are copied into our storage', async () => {
    const { user, auth } = await createUser(t.app, { imageGenerationCredits: 2 });
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/v1/models/generatedreamboothimage',
      headers: auth,
      payload: { modelId: 'base-illustration', prompt: 'a kite over a meadow', numImages: 2 },
    });
    expect(started.statusCode).toBe(201);
    const id = started.json().data._id as string;
    const providerId = await waitForProviderId(id);
    const run = fake.runs.get(providerId)!;
    expect(run.body.webhook).toBe('http://localhost:3000/api/v1/models/webhook/replicate');
    succeed(run, 2);
    const body = JSON.stringify(runJson(run));

    const tampered = await webhook(body.replace('a kite', 'a bat'), sign(body));
    expect(tampered.status).toBe(400);
    const old = await webhook(body, sign(body, { timestamp: Math.floor(Date.now() / 1000) - 600 }));
    expect(old.status).toBe(400);
    expect(old.body.errors?.message).toContain('too old');

    const headers = sign(body);
    expect((await webhook(body, headers)).body.outcome).toBe('applied');
    expect((await webhook(body, headers)).body.outcome).toBe('duplicate');
    await t.app.images.idle();

    const done = (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/models/getreplicateprediction?id=${id}`,
        headers: auth,
      })
    ).json().data;
    expect(done.status).toBe('succeeded');
    expect(done.engine).toBe('replicate');
    expect(done.images).toHaveLength(2);
    for (const image of done.images) {
      expect(image.image).toMatch(/^\/uploads\/images\//);
      const served = await t.app.inject({ method: 'GET', url: image.image });
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.rawPayload.equals(fake.png)).toBe(true);
    }
    const [row] = await t.app.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.imageGenerationCredits).toBe(0);
  });

  it('without a webhook, polling finishes the run', async () => {
    const { auth } = await createUser(t.app, { imageGenerationCredits: 1 });
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/v1/models/generatedreamboothimage',
      headers: auth,
      payload: { modelId: 'base-poster', prompt: 'a volcano' },
    });
    const id = started.json().data._id as string;
    const providerId = await waitForProviderId(id);
    succeed(fake.runs.get(providerId)!, 1);
    await t.app.images.idle();
    const done = (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/models/getreplicateprediction?id=${id}`,
        headers: auth,
      })
    ).json().data;
    expect(done.status).toBe('succeeded');
    expect(done.images).toHaveLength(1);
  });

  it('a failed or refused run gives the credits back', async () => {
    const { user, auth } = await createUser(t.app, { imageGenerationCredits: 3 });
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/v1/models/generatedreamboothimage',
      headers: auth,
      payload: { modelId: 'base-poster', prompt: 'a storm', numImages: 2 },
    });
    const providerId = await waitForProviderId(started.json().data._id);
    const run = fake.runs.get(providerId)!;
    run.status = 'failed';
    run.error = 'GPU out of memory';
    await t.app.images.idle();
    const failed = (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/models/getreplicateprediction?id=${started.json().data._id}`,
        headers: auth,
      })
    ).json().data;
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe('GPU out of memory Your credits have been given back.');

    fake.refuseNext = true;
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/v1/models/generatedreamboothimage',
      headers: auth,
      payload: { modelId: 'base-poster', prompt: 'a long story' },
    });
    await t.app.images.idle();
    const answer = (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/models/getreplicateprediction?id=${refused.json().data._id}`,
        headers: auth,
      })
    ).json().data;
    expect(answer.status).toBe('failed');
    expect(answer.error).toContain('String too long');
    const [row] = await t.app.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.imageGenerationCredits).toBe(3);
  });

  it('trains a model by webhook, then generates with its trained version', async () => {
    const { auth } = await createUser(t.app, {
      modelTrainingCredits: 1,
      imageGenerationCredits: 1,
    });
    const photo = await sharp({
      create: { width: 64, height: 64, channels: 3, background: '#aa3311' },
    })
      .jpeg()
      .toBuffer();
    const boundary = 'cwboundary';
    const parts = [
      ...Object.entries({ name: 'Our dog', subjectClass: 'pet', triggerWord: 'rexdog' }).map(
        ([k, v]) =>
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
          ),
      ),
      ...Array.from({ length: 5 }, (_, i) => [
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="p${i}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
        ),
        photo,
        Buffer.from('\r\n'),
      ]).flat(),
      Buffer.from(`--${boundary}--\r\n`),
    ];
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/models/create',
      headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat(parts),
    });
    expect(created.statusCode).toBe(201);
    const modelId = created.json().data._id as string;
    let run: FakeRun | undefined;
    for (let i = 0; i < 100 && !run; i++) {
      run = [...fake.runs.values()].find(
        (r) => r.kind === 'training' && r.body.destination === `teachers/cw-${modelId}`,
      );
      if (!run) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(run).toBeDefined();
    // The training is recorded before its webhook can arrive.
    for (let i = 0; i < 50; i++) {
      const model = await t.app.db.query.imageModels.findFirst({
        where: (m, { eq: is }) => is(m.id, modelId),
      });
      if (model?.providerTrainingId) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    succeed(run!);
    const body = JSON.stringify(runJson(run!));
    expect((await webhook(body, sign(body))).body.outcome).toBe('applied');
    await t.app.images.idle();
    const model = (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/models/getdreamboothmodel?modelId=${modelId}`,
        headers: auth,
      })
    ).json().data;
    expect(model).toMatchObject({ status: 'ready', engine: 'replicate' });
    expect(model.cover).toMatch(/^\/uploads\/image-models\//);

    const generated = await t.app.inject({
      method: 'POST',
      url: '/api/v1/models/generatedreamboothimage',
      headers: auth,
      payload: { modelId, prompt: 'in the snow' },
    });
    const providerId = await waitForProviderId(generated.json().data._id);
    expect(fake.runs.get(providerId)!.body).toMatchObject({
      version: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
      input: { prompt: 'rexdog in the snow' },
    });
    succeed(fake.runs.get(providerId)!, 1);
    await t.app.images.idle();
    expect(lastRun().status).toBe('succeeded');
  });
});
