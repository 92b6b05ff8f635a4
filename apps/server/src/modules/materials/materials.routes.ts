import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ChapterMaterialCardSchema,
  ChapterMaterialsQuerySchema,
  CheckGenerationAnswerSchema,
  CheckGenerationBodySchema,
  CreateSetBodySchema,
  DeleteMaterialBodySchema,
  DeleteSetBodySchema,
  EXPORT_NOTES_HEADER,
  ExportQuerySchema,
  ExportSetQuerySchema,
  GenerateMaterialAnswerSchema,
  GenerateMaterialBodySchema,
  IdQuerySchema,
  ListQuerySchema,
  MaterialSchema,
  MaterialSetSchema,
  MaterialSetsAnswerSchema,
  MaterialsAnswerSchema,
  MaterialsQuerySchema,
  MoveMaterialBodySchema,
  UpdateMaterialBodySchema,
  WasSuccessfulSchema,
  listOf,
} from '@chapterwise/shared';
import { requireUser } from '../../plugins/auth.js';
import type { ExportFile } from './exports/index.js';
import { availableMaterialTypes, type MaterialsService } from './materials.service.js';

const tags = ['materials'];
const security = [{ bearer: [] }];
/**
 * Answers carrying whole documents are built by the presenter from validated rows: documenting
 * them with their zod schema is right, re-validating every question of every material on the
 * way out is not (it cost more than the query on a page of 24).
 */
const trustedSerializer = () => (data: unknown) => JSON.stringify(data);

/** The generation form carries up to a long chapter; the service answers 413 past its limit. */
const GENERATE_BODY_LIMIT = 4 * 1024 * 1024;
/** An edited document of 60 long questions with their quotes stays well under this. */
const UPDATE_BODY_LIMIT = 2 * 1024 * 1024;

/**
 * The material generator's API (spec §7 Materials, shapes in api-shapes.md). Thin: parse,
 * authorise, call the service, shape the answer.
 */
