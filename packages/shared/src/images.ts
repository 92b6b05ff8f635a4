import './zod-setup.js';
import { z } from 'zod';
import { listOf } from './meta.js';

/**
 * AI image studio (spec §1, §7 Models): custom models trained on a teacher's photos,
 * predictions (text to image), upscales and profile posts. Wire names follow the spec
 * (`_id`, `predictionUrl`, `creatorUsername`, `createdOnDate`).
 */

export const IMAGE_LIMITS = {
  promptChars: 1000,
  negativePromptChars: 500,
  minImages: 1,
  maxImages: 4,
  minPhotos: 5,
  maxPhotos: 30,
  /** One training photo. */
  photoMaxBytes: 15 * 1024 * 1024,
  /** All the photos of one model together. */
  photosMaxTotalBytes: 200 * 1024 * 1024,
  modelNameChars: 60,
  triggerWordChars: 24,
  postNameChars: 100,
  postDescriptionChars: 1000,
} as const;

export const SUBJECT_CLASSES = ['person', 'pet', 'object', 'style'] as const;
export type SubjectClass = (typeof SUBJECT_CLASSES)[number];

export const ASPECT_RATIOS = ['1:1', '4:3', '3:4', '16:9', '9:16'] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];

/** Pixel size of a generated image for each ratio (the long side is 1024). */
export const ASPECT_SIZES: Record<AspectRatio, { width: number; height: number }> = {
  '1:1': { width: 1024, height: 1024 },
  '4:3': { width: 1024, height: 768 },
  '3:4': { width: 768, height: 1024 },
  '16:9': { width: 1024, height: 576 },
  '9:16': { width: 576, height: 1024 },
};

export const UPSCALE_FACTORS = [2, 4] as const;
export type UpscaleFactor = (typeof UPSCALE_FACTORS)[number];

export const MODEL_STATUSES = ['queued', 'training', 'ready', 'failed'] as const;
export type ModelStatus = (typeof MODEL_STATUSES)[number];

export const RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'canceled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** Shown on every image the offline (local) image engine makes. */
export const OFFLINE_PREVIEW_LABEL = 'offline preview';

/**
 * Words a prompt, a model or a post may not contain (checked as whole words, any case). The
 * studio is for classroom pictures: violence, sexual content, hate and drugs are refused.
 */
export const BLOCKED_PROMPT_WORDS = [
  'nude',
  'nudes',
  'naked',
  'nsfw',
  'porn',
  'porno',
  'pornographic',
  'sex',
  'sexy',
  'sexual',
  'erotic',
  'fetish',
  'hentai',
  'topless',
  'lingerie',
  'gore',
  'gory',
  'blood',
  'bloody',
  'corpse',
  'dismembered',
  'decapitated',
  'beheaded',
  'mutilated',
  'torture',
  'suicide',
  'self-harm',
  'murder',
  'killing',
  'massacre',
  'terrorist',
  'nazi',
  'swastika',
  'kkk',
  'cocaine',
  'heroin',
  'meth',
] as const;

/** The first blocked word in a text, or null. */
export function findBlockedWord(text: string): string | null {
  const words = text.toLowerCase().match(/[a-z]+(?:-[a-z]+)*/g) ?? [];
  const blocked = new Set<string>(BLOCKED_PROMPT_WORDS);
  for (const word of words) {
    if (blocked.has(word)) return word;
    for (const part of word.split('-')) if (blocked.has(part)) return part;
  }
  return null;
}

/** The 400 message for a blocked word in a field. */
export function blockedWordMessage(field: string, word: string): string {
  return `Invalid field "${field}": "${word}" is not allowed in the image studio. Please describe a picture suitable for a classroom.`;
}

const Uuid = z.uuid({ error: 'must be an id' });
const text = (max: number) =>
  z
    .string({ error: 'must be text' })
    .trim()
    .max(max, { error: `must be at most ${max} characters` });
const requiredText = (max: number) => text(max).min(1, { error: 'is required' });

/* ----------------------------------------------------------------------------------------- */
/* Models                                                                                     */
/* ----------------------------------------------------------------------------------------- */

export const ImageModelSchema = z.object({
  _id: z.string(),
  name: z.string(),
  /** Base models are offered to everyone; custom ones belong to a teacher. */
  isBase: z.boolean(),
  subjectClass: z.enum(SUBJECT_CLASSES).nullable(),
  triggerWord: z.string(),
  description: z.string(),
  status: z.enum(MODEL_STATUSES),
  /** 0–100 while training. */
  progress: z.number().int().min(0).max(100),
  error: z.string().optional(),
  isPrivate: z.boolean(),
  cover: z.string().nullable(),
  photoCount: z.number().int().nonnegative(),
  creatorUsername: z.string().nullable(),
  createdAt: z.string(),
  /** The engine that runs it: `local` (offline preview) or `replicate`. */
  engine: z.string(),
});
export type ImageModel = z.infer<typeof ImageModelSchema>;

/** The fields of `POST /models/create` besides the photos (multipart form fields). */
export const CreateModelFieldsSchema = z.object({
  name: requiredText(IMAGE_LIMITS.modelNameChars),
  subjectClass: z.enum(SUBJECT_CLASSES, {
    error: `must be one of ${SUBJECT_CLASSES.join(', ')}`,
  }),
  triggerWord: requiredText(IMAGE_LIMITS.triggerWordChars).regex(/^[A-Za-z][A-Za-z0-9_-]*$/, {
    error: 'must be one word of letters and digits, starting with a letter',
  }),
});
export type CreateModelFields = z.infer<typeof CreateModelFieldsSchema>;

