import type { FastifyBaseLogger } from 'fastify';
import type { ExtractedText, ParsableFormat } from './extract-text.js';
import { SofficeConverter } from './soffice.js';
import { WorkerOfficeProvider } from './worker-office-provider.js';

export type { ExtractedText } from './extract-text.js';

/** Every document format the import reads; .ppt and .xls only with LibreOffice installed. */
export type OfficeFormat = ParsableFormat | 'ppt' | 'xls';

/** Reads the text of Word, PowerPoint, Excel, PDF and OpenDocument files. */
export interface OfficeProvider {
  /** Text of a document whose format was decided from its bytes. Throws AppError (4xx/503). */
  extract(bytes: Buffer, format: OfficeFormat): Promise<ExtractedText>;
  /** Whether .ppt and .xls can be read (LibreOffice is installed). */
  readonly convertsLegacyFormats: boolean;
  /** Starts the parsing thread ahead of the first request. */
  warmUp(): void;
  close(): Promise<void>;
}

/** The provider the config asks for: parsing in a worker thread, LibreOffice when present. */
export function createOfficeProvider(
  config: { sofficePath: string | null },
  logger: FastifyBaseLogger,
): OfficeProvider {
  return new WorkerOfficeProvider({
    soffice: config.sofficePath ? new SofficeConverter(config.sofficePath) : null,
    logger,
  });
}
