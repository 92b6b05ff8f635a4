import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import {
  assertValidKey,
  contentTypeOf,
  type PutOptions,
  type Storage,
  type StoredObject,
} from './storage.js';

/** The URL prefix the app serves local uploads under (see plugins/uploads.ts). */
export const LOCAL_UPLOADS_PREFIX = '/uploads/';

/**
 * Files under `DATA_DIR/uploads`, served by the app at `/uploads/<key>`. Writes go to a
 * temporary name first and are renamed into place, so a reader never sees half a file.
 */
export class LocalStorage implements Storage {
  readonly kind = 'local' as const;

  constructor(readonly dir: string) {}

  private file(key: string): string {
    assertValidKey(key);
    return path.join(this.dir, ...key.split('/'));
  }

  /** Local files keep no metadata: the type comes from the key's extension when served. */
  async put(key: string, body: Buffer, _options?: PutOptions): Promise<void> {
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(temporary, body);
    await rename(temporary, file);
  }

  async get(key: string): Promise<StoredObject | null> {
    try {
      return { body: await readFile(this.file(key)), contentType: contentTypeOf(key) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }

  publicUrl(key: string): string {
    assertValidKey(key);
    return `${LOCAL_UPLOADS_PREFIX}${key}`;
  }

  keyFromUrl(url: string): string | null {
    if (!url.startsWith(LOCAL_UPLOADS_PREFIX)) return null;
    const key = url.slice(LOCAL_UPLOADS_PREFIX.length);
    try {
      assertValidKey(key);
      return key;
    } catch {
      return null;
    }
  }
}
