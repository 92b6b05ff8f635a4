import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ChangeModelPrivacyBodySchema,
  CreateModelFieldsSchema,
  CreatePostBodySchema,
  GenerateImageBodySchema,
  IdOnlyBodySchema,
  IdOnlyQuerySchema,
  IMAGE_LIMITS,
  ModelAnswerSchema,
  ModelIdBodySchema,
  ModelsAnswerSchema,
  PostAnswerSchema,
  PredictionAnswerSchema,
  PredictionByUrlQuerySchema,
  PredictionPageSchema,
  PredictionsAnswerSchema,
  PredictionsForModelQuerySchema,
  UpscaleAnswerSchema,
  UpscaleBodySchema,
  UserPostsAnswerSchema,
  UserPostsQuerySchema,
  WasSuccessfulSchema,
} from '@chapterwise/shared';
import { badRequest, payloadTooLarge, unsupportedMediaType } from '../../lib/errors.js';
import { requireUser } from '../../plugins/auth.js';
import { normalisePhoto, PhotoError } from '../../providers/images/index.js';
import type { ImagesService } from './images.service.js';

const tags = ['models'];
const security = [{ bearer: [] }];
const ok = { wasSuccessful: true as const };

/** `getdreamboothmodel?modelId`: a base model's id or a uuid. */
const ModelQuerySchema = z.object({
  modelId: z.string().trim().min(1, { error: 'is required' }).max(80),
});

/**
 * The image studio's API (spec §7 Models). Thin: parse, authorise, call the service.
 * `POST /models/create` takes multipart/form-data (name, subjectClass, triggerWord and 5–30
 * files), since 30 photos do not belong in a JSON body.
 */
