import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser } from '../../test/helpers.js';
import { LocalStorage } from './local.js';
import { S3Storage } from './s3.js';
import { sha256Hex, signV4 } from './sigv4.js';
import { assertValidKey } from './storage.js';

const AWS_EXAMPLE = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  region: 'us-east-1',
  service: 's3',
  date: new Date('2013-05-24T00:00:00Z'),
};
const signatureOf = (headers: Record<string, string>) =>
  /Signature=([0-9a-f]{64})$/.exec(headers.authorization ?? '')?.[1];

describe('Signature V4 (the examples in the S3 API reference)', () => {
  it('GET Object with a Range header', () => {
    const headers = signV4({
      ...AWS_EXAMPLE,
      method: 'GET',
      url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
      headers: { Range: 'bytes=0-9' },
      payloadHash: sha256Hex(''),
    });
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });

  it('PUT Object with a body and an escaped key', () => {
    const body = 'Welcome to Amazon S3.';
    const headers = signV4({
      ...AWS_EXAMPLE,
      method: 'PUT',
      url: new URL('https://examplebucket.s3.amazonaws.com/test%24file.text'),
      headers: {
        Date: 'Fri, 24 May 2013 00:00:00 GMT',
        'x-amz-storage-class': 'REDUCED_REDUNDANCY',
      },
      payloadHash: sha256Hex(body),
    });
    expect(signatureOf(headers)).toBe(
      '98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd',
    );
  });
});

describe('keys', () => {
  it.each(['../etc/passwd', '/abs', 'a/../b', 'a//b', 'spaces here', '', 'a\\b', '.hidden'])(
    'refuses %j',
    (key) => expect(() => assertValidKey(key)).toThrow(/Invalid storage key/),
  );
  it('accepts ordinary keys', () => {
    expect(() => assertValidKey('avatars/3f2a-1b.webp')).not.toThrow();
    expect(() => assertValidKey('blog/2026/cover_1.png')).not.toThrow();
  });
});

describe('local storage', () => {
  it('puts, gets, deletes and maps public URLs back to keys', async () => {
    const storage = new LocalStorage(mkdtempSync(path.join(tmpdir(), 'cw-store-')));
    await storage.put('blog/cover.png', Buffer.from('png bytes'), { contentType: 'image/png' });
    expect(await storage.get('blog/cover.png')).toEqual({
      body: Buffer.from('png bytes'),
      contentType: 'image/png',
    });
    expect(storage.publicUrl('blog/cover.png')).toBe('/uploads/blog/cover.png');
    expect(storage.keyFromUrl('/uploads/blog/cover.png')).toBe('blog/cover.png');
    expect(storage.keyFromUrl('/uploads/../secret')).toBeNull();
    expect(storage.keyFromUrl('https://elsewhere.example/x.png')).toBeNull();
    await storage.delete('blog/cover.png');
    await storage.delete('blog/cover.png');
    expect(await storage.get('blog/cover.png')).toBeNull();
  });

  it('the app serves uploads with long cache, nosniff and a sandbox CSP; missing files are 404', async () => {
    const t = await createTestApp();
    await t.app.storage.put('misc/page.html', Buffer.from('<script>alert(1)</script>'), {
      contentType: 'text/html',
    });
    const res = await t.app.inject('/uploads/misc/page.html');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain('sandbox');
    expect((await t.app.inject('/uploads/misc/nope.png')).statusCode).toBe(404);
    expect((await t.app.inject('/uploads/../jwt-secret')).statusCode).toBe(404);
    expect((await t.app.inject('/uploads/%2e%2e/jwt-secret')).statusCode).not.toBe(200);
    await t.close();
  });
});

/**
 * A small S3-compatible server: keeps objects in memory, checks the body hash and
 * recomputes each request's signature with the secret it knows.
 */
