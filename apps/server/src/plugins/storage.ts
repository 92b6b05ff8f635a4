import { mkdirSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  IMMUTABLE_CACHE,
  LOCAL_UPLOADS_PREFIX,
  LocalStorage,
  type Storage,
} from '../providers/storage/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where uploads go (avatars, thumbnails, images): see providers/storage. */
    storage: Storage;
  }
}

/**
 * Makes the storage provider available to modules, and serves local uploads at
 * `/uploads/<key>`: cached for a year (every new content gets a new key), never sniffed,
 * and sandboxed so that an uploaded file can never run script on this origin.
 */
export const storagePlugin = fp(
  async (app: FastifyInstance, options: { storage: Storage }) => {
    app.decorate('storage', options.storage);
    if (!(options.storage instanceof LocalStorage)) return;
    mkdirSync(options.storage.dir, { recursive: true });
    await app.register(fastifyStatic, {
      root: options.storage.dir,
      prefix: LOCAL_UPLOADS_PREFIX,
      decorateReply: false,
      index: false,
      dotfiles: 'deny',
      setHeaders(reply) {
        reply.header('cache-control', IMMUTABLE_CACHE);
        reply.header('x-content-type-options', 'nosniff');
        reply.header(
          'content-security-policy',
          "default-src 'none'; style-src 'unsafe-inline'; sandbox",
        );
        reply.header('cross-origin-resource-policy', 'same-site');
      },
    });
  },
  { name: 'storage' },
);
