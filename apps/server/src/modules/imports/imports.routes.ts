import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  formatBytes,
  IMPORT_MAX_FILE_BYTES,
  IMPORT_MAX_REQUEST_BYTES,
  ImportAnswerSchema,
  ParseOfficeBodySchema,
  TranscribeImageBodySchema,
} from '@chapterwise/shared';
import { payloadTooLarge } from '../../lib/errors.js';
import { requireUser } from '../../plugins/auth.js';
import { createOcrProvider } from '../../providers/ocr/ocr-provider.js';
import { createOfficeProvider } from '../../providers/office/office-provider.js';
import { createImportService, type ImportService } from './imports.service.js';

/** The JSON body carrying IMPORT_MAX_REQUEST_BYTES as base64 (4 characters per 3 bytes). */
export const IMPORT_BODY_LIMIT_BYTES = Math.ceil(IMPORT_MAX_REQUEST_BYTES / 3) * 4 + 64 * 1024;

/** Per teacher: a folder of a dozen files at once passes; a script hammering the OCR does not. */
const RATE_LIMIT = { max: 40, timeWindow: '1 minute' };

export interface ImportRoutesOptions {
  /** Tests may pass their own service (for example with a short time limit). */
  service?: ImportService;
}

/**
 * `POST /materials/transcribeimage` and `POST /materials/parseoffice`: file import into the
 * reference text. Logged-in only (checked before the body is read), rate limited per user.
 */
export const importsRoutes: FastifyPluginAsyncZod<ImportRoutesOptions> = async (app, options) => {
  const service =
    options.service ??
    createImportService({
      ocr: createOcrProvider(app.log),
      office: createOfficeProvider(app.config, app.log),
    });
  app.addHook('onReady', async () => {
    // Load the OCR model and the parsers now rather than on a teacher's first file.
    if (app.config.env !== 'test') service.warmUp();
  });
  app.addHook('onClose', async () => {
    await service.close();
  });

  const routeConfig = {
    bodyLimit: IMPORT_BODY_LIMIT_BYTES,
    // Before the body is read: visitors without a session never upload megabytes, and an
    // upload over the limit is told what the limits are, not just "too large". (Fastify's
    // bodyLimit still stops a body sent without a length.)
    onRequest: async (request: FastifyRequest) => {
      await requireUser(request);
      if (Number(request.headers['content-length'] ?? 0) > IMPORT_BODY_LIMIT_BYTES) {
        throw payloadTooLarge(
          `This upload is larger than ${formatBytes(IMPORT_MAX_REQUEST_BYTES)}. Each request can carry at most ${formatBytes(IMPORT_MAX_REQUEST_BYTES)}, and each file at most ${formatBytes(IMPORT_MAX_FILE_BYTES)}.`,
        );
      }
    },
    config: {
      rateLimit: {
        ...RATE_LIMIT,
        keyGenerator: async (request: FastifyRequest) =>
          (await request.currentUser())?.id ?? request.ip,
      },
    },
  };

  app.post(
    '/materials/transcribeimage',
    {
      ...routeConfig,
      schema: {
        tags: ['materials'],
        summary: 'Read the printed text of a photo or scan (JPEG or PNG, base64)',
        security: [{ bearer: [] }],
        body: TranscribeImageBodySchema,
        response: { 200: ImportAnswerSchema },
      },
    },
    async (request) => service.transcribeImage(request.body.image),
  );

  app.post(
    '/materials/parseoffice',
    {
      ...routeConfig,
      schema: {
        tags: ['materials'],
        summary: 'Read the text of a Word, PowerPoint, Excel, PDF or OpenDocument file (base64)',
        security: [{ bearer: [] }],
        body: ParseOfficeBodySchema,
        response: { 200: ImportAnswerSchema },
      },
    },
    async (request) => service.parseOffice(request.body.file, request.body.fileName),
  );
};