export const imagesRoutes = (service: ImagesService): FastifyPluginAsyncZod =>
  async function images(app) {
    await app.register(createModelRoute(service));

    app.get(
      '/models/getusersdreamboothmodels',
      {
        schema: {
          tags,
          security,
          summary: 'The teacher’s custom models',
          response: { 200: ModelsAnswerSchema },
        },
      },
      async (request) => service.listModels(await requireUser(request)),
    );

    app.get(
      '/models/getbasedreamboothmodels',
      {
        schema: {
          tags,
          summary: 'The base models everyone may use',
          response: { 200: ModelsAnswerSchema },
        },
      },
      async () => service.baseModels(),
    );

    app.get(
      '/models/getdreamboothmodel',
      {
        schema: {
          tags,
          summary: 'One model: your own, a public one, or a base model',
          querystring: ModelQuerySchema,
          response: { 200: ModelAnswerSchema },
        },
      },
      async (request) => ({
        data: await service.getModel(await request.currentUser(), request.query.modelId),
      }),
    );

    app.post(
      '/models/deleteuserdreamboothmodel',
      {
        schema: {
          tags,
          security,
          summary: 'Delete one of your models (its images and posts go with it)',
          body: ModelIdBodySchema,
          response: { 200: WasSuccessfulSchema },
        },
      },
      async (request) => {
        await service.deleteModel(await requireUser(request), request.body.modelId);
        return ok;
      },
    );

    app.post(
      '/models/changeuserdreamboothmodelprivacy',
      {
        schema: {
          tags,
          security,
          summary: 'Make one of your models private or public',
          body: ChangeModelPrivacyBodySchema,
          response: { 200: ModelAnswerSchema },
        },
      },
      async (request) => ({
        data: await service.changeModelPrivacy(
          await requireUser(request),
          request.body.modelId,
          request.body.isPrivate,
        ),
      }),
    );

    app.post(
      '/models/generatedreamboothimage',
      {
        schema: {
          tags,
          security,
          summary: 'Generate 1–4 images (1 image credit each)',
          body: GenerateImageBodySchema,
          response: { 201: PredictionAnswerSchema },
        },
      },
      async (request, reply) => {
        const prediction = await service.generate(await requireUser(request), request.body);
        return reply.status(201).send({ data: prediction });
      },
    );

    app.get(
      '/models/getreplicateprediction',
      {
        schema: {
          tags,
          security,
          summary: 'One of your predictions and its images',
          querystring: IdOnlyQuerySchema,
          response: { 200: PredictionAnswerSchema },
        },
      },
      async (request) => ({
        data: await service.getPrediction(await requireUser(request), request.query.id),
      }),
    );

    app.get(
      '/models/getpredictionsfordreamboothmodel',
      {
        schema: {
          tags,
          security,
          summary:
            'Predictions with a model: all of yours (modelId=all for every model), or the finished images of anyone’s public model',
          querystring: PredictionsForModelQuerySchema,
          response: { 200: PredictionsAnswerSchema },
        },
      },
      async (request) =>
        service.listPredictions(await request.currentUser(), request.query.modelId, {
          page: request.query.page,
          limit: request.query.limit,
        }),
    );

    app.get(
      '/models/getdreamboothprediction',
      {
        schema: {
          tags,
          summary: 'A posted image by its creator and its predictionUrl (404 unless posted)',
          querystring: PredictionByUrlQuerySchema,
          response: { 200: PredictionPageSchema },
        },
      },
      async (request) => ({
        data: await service.predictionPage(request.query.username, request.query.url),
      }),
    );

    app.post(
      '/models/deletedreamboothimage',
      {
        schema: {
          tags,
          security,
          summary: 'Delete one of your images (its upscales and post go with it)',
          body: IdOnlyBodySchema,
          response: { 200: WasSuccessfulSchema },
        },
      },
      async (request) => {
        await service.deleteImage(await requireUser(request), request.body.id);
        return ok;
      },
    );

    app.post(
      '/models/upscaledreamboothimage',
      {
        schema: {
          tags,
          security,
          summary: 'Enlarge one of your images 2× or 4× (1 image credit)',
          body: UpscaleBodySchema,
          response: { 201: UpscaleAnswerSchema },
        },
      },
      async (request, reply) => {
        const upscale = await service.upscale(
          await requireUser(request),
          request.body.imageId,
          request.body.scale as 2 | 4,
        );
        return reply.status(201).send({ data: upscale });
      },
    );

    app.get(
      '/models/getreplicateupscaleprediction',
      {
        schema: {
          tags,
          security,
          summary: 'One of your upscales',
          querystring: IdOnlyQuerySchema,
          response: { 200: UpscaleAnswerSchema },
        },
      },
      async (request) => ({
        data: await service.getUpscale(await requireUser(request), request.query.id),
      }),
    );

    app.post(
      '/models/deletedreamboothupscale',
      {
        schema: {
          tags,
          security,
          summary: 'Delete one of your upscales',
          body: IdOnlyBodySchema,
          response: { 200: WasSuccessfulSchema },
        },
      },
      async (request) => {
        await service.deleteUpscale(await requireUser(request), request.body.id);
        return ok;
      },
    );

    app.post(
      '/models/createuserprofilepost',
      {
        schema: {
          tags,
          security,
          summary: 'Post one of your images to your public profile',
          body: CreatePostBodySchema,
          response: { 201: PostAnswerSchema },
        },
      },
      async (request, reply) => {
        const post = await service.createPost(await requireUser(request), request.body);
        return reply.status(201).send({ data: post });
      },
    );

    app.get(
      '/models/getuserprofileposts',
      {
        schema: {
          tags,
          summary: 'A user’s profile posts (data.posts)',
          querystring: UserPostsQuerySchema,
          response: { 200: UserPostsAnswerSchema },
        },
      },
      async (request) => ({ data: await service.listPosts(request.query.username) }),
    );

    app.post(
      '/models/deleteuserprofilepost',
      {
        schema: {
          tags,
          security,
          summary: 'Delete one of your profile posts',
          body: IdOnlyBodySchema,
          response: { 200: WasSuccessfulSchema },
        },
      },
      async (request) => {
        await service.deletePost(await requireUser(request), request.body.id);
        return ok;
      },
    );
  };