export const materialsRoutes = (service: MaterialsService): FastifyPluginAsyncZod =>
  async function materials(app) {
    app.post(
      '/materials/createset',
      {
        schema: {
          tags,
          security,
          summary: 'Add a folder',
          body: CreateSetBodySchema,
          response: { 201: z.object({ data: MaterialSetSchema }) },
        },
      },
      async (request, reply) => {
        const user = await requireUser(request);
        const data = await service.createSet(user, request.body.name);
        return reply.status(201).send({ data });
      },
    );

    app.get(
      '/materials/getusersmaterialsets',
      {
        schema: {
          tags,
          security,
          summary: "The user's folders",
          querystring: ListQuerySchema,
          response: { 200: MaterialSetsAnswerSchema },
        },
      },
      async (request, reply) => {
        const user = await requireUser(request);
        reply.header('cache-control', 'no-store');
        return { materialSets: await service.listSets(user, request.query) };
      },
    );

    app.get(
      '/materials/getmaterialset',
      {
        schema: {
          tags,
          security,
          summary: 'One of the user’s folders',
          querystring: IdQuerySchema,
          response: { 200: z.object({ data: MaterialSetSchema }) },
        },
      },
      async (request, reply) => {
        const user = await requireUser(request);
        reply.header('cache-control', 'no-store');
        return { data: await service.getSet(user, request.query.id) };
      },
    );

    app.post(
      '/materials/deletematerialset',
      {
        schema: {
          tags,
          security,
          summary: 'Delete a folder (its materials are kept)',
          body: DeleteSetBodySchema,
          response: { 200: WasSuccessfulSchema },
        },
      },
      async (request) => {
        const user = await requireUser(request);
        await service.deleteSet(user, request.body._id);
        return { wasSuccessful: true as const };
      },
    );

    app.post(
      '/materials/generatematerial',
      {
        bodyLimit: GENERATE_BODY_LIMIT,
        config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
        schema: {
          tags,
          security,
          summary: 'Start a generation (takes one credit unless subscribed)',
          body: GenerateMaterialBodySchema,
          response: { 201: GenerateMaterialAnswerSchema },
        },
      },
      async (request, reply) => {
        const user = await requireUser(request);
        const answer = await service.startGeneration(user, request.body);
        return reply.status(201).send(answer);
      },
    );

    app.post(
      '/materials/checkgeneration',
      {
        schema: {
          tags,
          security,
          summary: 'Whether a generation has finished',
          body: CheckGenerationBodySchema,
          response: { 200: CheckGenerationAnswerSchema },
        },
      },
      async (request, reply) => {
        const user = await requireUser(request);
        reply.header('cache-control', 'no-store');
        return service.checkGeneration(user, request.body.id);
      },
    );

    app.get(
      '/materials/getusersmaterials',
      {
        serializerCompiler: trustedSerializer,
        schema: {
          tags,
          security,
          summary:
            "The user's materials, newest first (optionally of one folder); view=card sends the cards' fields only",
          querystring: MaterialsQuerySchema,
          response: { 200: MaterialsAnswerSchema },
        },
      },
      async (request, reply) => {
        const user = await requireUser(request);
        reply.header('cache-control', 'no-store');
        const { view, ...options } = request.query;
        return {
          generatedMaterials:
            view === 'card'
              ? await service.listMaterialCards(user, options)
              : await service.listMaterials(user, options),
        };
      },
    );

    app.get(
      '/materials/getmaterial',
      {
        serializerCompiler: trustedSerializer,
        schema: {
          tags,
          summary: 'One material (own, or platform-made)',
          querystring: IdQuerySchema,
          response: { 200: z.object({ data: MaterialSchema }) },
        },
      },
      async (request, reply) => {
        const user = await request.currentUser();
        reply.header('cache-control', 'no-store');
        return { data: await service.getMaterial(user, request.query.id) };
      },
    );

    app.post(
      '/materials/deletegeneratedmaterial',
      {
        schema: {
          tags,
          security,
          summary: 'Delete a material',
          body: DeleteMaterialBodySchema,
          response: { 200: WasSuccessfulSchema },
        },
      },
      async (request) => {
        const user = await requireUser(request);
        await service.deleteMaterial(user, request.body.id);
        return { wasSuccessful: true as const };
      },
    );

    app.post(
      '/materials/movegeneratedmaterial',
      {
        schema: {
          tags,
          security,
          summary: 'Move a material into a folder (setId null: out of any folder)',
          body: MoveMaterialBodySchema,
          response: { 200: z.object({ data: MaterialSchema }) },
        },
      },
      async (request) => {
        const user = await requireUser(request);
        return { data: await service.moveMaterial(user, request.body.id, request.body.setId) };
      },
    );

    app.post(
      '/materials/updatematerial',
      {
        bodyLimit: UPDATE_BODY_LIMIT,
        serializerCompiler: trustedSerializer,
        schema: {
          tags,
          security,
          summary:
            "Save a teacher's edit of their own finished material (evidence checked again, not refused)",
          body: UpdateMaterialBodySchema,
          response: { 200: z.object({ data: MaterialSchema }) },
        },
      },
      async (request) => {
        const user = await requireUser(request);
        return { data: await service.updateMaterial(user, request.body) };
      },
    );

    app.get(
      '/materials/getavailablematerialtypes',
      {
        schema: {
          tags,
          summary: 'The material types on offer',
          response: { 200: z.array(z.string()) },
        },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'public, max-age=300');
        return availableMaterialTypes();
      },
    );

    app.get(
      '/materials/getavailablechaptermaterials',
      {
        serializerCompiler: trustedSerializer,
        schema: {
          tags,
          summary: 'Materials the platform made for a featured chapter',
          querystring: ChapterMaterialsQuerySchema,
          response: { 200: listOf(ChapterMaterialCardSchema) },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'public, max-age=60');
        return service.chapterMaterials(request.query.bookUrl, request.query.chapterUrl);
      },
    );

    app.get(
      '/materials/exportmaterial',
      {
        config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
        schema: {
          tags,
          summary:
            'Download a material in one format: Word, PDF, raw text, Moodle (GIFT, Aiken), QTI, Blackboard, Kahoot, Quizlet, Blooket, Wayground, Gimkit',
          description: `The answer's ${EXPORT_NOTES_HEADER} header lists (URL-encoded, one a line) what the format shortened or left out.`,
          querystring: ExportQuerySchema,
          produces: EXPORT_CONTENT_TYPES,
        },
      },
      async (request, reply) => {
        const user = await request.currentUser();
        const { id, format, copy } = request.query;
        return sendFile(reply, await service.exportMaterial(user, id, format, copy));
      },
    );

    app.get(
      '/materials/exportset',
      {
        config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
        schema: {
          tags,
          security,
          summary:
            'Download a folder in one format: one quiz per material in one file where the format allows, a zip otherwise',
          querystring: ExportSetQuerySchema,
          produces: [...EXPORT_CONTENT_TYPES, 'application/zip'],
        },
      },
      async (request, reply) => {
        const user = await requireUser(request);
        const { id, format, copy } = request.query;
        return sendFile(reply, await service.exportSet(user, id, format, copy));
      },
    );
  };

const EXPORT_CONTENT_TYPES = [
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/pdf',
  'text/plain',
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/zip',
];

/**
 * Sends an exported file as a download: its type, an ASCII file name with the UTF-8 one beside
 * it (RFC 6266), no caching, and the notes of what was shortened or left out.
 */
function sendFile(reply: FastifyReply, file: ExportFile) {
  const ascii = file.fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '');
  reply
    .header('content-type', file.contentType)
    .header(
      'content-disposition',
      `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
    )
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff');
  if (file.notes.length)
    reply.header(EXPORT_NOTES_HEADER, encodeURIComponent(file.notes.join('\n')));
  return reply.send(file.body);
}
