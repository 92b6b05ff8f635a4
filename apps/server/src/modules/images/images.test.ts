import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { imagePredictions, users } from '../../db/schema/index.js';
import { LocalImageProvider, type ImageTask, type RunState } from '../../providers/images/index.js';
import { createTestApp, createUser, type TestApp } from '../../test/helpers.js';

const fixtures = path.resolve(import.meta.dirname, '../../test/fixtures/images');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ IMAGE_LOCAL_TRAINING_SECONDS: '0' });
});
afterAll(async () => {
  await t?.close();
});

type Auth = { authorization: string };
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read field by field
type Answer = Record<string, any>;

async function call(method: 'GET' | 'POST', url: string, auth?: Auth, payload?: object) {
  const response = await t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: auth ?? {},
    ...(payload ? { payload } : {}),
  });
  return { status: response.statusCode, body: response.json() as Answer };
}

async function creditsOf(userId: string) {
  const [row] = await t.app.db.select().from(users).where(eq(users.id, userId));
  return { images: row!.imageGenerationCredits, training: row!.modelTrainingCredits };
}

/** Generates and waits until the run has finished. */
async function generateDone(auth: Auth, body: object) {
  const started = await call('POST', '/models/generatedreamboothimage', auth, body);
  expect(started.status).toBe(201);
  await t.app.images.idle();
  const done = await call(
    'GET',
    `/models/getreplicateprediction?id=${started.body.data._id}`,
    auth,
  );
  expect(done.status).toBe(200);
  return done.body.data;
}