export const ModelIdQuerySchema = z.object({ modelId: Uuid });
export const ModelIdBodySchema = z.object({ modelId: Uuid });
export const ChangeModelPrivacyBodySchema = z.object({
  modelId: Uuid,
  isPrivate: z.boolean({ error: 'must be true or false' }),
});
export const ModelAnswerSchema = z.object({ data: ImageModelSchema });
export const ModelsAnswerSchema = listOf(ImageModelSchema);

/* ----------------------------------------------------------------------------------------- */
/* Predictions (generated images)                                                             */
/* ----------------------------------------------------------------------------------------- */

export const UpscaleSchema = z.object({
  _id: z.string(),
  imageId: z.string(),
  scale: z.number().int(),
  status: z.enum(RUN_STATUSES),
  error: z.string().optional(),
  image: z.string().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  createdAt: z.string(),
});
export type Upscale = z.infer<typeof UpscaleSchema>;

export const GeneratedImageSchema = z.object({
  _id: z.string(),
  predictionId: z.string(),
  predictionUrl: z.string(),
  image: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  prompt: z.string(),
  modelId: z.string(),
  modelName: z.string(),
  creatorUsername: z.string(),
  /** The post of this image on its creator's profile, when posted. */
  postId: z.string().nullable(),
  upscales: z.array(UpscaleSchema),
  createdAt: z.string(),
});
export type GeneratedImage = z.infer<typeof GeneratedImageSchema>;

export const PredictionSchema = z.object({
  _id: z.string(),
  modelId: z.string(),
  modelName: z.string(),
  prompt: z.string(),
  negativePrompt: z.string(),
  numImages: z.number().int(),
  aspectRatio: z.enum(ASPECT_RATIOS),
  status: z.enum(RUN_STATUSES),
  error: z.string().optional(),
  engine: z.string(),
  images: z.array(GeneratedImageSchema),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
export type Prediction = z.infer<typeof PredictionSchema>;

export const GenerateImageBodySchema = z.object({
  /** A base model's id (`base-…`) or the id of one of the teacher's ready models. */
  modelId: z
    .string({ error: 'must be a model id' })
    .trim()
    .min(1, { error: 'is required' })
    .max(80),
  prompt: requiredText(IMAGE_LIMITS.promptChars),
  negativePrompt: text(IMAGE_LIMITS.negativePromptChars).default(''),
  numImages: z.coerce
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(IMAGE_LIMITS.minImages, { error: `must be between 1 and ${IMAGE_LIMITS.maxImages}` })
    .max(IMAGE_LIMITS.maxImages, { error: `must be between 1 and ${IMAGE_LIMITS.maxImages}` })
    .default(1),
  aspectRatio: z
    .enum(ASPECT_RATIOS, { error: `must be one of ${ASPECT_RATIOS.join(', ')}` })
    .default('1:1'),
});
export type GenerateImageInput = z.input<typeof GenerateImageBodySchema>;

export const GenerateImageAnswerSchema = z.object({ data: PredictionSchema });
export const PredictionAnswerSchema = z.object({ data: PredictionSchema });
export const IdOnlyQuerySchema = z.object({ id: Uuid });
export const IdOnlyBodySchema = z.object({ id: Uuid });
export const PredictionsForModelQuerySchema = z.object({
  modelId: z.string().trim().min(1, { error: 'is required' }).max(80),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(24),
});
export const PredictionsAnswerSchema = listOf(PredictionSchema);
export const PredictionByUrlQuerySchema = z.object({
  username: requiredText(60),
  url: requiredText(200),
});
export const ImageAnswerSchema = z.object({ data: GeneratedImageSchema });

/* ----------------------------------------------------------------------------------------- */
/* Upscales                                                                                   */
/* ----------------------------------------------------------------------------------------- */

export const UpscaleBodySchema = z.object({
  imageId: Uuid,
  scale: z.coerce
    .number({ error: 'must be 2 or 4' })
    .refine((value) => value === 2 || value === 4, { error: 'must be 2 or 4' })
    .default(2),
});
export const UpscaleAnswerSchema = z.object({ data: UpscaleSchema });

/* ----------------------------------------------------------------------------------------- */
/* Profile posts                                                                              */
/* ----------------------------------------------------------------------------------------- */

export const UserPostSchema = z.object({
  _id: z.string(),
  name: z.string(),
  image: z.string(),
  description: z.string(),
  creatorUsername: z.string(),
  createdOnDate: z.string(),
  predictionUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type UserPost = z.infer<typeof UserPostSchema>;

export const CreatePostBodySchema = z.object({
  imageId: Uuid,
  /** Post the upscaled version of the image instead of the original. */
  upscaleId: Uuid.optional(),
  name: requiredText(IMAGE_LIMITS.postNameChars),
  description: text(IMAGE_LIMITS.postDescriptionChars).default(''),
});
export type CreatePostInput = z.input<typeof CreatePostBodySchema>;
export const PostAnswerSchema = z.object({ data: UserPostSchema });
export const UserPostsQuerySchema = z.object({ username: requiredText(60) });
export const UserPostsAnswerSchema = z.object({
  data: z.object({ posts: z.array(UserPostSchema), count: z.number().int() }),
});
/** A post's page: the post and the image's prompt and model. */
export const PredictionPageSchema = z.object({
  data: z.object({
    post: UserPostSchema,
    prompt: z.string(),
    modelName: z.string(),
  }),
});
export type PredictionPage = z.infer<typeof PredictionPageSchema>['data'];

export const ImageCreditsSchema = z.object({
  imageGenerationCredits: z.number().int(),
  modelTrainingCredits: z.number().int(),
});