/** `POST /models/create`: multipart, in its own scope (the multipart parser lives only here). */
const createModelRoute = (service: ImagesService): FastifyPluginAsync =>
  async function createModel(app) {
    await app.register(multipart, {
      limits: {
        // One byte over the limit tells a file that is too large from one exactly at it.
        fileSize: IMAGE_LIMITS.photoMaxBytes + 1,
        files: IMAGE_LIMITS.maxPhotos + 1,
        fields: 10,
        fieldSize: 1024,
        parts: IMAGE_LIMITS.maxPhotos + 12,
      },
    });
    app.post(
      '/models/create',
      {
        schema: {
          tags,
          security,
          summary:
            'Train a custom model: multipart form with name, subjectClass (person, pet, object, style), triggerWord and 5–30 photos (JPEG, PNG, HEIC or WebP, ≤ 15 MB each); 1 model training credit',
          consumes: ['multipart/form-data'],
        },
      },
      async (request, reply) => {
        const user = await requireUser(request);
        if (!request.isMultipart()) {
          throw unsupportedMediaType('Send the model as multipart/form-data with its photos.');
        }
        const fields: Record<string, string> = {};
        const photos: Buffer[] = [];
        let total = 0;
        try {
          for await (const part of request.parts()) {
            if (part.type === 'field') {
              fields[part.fieldname] = typeof part.value === 'string' ? part.value : '';
              continue;
            }
            if (photos.length >= IMAGE_LIMITS.maxPhotos) {
              throw badRequest(
                `Invalid field "photos": upload at most ${IMAGE_LIMITS.maxPhotos} photos.`,
              );
            }
            const name = (part.filename || `photo ${photos.length + 1}`).slice(0, 120);
            const bytes = await part.toBuffer();
            total += bytes.length;
            if (total > IMAGE_LIMITS.photosMaxTotalBytes) {
              throw payloadTooLarge(
                'The photos are larger than 200 MB together. Please send fewer or smaller photos.',
              );
            }
            photos.push(await normalisePhoto(bytes, name));
          }
        } catch (error) {
          throw translateUploadError(error);
        }
        const parsed = CreateModelFieldsSchema.safeParse(fields);
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          throw badRequest(`Invalid field "${issue.path.join('.')}": ${issue.message}`);
        }
        const model = await service.createModel(user, parsed.data, photos);
        return reply.status(201).send({ data: model });
      },
    );
  };

function translateUploadError(error: unknown): unknown {
  if (error instanceof PhotoError) {
    if (error.kind === 'type') return unsupportedMediaType(error.message);
    if (error.kind === 'size') return payloadTooLarge(error.message);
    return badRequest(error.message);
  }
  const code = (error as { code?: string } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    return payloadTooLarge(
      `A photo is larger than ${IMAGE_LIMITS.photoMaxBytes / 1024 / 1024} MB. Please choose smaller photos.`,
    );
  }
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') {
    return badRequest(`Invalid field "photos": upload at most ${IMAGE_LIMITS.maxPhotos} photos.`);
  }
  if (code === 'FST_FIELDS_LIMIT') return badRequest('The form has too many fields.');
  if (code === 'FST_MP_PREMATURE_CLOSE') return badRequest('The upload was interrupted.');
  if (code === 'FST_PROTO_VIOLATION') return badRequest('The form is not valid.');
  return error;
}

/** The provider's webhook: the raw body is this scope's only parser (the signature is over it). */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;
export const imagesWebhookRoutes = (service: ImagesService): FastifyPluginAsync =>
  async function imagesWebhook(app) {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );
    app.post(
      '/models/webhook/replicate',
      {
        schema: {
          tags,
          summary: 'Replicate webhook (signed: webhook-id, webhook-timestamp, webhook-signature)',
          response: {
            200: z.object({
              received: z.literal(true),
              outcome: z.enum(['applied', 'duplicate', 'ignored']),
            }),
          },
        },
      },
      async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const outcome = await service.receiveWebhook(request.headers, raw);
        return { received: true as const, outcome };
      },
    );
  };