function startFakeS3(secret: string) {
  const objects = new Map<string, { body: Buffer; contentType: string; cacheControl: string }>();
  const log: string[] = [];
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url!, `http://${req.headers.host}`);
    log.push(`${req.method} ${url.pathname}`);
    const isPublicRead = req.method === 'GET' && !req.headers.authorization;
    if (!isPublicRead) {
      const auth = String(req.headers.authorization ?? '');
      const match =
        /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
          auth,
        );
      const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
      if (!match || payloadHash !== sha256Hex(body)) {
        res.writeHead(400).end('<Error><Code>BadDigest</Code></Error>');
        return;
      }
      const signed: Record<string, string> = {};
      for (const name of match[4]!.split(';')) {
        if (name !== 'host' && name !== 'x-amz-date' && name !== 'x-amz-content-sha256') {
          signed[name] = String(req.headers[name] ?? '');
        }
      }
      const amz = String(req.headers['x-amz-date']);
      const expected = signV4({
        method: req.method!,
        url,
        headers: signed,
        payloadHash,
        region: match[3]!,
        service: 's3',
        accessKeyId: match[1]!,
        secretAccessKey: secret,
        date: new Date(
          `${amz.slice(0, 4)}-${amz.slice(4, 6)}-${amz.slice(6, 8)}T${amz.slice(9, 11)}:${amz.slice(11, 13)}:${amz.slice(13, 15)}Z`,
        ),
      });
      if (signatureOf(expected) !== match[5]) {
        res.writeHead(403).end('<Error><Code>SignatureDoesNotMatch</Code></Error>');
        return;
      }
    }
    const key = decodeURIComponent(url.pathname);
    if (req.method === 'PUT') {
      objects.set(key, {
        body,
        contentType: String(req.headers['content-type']),
        cacheControl: String(req.headers['cache-control']),
      });
      res.writeHead(200).end();
    } else if (req.method === 'GET') {
      const object = objects.get(key);
      if (!object) res.writeHead(404).end('<Error><Code>NoSuchKey</Code></Error>');
      else res.writeHead(200, { 'content-type': object.contentType }).end(object.body);
    } else if (req.method === 'DELETE') {
      objects.delete(key);
      res.writeHead(204).end();
    } else res.writeHead(405).end();
  });
  return { server, objects, log };
}

describe('S3 storage against a fake S3 server', () => {
  const fake = startFakeS3('fake-secret-key');
  let endpoint = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => fake.server.close(() => resolve())));

  const s3 = (secretAccessKey = 'fake-secret-key', publicUrl?: string) =>
    new S3Storage({
      driver: 's3',
      endpoint,
      region: 'eu-west-3',
      bucket: 'chapterwise',
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey,
      publicUrl,
      forcePathStyle: true,
    });

  it('puts, gets and deletes signed objects (path-style)', async () => {
    const storage = s3();
    await storage.put('blog/a cover (1).png'.replace(/[ ()]/g, '_'), Buffer.from('bytes'), {
      contentType: 'image/png',
    });
    expect(fake.objects.get('/chapterwise/blog/a_cover__1_.png')).toEqual({
      body: Buffer.from('bytes'),
      contentType: 'image/png',
      cacheControl: 'public, max-age=31536000, immutable',
    });
    expect(await storage.get('blog/a_cover__1_.png')).toEqual({
      body: Buffer.from('bytes'),
      contentType: 'image/png',
    });
    expect(await storage.get('blog/missing.png')).toBeNull();
    await storage.delete('blog/a_cover__1_.png');
    expect(fake.objects.has('/chapterwise/blog/a_cover__1_.png')).toBe(false);
    expect(storage.publicUrl('blog/x.png')).toBe(`${endpoint}/chapterwise/blog/x.png`);
    expect(storage.keyFromUrl(`${endpoint}/chapterwise/blog/x.png`)).toBe('blog/x.png');
    expect(s3(undefined, 'https://cdn.example.org').publicUrl('a/b.webp')).toBe(
      'https://cdn.example.org/a/b.webp',
    );
  });

  it('a wrong secret is refused by the server and becomes a clear error', async () => {
    await expect(
      s3('not-the-secret').put('x/y.png', Buffer.from('b'), { contentType: 'image/png' }),
    ).rejects.toThrow('S3 PUT x/y.png failed: 403 SignatureDoesNotMatch');
  });

  it('the app stores avatars in the bucket when STORAGE=s3', async () => {
    const t = await createTestApp({
      STORAGE: 's3',
      S3_ENDPOINT: endpoint,
      S3_REGION: 'eu-west-3',
      S3_BUCKET: 'chapterwise',
      S3_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      S3_SECRET_ACCESS_KEY: 'fake-secret-key',
    });
    const { user, auth } = await createUser(t.app);
    const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#f00' } })
      .png()
      .toBuffer();
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${user.id}`,
      headers: auth,
      payload: { avatar: `data:image/png;base64,${png.toString('base64')}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const avatar: string = res.json().user.avatar;
    expect(avatar.startsWith(`${endpoint}/chapterwise/avatars/${user.id}-`)).toBe(true);
    const served = await fetch(avatar);
    expect(served.status).toBe(200);
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(256);
    // Replacing it deletes the old object from the bucket.
    await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${user.id}`,
      headers: auth,
      payload: { avatar: '' },
    });
    expect((await fetch(avatar)).status).toBe(404);
    await t.close();
  });
});
