import type { StorageConfig } from '../../config.js';
import { awsEncode, sha256Hex, signV4 } from './sigv4.js';
import {
  assertValidKey,
  IMMUTABLE_CACHE,
  type PutOptions,
  type Storage,
  type StoredObject,
} from './storage.js';

type S3Config = Extract<StorageConfig, { driver: 's3' }>;

/**
 * Any S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, Backblaze B2...) through plain
 * fetch and Signature V4: no SDK. Objects are read by browsers from `S3_PUBLIC_URL` (a CDN)
 * or the bucket's own address, so the bucket (or the CDN) must allow public reads.
 */
export class S3Storage implements Storage {
  readonly kind = 's3' as const;
  private readonly bucketUrl: string;
  private readonly publicBase: string;

  constructor(
    private readonly config: S3Config,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    const endpoint = new URL(config.endpoint);
    this.bucketUrl = config.forcePathStyle
      ? `${endpoint.origin}/${awsEncode(config.bucket)}`
      : `${endpoint.protocol}//${config.bucket}.${endpoint.host}`;
    this.publicBase = config.publicUrl ?? this.bucketUrl;
  }

  private objectUrl(key: string): URL {
    assertValidKey(key);
    return new URL(`${this.bucketUrl}/${key.split('/').map(awsEncode).join('/')}`);
  }

  private async request(
    method: 'GET' | 'PUT' | 'DELETE',
    key: string,
    body?: Buffer,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    const url = this.objectUrl(key);
    const signed = signV4({
      method,
      url,
      headers,
      payloadHash: sha256Hex(body ?? ''),
      region: this.config.region,
      service: 's3',
      accessKeyId: this.config.accessKeyId,
      secretAccessKey: this.config.secretAccessKey,
      date: new Date(),
    });
    delete signed.host; // fetch sets it from the URL
    return this.fetchImpl(url, {
      method,
      headers: signed,
      ...(body ? { body: new Uint8Array(body) } : {}),
      signal: AbortSignal.timeout(30_000),
    });
  }

  private async fail(action: string, key: string, response: Response): Promise<never> {
    const text = (await response.text().catch(() => '')).slice(0, 300);
    const code = /<Code>([^<]+)<\/Code>/.exec(text)?.[1] ?? '';
    throw new Error(`S3 ${action} ${key} failed: ${response.status} ${code}`.trim());
  }

  async put(key: string, body: Buffer, options: PutOptions): Promise<void> {
    const response = await this.request('PUT', key, body, {
      'content-type': options.contentType,
      'cache-control': options.cacheControl ?? IMMUTABLE_CACHE,
      'content-length': String(body.length),
    });
    if (!response.ok) await this.fail('PUT', key, response);
    await response.body?.cancel();
  }

  async get(key: string): Promise<StoredObject | null> {
    const response = await this.request('GET', key);
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) return this.fail('GET', key, response);
    return {
      body: Buffer.from(await response.arrayBuffer()),
      contentType: response.headers.get('content-type') ?? 'application/octet-stream',
    };
  }

  async delete(key: string): Promise<void> {
    const response = await this.request('DELETE', key);
    if (!response.ok && response.status !== 404) await this.fail('DELETE', key, response);
    await response.body?.cancel();
  }

  publicUrl(key: string): string {
    assertValidKey(key);
    return `${this.publicBase}/${key.split('/').map(awsEncode).join('/')}`;
  }

  keyFromUrl(url: string): string | null {
    const prefix = `${this.publicBase}/`;
    if (!url.startsWith(prefix)) return null;
    const key = url.slice(prefix.length).split('/').map(decodeURIComponent).join('/');
    try {
      assertValidKey(key);
      return key;
    } catch {
      return null;
    }
  }
}