/** A multipart body: fields, then files. */
function multipart(
  fields: Record<string, string>,
  files: { name: string; data: Buffer; type?: string }[],
) {
  const boundary = `----cw${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [key, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'image/jpeg'}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function createModel(
  auth: Auth,
  fields: Record<string, string>,
  files: { name: string; data: Buffer }[],
) {
  const body = multipart(fields, files);
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v1/models/create',
    headers: { ...auth, ...body.headers },
    payload: body.payload,
  });
  return { status: response.statusCode, body: response.json() as Answer };
}

async function photo(colour: string, format: 'jpeg' | 'png' | 'webp' = 'jpeg'): Promise<Buffer> {
  const image = sharp({
    create: { width: 400, height: 300, channels: 3, background: colour },
  }).withExif({
    IFD0: { Make: 'SecretCam', Model: 'Home 1' },
  });
  return image[format]().toBuffer();
}

async function fivePhotos() {
  return [
    { name: 'a.jpg', data: await photo('#b03020') },
    { name: 'b.jpg', data: await photo('#a02818') },
    { name: 'c.png', data: await photo('#c04030', 'png') },
    { name: 'd.webp', data: await photo('#902010', 'webp') },
    { name: 'e.heic', data: readFileSync(path.join(fixtures, 'sample.heic')) },
  ];
}

const modelFields = { name: 'Rex the class dog', subjectClass: 'pet', triggerWord: 'rexdog' };

async function fetchImage(url: string) {
  const response = await t.app.inject({ method: 'GET', url });
  return response;
}

describe('base models', () => {
  it('are listed for everyone, and one can be read by id', async () => {
    const list = await call('GET', '/models/getbasedreamboothmodels');
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(3);
    expect(list.body.data.map((m: { _id: string }) => m._id)).toContain('base-illustration');
    const one = await call('GET', '/models/getdreamboothmodel?modelId=base-watercolour');
    expect(one.body.data).toMatchObject({ name: 'Watercolour', isBase: true, status: 'ready' });
    expect((await call('GET', '/models/getdreamboothmodel?modelId=nope')).status).toBe(404);
  });
});

describe('predictions', () => {
  it('generates images for credits, stores real PNGs served with their type and nosniff', async () => {
    const { user, auth } = await createUser(t.app, { imageGenerationCredits: 3 });
    const prediction = await generateDone(auth, {
      modelId: 'base-illustration',
      prompt: 'A lighthouse on a hill by the sea',
      numImages: 2,
      aspectRatio: '4:3',
    });
    expect(prediction.status).toBe('succeeded');
    expect(prediction.engine).toBe('local');
    expect(prediction.images).toHaveLength(2);
    expect((await creditsOf(user.id)).images).toBe(1);
    for (const image of prediction.images) {
      expect(image.predictionUrl).toMatch(/^a-lighthouse-on-a-hill-by-the-sea-[0-9a-f]{8}$/);
      expect([image.width, image.height]).toEqual([1024, 768]);
      const served = await fetchImage(image.image);
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      const meta = await sharp(served.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 1024, 768]);
    }
    const list = await call('GET', '/models/getpredictionsfordreamboothmodel?modelId=all', auth);
    expect(list.body.count).toBe(1);
    const byModel = await call(
      'GET',
      '/models/getpredictionsfordreamboothmodel?modelId=base-illustration',
      auth,
    );
    expect(byModel.body.data[0]._id).toBe(prediction._id);
    const other = await call(
      'GET',
      '/models/getpredictionsfordreamboothmodel?modelId=base-poster',
      auth,
    );
    expect(other.body.count).toBe(0);
  });

  it('refuses bad input with a clear 4xx and takes no credit', async () => {
    const { user, auth } = await createUser(t.app, { imageGenerationCredits: 5 });
    const cases: [object, number, string][] = [
      [{ modelId: 'base-illustration', prompt: '' }, 400, 'Invalid field "prompt"'],
      [{ modelId: 'base-illustration', prompt: '   ' }, 400, 'Invalid field "prompt"'],
      [
        { modelId: 'base-illustration', prompt: 'a cat', numImages: 5 },
        400,
        'Invalid field "numImages"',
      ],
      [
        { modelId: 'base-illustration', prompt: 'a cat', numImages: 0 },
        400,
        'Invalid field "numImages"',
      ],
      [
        { modelId: 'base-illustration', prompt: 'a cat', aspectRatio: '2:1' },
        400,
        'Invalid field "aspectRatio"',
      ],
      [{ modelId: 'base-illustration', prompt: 'x'.repeat(1001) }, 400, 'Invalid field "prompt"'],
      [{ prompt: 'a cat' }, 400, 'Invalid field "modelId"'],
      [{ modelId: 'base-nothing', prompt: 'a cat' }, 404, 'Model not found.'],
      [
        { modelId: 'base-illustration', prompt: 'A NAKED man' },
        400,
        'Invalid field "prompt": "naked" is not allowed in the image studio.',
      ],
    ];
    for (const [body, status, message] of cases) {
      const answer = await call('POST', '/models/generatedreamboothimage', auth, body);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      expect(answer.body.errors.message).toContain(message);
    }
    expect((await creditsOf(user.id)).images).toBe(5);
    const anonymous = await call('POST', '/models/generatedreamboothimage', undefined, {
      modelId: 'base-illustration',
      prompt: 'a cat',
    });
    expect(anonymous.status).toBe(401);
  });

  it('402 without enough credits; parallel spending with k credits accepts exactly k', async () => {
    const poor = await createUser(t.app, { imageGenerationCredits: 1 });
    const two = await call('POST', '/models/generatedreamboothimage', poor.auth, {
      modelId: 'base-illustration',
      prompt: 'two owls',
      numImages: 2,
    });
    expect(two.status).toBe(402);
    expect(two.body.errors.message).toContain('Buy Image Generation Credits');
    expect((await creditsOf(poor.user.id)).images).toBe(1);

    const k = 3;
    const { user, auth } = await createUser(t.app, { imageGenerationCredits: k });
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call('POST', '/models/generatedreamboothimage', auth, {
          modelId: 'base-poster',
          prompt: `planet number ${i}`,
        }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(k);
    expect(answers.filter((a) => a.status === 402)).toHaveLength(8 - k);
    await t.app.images.idle();
    expect((await creditsOf(user.id)).images).toBe(0);
  });

  it("another teacher's prediction, image and upscale are invisible (404)", async () => {
    const owner = await createUser(t.app, { imageGenerationCredits: 3 });
    const other = await createUser(t.app, { imageGenerationCredits: 3 });
    const prediction = await generateDone(owner.auth, {
      modelId: 'base-illustration',
      prompt: 'a red kite',
    });
    const imageId = prediction.images[0]._id;
    expect(
      (await call('GET', `/models/getreplicateprediction?id=${prediction._id}`, other.auth)).status,
    ).toBe(404);
    expect(
      (await call('POST', '/models/deletedreamboothimage', other.auth, { id: imageId })).status,
    ).toBe(404);
    expect(
      (await call('POST', '/models/upscaledreamboothimage', other.auth, { imageId, scale: 2 }))
        .status,
    ).toBe(404);
    expect(
      (
        await call('POST', '/models/createuserprofilepost', other.auth, {
          imageId,
          name: 'Mine now',
        })
      ).status,
    ).toBe(404);
    expect((await creditsOf(other.user.id)).images).toBe(3);
    const up = await call('POST', '/models/upscaledreamboothimage', owner.auth, {
      imageId,
      scale: 2,
    });
    await t.app.images.idle();
    expect(
      (
        await call(
          'GET',
          `/models/getreplicateupscaleprediction?id=${up.body.data._id}`,
          other.auth,
        )
      ).status,
    ).toBe(404);
    expect(
      (await call('POST', '/models/deletedreamboothupscale', other.auth, { id: up.body.data._id }))
        .status,
    ).toBe(404);
    expect(
      (await call('GET', '/models/getreplicateprediction?id=not-an-id', owner.auth)).status,
    ).toBe(400);
  });

  it('deletes an image with its files', async () => {
    const { auth } = await createUser(t.app, { imageGenerationCredits: 2 });
    const prediction = await generateDone(auth, {
      modelId: 'base-illustration',
      prompt: 'a quiet library',
    });
    const image = prediction.images[0];
    expect(
      (await call('POST', '/models/deletedreamboothimage', auth, { id: image._id })).body,
    ).toEqual({
      wasSuccessful: true,
    });
    expect((await fetchImage(image.image)).statusCode).toBe(404);
    expect(
      (await call('GET', `/models/getreplicateprediction?id=${prediction._id}`, auth)).status,
    ).toBe(404);
    expect(
      (await call('POST', '/models/deletedreamboothimage', auth, { id: image._id })).status,
    ).toBe(404);
  });
});

describe('upscaling', () => {
  it('enlarges 2× and 4× for one credit each; the pixel size really changes', async () => {
    const { user, auth } = await createUser(t.app, { imageGenerationCredits: 3 });
    const prediction = await generateDone(auth, {
      modelId: 'base-watercolour',
      prompt: 'autumn leaves',
      aspectRatio: '9:16',
    });
    const image = prediction.images[0];
    for (const scale of [2, 4]) {
      const started = await call('POST', '/models/upscaledreamboothimage', auth, {
        imageId: image._id,
        scale,
      });
      expect(started.status).toBe(201);
      expect(started.body.data.status).toBe('queued');
      await t.app.images.idle();
      const done = await call(
        'GET',
        `/models/getreplicateupscaleprediction?id=${started.body.data._id}`,
        auth,
      );
      expect(done.body.data).toMatchObject({
        status: 'succeeded',
        scale,
        width: 576 * scale,
        height: 1024 * scale,
      });
      const served = await fetchImage(done.body.data.image);
      expect(served.headers['content-type']).toBe('image/png');
      const meta = await sharp(served.rawPayload).metadata();
      expect([meta.width, meta.height]).toEqual([576 * scale, 1024 * scale]);
    }
    expect((await creditsOf(user.id)).images).toBe(0);
    const noCredit = await call('POST', '/models/upscaledreamboothimage', auth, {
      imageId: image._id,
      scale: 2,
    });
    expect(noCredit.status).toBe(402);
    const badScale = await call('POST', '/models/upscaledreamboothimage', auth, {
      imageId: image._id,
      scale: 3,
    });
    expect(badScale.status).toBe(400);
    expect(badScale.body.errors.message).toContain('Invalid field "scale"');
    const listed = await call('GET', `/models/getreplicateprediction?id=${prediction._id}`, auth);
    const ups = listed.body.data.images[0].upscales;
    expect(ups).toHaveLength(2);
    expect(
      (await call('POST', '/models/deletedreamboothupscale', auth, { id: ups[0]._id })).status,
    ).toBe(200);
    expect((await fetchImage(ups[0].image)).statusCode).toBe(404);
  });

  it('a failed upscale gives its credit back', async () => {
    const { user, auth } = await createUser(t.app, { imageGenerationCredits: 2 });
    const prediction = await generateDone(auth, {
      modelId: 'base-illustration',
      prompt: 'a broken picture',
    });
    const image = prediction.images[0];
    // The stored picture is damaged: the engine cannot read it.
    const key = t.app.storage.keyFromUrl(image.image)!;
    await t.app.storage.put(key, Buffer.from('damaged'), { contentType: 'image/png' });
    const started = await call('POST', '/models/upscaledreamboothimage', auth, {
      imageId: image._id,
      scale: 2,
    });
    expect((await creditsOf(user.id)).images).toBe(0);
    await t.app.images.idle();
    const done = await call(
      'GET',
      `/models/getreplicateupscaleprediction?id=${started.body.data._id}`,
      auth,
    );
    expect(done.body.data.status).toBe('failed');
    expect(done.body.data.error).toContain('Your credit has been given back.');
    expect((await creditsOf(user.id)).images).toBe(1);
  });
});

describe('profile posts', () => {
  it('posts an image to the public profile and its page; only the owner deletes it', async () => {
    const owner = await createUser(t.app, { imageGenerationCredits: 2 });
    const other = await createUser(t.app);
    const prediction = await generateDone(owner.auth, {
      modelId: 'base-illustration',
      prompt: 'Moon over a castle',
    });
    const image = prediction.images[0];
    const username = owner.user.username;

    const unposted = await call(
      'GET',
      `/models/getdreamboothprediction?username=${username}&url=${image.predictionUrl}`,
    );
    expect(unposted.status).toBe(404);

    const created = await call('POST', '/models/createuserprofilepost', owner.auth, {
      imageId: image._id,
      name: 'Castle night',
      description: 'For our fairy tale unit',
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      name: 'Castle night',
      description: 'For our fairy tale unit',
      creatorUsername: username,
      predictionUrl: image.predictionUrl,
      image: image.image,
    });
    expect(
      (
        await call('POST', '/models/createuserprofilepost', owner.auth, {
          imageId: image._id,
          name: 'Again',
        })
      ).status,
    ).toBe(409);
    const blocked = await call('POST', '/models/createuserprofilepost', owner.auth, {
      imageId: image._id,
      name: 'gore fest',
    });
    expect(blocked.status).toBe(400);
    expect(
      (
        await call('POST', '/models/createuserprofilepost', owner.auth, {
          imageId: image._id,
          name: '',
        })
      ).status,
    ).toBe(400);

    const posts = await call(
      'GET',
      `/models/getuserprofileposts?username=${username.toUpperCase()}`,
    );
    expect(posts.status).toBe(200);
    expect(posts.body.data.posts).toHaveLength(1);
    expect(posts.body.data.posts[0]._id).toBe(created.body.data._id);
    expect(
      (await call('GET', '/models/getuserprofileposts?username=nobody_here_at_all')).status,
    ).toBe(404);

    const page = await call(
      'GET',
      `/models/getdreamboothprediction?username=${username}&url=${image.predictionUrl}`,
    );
    expect(page.status).toBe(200);
    expect(page.body.data).toMatchObject({
      prompt: 'Moon over a castle',
      modelName: 'Storybook Illustration',
    });

    expect(
      (
        await call('POST', '/models/deleteuserprofilepost', other.auth, {
          id: created.body.data._id,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call('POST', '/models/deleteuserprofilepost', owner.auth, {
          id: created.body.data._id,
        })
      ).body,
    ).toEqual({
      wasSuccessful: true,
    });
    expect(
      (await call('GET', `/models/getuserprofileposts?username=${username}`)).body.data.posts,
    ).toHaveLength(0);
    expect(
      (
        await call(
          'GET',
          `/models/getdreamboothprediction?username=${username}&url=${image.predictionUrl}`,
        )
      ).status,
    ).toBe(404);
  });

  it('posts the upscaled version when asked', async () => {
    const { auth } = await createUser(t.app, { imageGenerationCredits: 2 });
    const prediction = await generateDone(auth, {
      modelId: 'base-illustration',
      prompt: 'tall trees',
    });
    const image = prediction.images[0];
    const up = await call('POST', '/models/upscaledreamboothimage', auth, {
      imageId: image._id,
      scale: 2,
    });
    await t.app.images.idle();
    const post = await call('POST', '/models/createuserprofilepost', auth, {
      imageId: image._id,
      upscaleId: up.body.data._id,
      name: 'Big trees',
    });
    expect(post.body.data).toMatchObject({ width: 2048, height: 2048 });
    expect(post.body.data.image).not.toBe(image.image);
  });
});

describe('custom models', () => {
  it('refuses bad uploads: no photos, a text file named .jpg, 40 photos, a 50 MB photo, bad fields', async () => {
    const { user, auth } = await createUser(t.app, { modelTrainingCredits: 1 });
    const good = await fivePhotos();

    const none = await createModel(auth, modelFields, []);
    expect(none.status).toBe(400);
    expect(none.body.errors.message).toBe(
      'Invalid field "photos": add 5 to 30 photos to train a model.',
    );

    const four = await createModel(auth, modelFields, good.slice(0, 4));
    expect(four.status).toBe(400);
    expect(four.body.errors.message).toContain('at least 5 photos');

    const text = await createModel(auth, modelFields, [
      ...good.slice(0, 4),
      { name: 'notes.jpg', data: Buffer.from('These are my lesson notes, not a photo.') },
    ]);
    expect(text.status).toBe(415);
    expect(text.body.errors.message).toBe(
      'Photo "notes.jpg" is not a JPEG, PNG, HEIC or WebP picture.',
    );

    const small = await sharp({
      create: { width: 16, height: 16, channels: 3, background: '#123456' },
    })
      .jpeg()
      .toBuffer();
    const forty = await createModel(
      auth,
      modelFields,
      Array.from({ length: 40 }, (_, i) => ({ name: `p${i}.jpg`, data: small })),
    );
    expect(forty.status).toBe(400);
    expect(forty.body.errors.message).toBe('Invalid field "photos": upload at most 30 photos.');

    const huge = Buffer.concat([small, Buffer.alloc(50 * 1024 * 1024)]);
    const big = await createModel(auth, modelFields, [
      ...good.slice(0, 4),
      { name: 'huge.jpg', data: huge },
    ]);
    expect(big.status).toBe(413);
    expect(big.body.errors.message).toContain('larger than 15 MB');

    const badTrigger = await createModel(auth, { ...modelFields, triggerWord: 'two words' }, good);
    expect(badTrigger.status).toBe(400);
    expect(badTrigger.body.errors.message).toContain('Invalid field "triggerWord"');
    const badClass = await createModel(auth, { ...modelFields, subjectClass: 'dragon' }, good);
    expect(badClass.body.errors.message).toContain('Invalid field "subjectClass"');
    const noName = await createModel(auth, { ...modelFields, name: '' }, good);
    expect(noName.body.errors.message).toContain('Invalid field "name"');

    const json = await call('POST', '/models/create', auth, modelFields);
    expect(json.status).toBe(415);

    expect((await creditsOf(user.id)).training).toBe(1);
    expect((await call('GET', '/models/getusersdreamboothmodels', auth)).body.count).toBe(0);
  });

  it('402 without a model training credit', async () => {
    const { auth } = await createUser(t.app);
    const answer = await createModel(auth, modelFields, await fivePhotos());
    expect(answer.status).toBe(402);
    expect(answer.body.errors.message).toContain('model training credit');
  });

  it('trains from 5 photos (JPEG, PNG, WebP, HEIC) into a private model, then generates with it', async () => {
    const owner = await createUser(t.app, { modelTrainingCredits: 1, imageGenerationCredits: 1 });
    const other = await createUser(t.app);
    const created = await createModel(owner.auth, modelFields, await fivePhotos());
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      name: 'Rex the class dog',
      subjectClass: 'pet',
      triggerWord: 'rexdog',
      status: 'queued',
      isPrivate: true,
      photoCount: 5,
    });
    expect((await creditsOf(owner.user.id)).training).toBe(0);
    const modelId = created.body.data._id;
    await t.app.images.idle();
    const model = (await call('GET', `/models/getdreamboothmodel?modelId=${modelId}`, owner.auth))
      .body.data;
    expect(model).toMatchObject({ status: 'ready', progress: 100 });
    const cover = await fetchImage(model.cover);
    expect(cover.headers['content-type']).toBe('image/jpeg');
    expect(cover.headers['x-content-type-options']).toBe('nosniff');

    // The stored photos carry no EXIF.
    const [row] = await t.app.db.query.imageModels.findMany({
      where: (m, { eq: is }) => is(m.id, modelId),
    });
    for (const key of row!.photoKeys) {
      const stored = await t.app.storage.get(key);
      expect((await sharp(stored!.body).metadata()).exif).toBeUndefined();
      expect(stored!.body.includes(Buffer.from('SecretCam'))).toBe(false);
    }

    // Private: invisible to others.
    expect(
      (await call('GET', `/models/getdreamboothmodel?modelId=${modelId}`, other.auth)).status,
    ).toBe(404);
    expect((await call('GET', `/models/getdreamboothmodel?modelId=${modelId}`)).status).toBe(404);
    expect(
      (
        await call('POST', '/models/changeuserdreamboothmodelprivacy', other.auth, {
          modelId,
          isPrivate: false,
        })
      ).status,
    ).toBe(404);
    expect(
      (await call('POST', '/models/deleteuserdreamboothmodel', other.auth, { modelId })).status,
    ).toBe(404);
    expect(
      (await call('GET', `/models/getpredictionsfordreamboothmodel?modelId=${modelId}`, other.auth))
        .status,
    ).toBe(404);
    expect(
      (
        await call('POST', '/models/generatedreamboothimage', other.auth, {
          modelId,
          prompt: 'a dog',
        })
      ).status,
    ).toBe(404);
    const madePublic = await call('POST', '/models/changeuserdreamboothmodelprivacy', owner.auth, {
      modelId,
      isPrivate: false,
    });
    expect(madePublic.body.data.isPrivate).toBe(false);
    expect(
      (await call('GET', `/models/getdreamboothmodel?modelId=${modelId}`, other.auth)).body.data
        .name,
    ).toBe('Rex the class dog');

    const prediction = await generateDone(owner.auth, { modelId, prompt: 'on a red cushion' });
    expect(prediction).toMatchObject({
      status: 'succeeded',
      modelName: 'Rex the class dog',
      prompt: 'rexdog on a red cushion',
    });
    const listed = await call(
      'GET',
      `/models/getpredictionsfordreamboothmodel?modelId=${modelId}`,
      owner.auth,
    );
    expect(listed.body.count).toBe(1);
    expect(
      (await call('GET', '/models/getusersdreamboothmodels', owner.auth)).body.data[0]._id,
    ).toBe(modelId);

    // A public model's finished images are shown to anyone, with their creator; runs that are
    // still going or failed stay the owner's.
    await t.app.db.insert(imagePredictions).values({
      userId: owner.user.id,
      modelId,
      modelName: 'Rex the class dog',
      prompt: 'rexdog in the rain',
      numImages: 1,
      aspectRatio: '1:1',
      width: 256,
      height: 256,
      seed: 3,
      engine: 'local',
      status: 'failed',
      error: 'The image could not be generated.',
    });
    expect(
      (await call('GET', `/models/getpredictionsfordreamboothmodel?modelId=${modelId}`, owner.auth))
        .body.count,
    ).toBe(2);
    for (const viewer of [other.auth, undefined]) {
      const shown = await call(
        'GET',
        `/models/getpredictionsfordreamboothmodel?modelId=${modelId}`,
        viewer,
      );
      expect(shown.status).toBe(200);
      expect(shown.body.count).toBe(1);
      expect(shown.body.data[0]).toMatchObject({
        _id: prediction._id,
        status: 'succeeded',
        images: [{ creatorUsername: owner.user.username, image: prediction.images[0].image }],
      });
    }
    // A visitor has no "all" or base-model list of their own.
    expect((await call('GET', '/models/getpredictionsfordreamboothmodel?modelId=all')).status).toBe(
      401,
    );
    // Private again: hidden again.
    await call('POST', '/models/changeuserdreamboothmodelprivacy', owner.auth, {
      modelId,
      isPrivate: true,
    });
    expect(
      (await call('GET', `/models/getpredictionsfordreamboothmodel?modelId=${modelId}`, other.auth))
        .status,
    ).toBe(404);

    expect(
      (await call('POST', '/models/deleteuserdreamboothmodel', owner.auth, { modelId })).status,
    ).toBe(200);
    expect((await fetchImage(prediction.images[0].image)).statusCode).toBe(404);
    expect((await fetchImage(model.cover)).statusCode).toBe(404);
    expect(
      (await call('GET', `/models/getreplicateprediction?id=${prediction._id}`, owner.auth)).status,
    ).toBe(404);
  });

  it('the webhook refuses deliveries the offline engine never asked for', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/models/webhook/replicate',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(response.statusCode).toBe(400);
  });
});

/** An engine whose every run fails (the provider said no). */
class FailingProvider extends LocalImageProvider {
  override async start(task: ImageTask): Promise<RunState> {
    return { id: 'x', status: 'failed', error: `The ${task.type} run failed at the provider.` };
  }
}

describe('refunds when the engine fails', () => {
  let f: TestApp;
  beforeAll(async () => {
    f = await createTestApp(
      { IMAGE_LOCAL_TRAINING_SECONDS: '0' },
      { imageProvider: new FailingProvider({ trainingMs: 0 }) },
    );
  });
  afterAll(async () => {
    await f?.close();
  });

  it('gives back image credits and the model training credit, with the reason', async () => {
    const { user, auth } = await createUser(f.app, {
      imageGenerationCredits: 2,
      modelTrainingCredits: 1,
    });
    const started = await f.app.inject({
      method: 'POST',
      url: '/api/v1/models/generatedreamboothimage',
      headers: auth,
      payload: { modelId: 'base-illustration', prompt: 'a fox', numImages: 2 },
    });
    expect(started.statusCode).toBe(201);
    await f.app.images.idle();
    const done = await f.app.inject({
      method: 'GET',
      url: `/api/v1/models/getreplicateprediction?id=${started.json().data._id}`,
      headers: auth,
    });
    expect(done.json().data).toMatchObject({ status: 'failed' });
    expect(done.json().data.error).toContain(
      'The generate run failed at the provider. Your credits have been given back.',
    );

    const body = multipart(modelFields, await fivePhotos());
    const model = await f.app.inject({
      method: 'POST',
      url: '/api/v1/models/create',
      headers: { ...auth, ...body.headers },
      payload: body.payload,
    });
    expect(model.statusCode).toBe(201);
    await f.app.images.idle();
    const read = await f.app.inject({
      method: 'GET',
      url: `/api/v1/models/getdreamboothmodel?modelId=${model.json().data._id}`,
      headers: auth,
    });
    expect(read.json().data).toMatchObject({ status: 'failed' });
    expect(read.json().data.error).toContain('Your model training credit has been given back.');
    const [row] = await f.app.db.select().from(users).where(eq(users.id, user.id));
    expect([row!.imageGenerationCredits, row!.modelTrainingCredits]).toEqual([2, 1]);
  });
});
