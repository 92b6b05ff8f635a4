import type { Config } from '../../config.js';
import { LocalStorage } from './local.js';
import { S3Storage } from './s3.js';
import type { Storage } from './storage.js';

export type { PutOptions, Storage, StoredObject } from './storage.js';
export { contentTypeOf, IMMUTABLE_CACHE } from './storage.js';
export { LocalStorage, LOCAL_UPLOADS_PREFIX } from './local.js';
export { S3Storage } from './s3.js';

/** Chooses the storage adapter once, from config (`STORAGE=local|s3`). */
export function createStorage(config: Config): Storage {
  return config.storage.driver === 's3'
    ? new S3Storage(config.storage)
    : new LocalStorage(config.storage.dir);
}
