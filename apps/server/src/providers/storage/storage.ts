/** A stored object as read back. */
export interface StoredObject {
  body: Buffer;
  contentType: string;
}

export interface PutOptions {
  contentType: string;
  /** Defaults to a year, immutable: callers give every new content a new key. */
  cacheControl?: string;
}

/**
 * The storage provider interface (uploads: avatars, blog thumbnails, generated images).
 * Keys look like paths: `avatars/<id>.webp`. Adapters: local files (default) and S3.
 */
export interface Storage {
  readonly kind: 'local' | 's3';
  put(key: string, body: Buffer, options: PutOptions): Promise<void>;
  /** The object, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  /** Removes the object; removing a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** The address browsers load the object from (relative for local files). */
  publicUrl(key: string): string;
  /** The key behind one of this storage's public addresses, or null for any other address. */
  keyFromUrl(url: string): string | null;
}

export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

/** Keys: lowercase path segments of letters, digits, `_`, `-`, `.`; no `..`, no leading `/`. */
const KEY = /^[a-z0-9_-][a-z0-9_.-]*(\/[a-z0-9_-][a-z0-9_.-]*)*$/i;

/** Throws for a key that could escape its folder or needs escaping (a programming error). */
export function assertValidKey(key: string): void {
  if (key.length > 512 || !KEY.test(key) || key.split('/').some((part) => part === '..')) {
    throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
  }
}

const TYPES: Record<string, string> = {
  webp: 'image/webp',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  json: 'application/json',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/** The content type a key's extension stands for (local files keep no metadata). */
export function contentTypeOf(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return TYPES[ext] ?? 'application/octet-stream';
}
