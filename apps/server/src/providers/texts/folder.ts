import { open } from 'node:fs/promises';
import path from 'node:path';
import {
  decodeText,
  textPath,
  TextFetchError,
  type FetchedText,
  type FetchOptions,
  type TextSource,
} from './texts.js';

/**
 * A local folder laid out like PG's cache (`{dir}/cache/epub/{id}/pg{id}.txt`), for a mirror
 * made with rsync, tests and the bulk CLI. A gzipped copy (`pg{id}.txt.gz`) is read too.
 */
export class FolderTextSource implements TextSource {
  readonly description: string;

  constructor(
    private readonly dir: string,
    private readonly maxBytes: number,
  ) {
    this.description = `folder ${dir}`;
  }

  async fetchText(id: number, options: FetchOptions = {}): Promise<FetchedText> {
    const file = path.join(this.dir, textPath(id));
    for (const candidate of [file, `${file}.gz`]) {
      let handle;
      try {
        handle = await open(candidate, 'r');
      } catch {
        continue;
      }
      try {
        const { size } = await handle.stat();
        if (size > this.maxBytes) {
          throw new TextFetchError('too_large', `The text is larger than ${this.maxBytes} bytes.`);
        }
        options.onProgress?.(0, size);
        let bytes: Uint8Array = await handle.readFile();
        if (candidate.endsWith('.gz')) {
          const { gunzipSync } = await import('node:zlib');
          bytes = gunzipSync(bytes, { maxOutputLength: this.maxBytes });
        }
        options.onProgress?.(size, size);
        return { text: decodeText(bytes, null), bytes: bytes.length, source: candidate };
      } catch (error) {
        if (error instanceof TextFetchError) throw error;
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
          throw new TextFetchError('too_large', `The text is larger than ${this.maxBytes} bytes.`);
        }
        throw error;
      } finally {
        await handle.close();
      }
    }
    throw new TextFetchError('not_found', `The mirror has no text for book ${id}.`);
  }
}
