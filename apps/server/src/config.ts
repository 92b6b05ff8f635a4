import { randomBytes } from 'node:crypto';
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { PRODUCT_NAME } from '@chapterwise/shared';

/**
 * The only place that reads `process.env`. The environment is parsed once at boot; a bad
 * value stops the process with a readable list of every problem (not just the first).
 */
export const DEFAULT_GUTENBERG_MIRROR = 'https://www.gutenberg.org';
/** The largest text fetched (the longest PG plain texts are about 10 MB). */
export const MAX_TEXT_BYTES = 15 * 1024 * 1024;

const booleanish = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** A Replicate model: `owner/name` (its latest version) or `owner/name:version`. */
const REPLICATE_MODEL = /^[a-z0-9][\w.-]*\/[\w.-]+(:[0-9a-f]{64})?$/i;
const REPLICATE_MODEL_MESSAGE = 'must be owner/name or owner/name:version';

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: booleanish.default(false),
  /** The AI Teaching Assistant the header and dashboard open; default: PUBLIC_URL/assistant. */
  CHAT_URL: z.url().optional(),
  /** The assistant's engine: 'local' (offline) or 'openai' (the LLM_ settings); default: LLM's. */
  ASSISTANT_ENGINE: z.enum(['local', 'openai']).optional(),
  /** Messages one teacher may send the assistant per hour. */
  ASSISTANT_MESSAGES_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(100),
  /** Where the web app's production build lives; defaults to apps/web/build beside this server. */
  WEB_BUILD_DIR: z.string().optional(),
  /** Skip pg-boss (tests that do not need jobs start faster). */
  JOBS_ENABLED: booleanish.default(true),
  /** Guests' pages rendered into the cache after start (the home page and what it links to). */
  PAGE_CACHE_PREFILL: z.coerce.number().int().min(0).max(10_000).optional(),
  /** Load the sample books and blog posts on first start. */
  SEED_ON_START: booleanish.default(true),
  /** Web processes sharing the port (Node cluster); more than 1 needs DATABASE_URL. */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  /** Set by the cluster's primary for its web processes: migrations already ran. */
  CW_MIGRATED: booleanish.default(false),
  /** Send mail through this SMTP server; without it mail is written to DATA_DIR/outbox. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/\S+$/, 'must be an smtp:// or smtps:// URL')
    .optional(),
  /** The From address of every email. */
  MAIL_FROM: z.string().min(3).optional(),
  /** Where uploads (avatars, images) are kept: DATA_DIR/uploads, or an S3-compatible bucket. */
  STORAGE: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET: z.string().min(1).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Base URL that serves the bucket's objects (a CDN); defaults to the bucket's own URL. */
  S3_PUBLIC_URL: z.url().optional(),
  S3_FORCE_PATH_STYLE: booleanish.default(true),
  /** Multiplies the per-IP budgets of login, register, reset and newsletter (one school, one IP). */
  RATE_LIMIT_SCALE: z.coerce.number().positive().max(10_000).default(1),
  /** LibreOffice's soffice for .ppt/.xls import: empty = look on PATH, `off` = never. */
  SOFFICE_PATH: z.string().default(''),
  PATH: z.string().default(''),
  /** Material generator: 'local' (built-in, offline) or 'openai' (any OpenAI-compatible server). */
  LLM_PROVIDER: z.enum(['local', 'openai']).optional(),
  LLM_BASE_URL: z.url().optional(),
  LLM_API_KEY: z.string().min(1).optional(),
  LLM_MODEL: z.string().min(1).optional(),
  /** Seconds one model call may take (decimals allowed). */
  LLM_TIMEOUT: z.coerce.number().min(0.1).max(600).default(60),
  /** Worker threads of the built-in generator (0: run it on the main thread). */
  LLM_LOCAL_THREADS: z.coerce.number().int().min(0).max(16).default(1),
  /** Payments: 'local' (offline test checkout) or 'stripe'; STRIPE_SECRET_KEY alone picks stripe. */
  PAYMENTS: z.enum(['local', 'stripe']).optional(),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_\S+$/, 'must be a Stripe secret key (sk_… or rk_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\S+$/, 'must be a webhook signing secret (whsec_…)')
    .optional(),
  STRIPE_CONNECT_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\S+$/, 'must be a webhook signing secret (whsec_…)')
    .optional(),
  STRIPE_PRICE_SUBSCRIPTION: z
    .string()
    .regex(/^price_\S+$/, 'must be a price id (price_…)')
    .optional(),
  STRIPE_PRICE_MODEL_TRAINING_CREDIT: z
    .string()
    .regex(/^price_\S+$/, 'must be a price id (price_…)')
    .optional(),
  STRIPE_PRICE_IMAGE_CREDITS: z
    .string()
    .regex(/^price_\S+$/, 'must be a price id (price_…)')
    .optional(),
  /** Tests only: send Stripe API calls to this base URL (a fake Stripe server). */
  STRIPE_API_BASE: z.url().optional(),
  /** Where book texts are fetched: a base URL, a folder laid out like PG's cache, or `off`. */
  GUTENBERG_MIRROR: z.string().min(1).default(DEFAULT_GUTENBERG_MIRROR),
  /** Requests per second to the mirror (default 1 for gutenberg.org, 20 for others). */
  GUTENBERG_RATE: z.coerce.number().positive().max(1000).optional(),
  /** Requests at once to the mirror. */
  GUTENBERG_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /** Seconds the mirror may take to answer (and each pause while sending). */
  GUTENBERG_TIMEOUT: z.coerce.number().min(0.1).max(600).default(30),
  /** Image studio engine: 'local' (offline preview) or 'replicate'; REPLICATE_API_TOKEN alone picks replicate. */
  IMAGE_PROVIDER: z.enum(['local', 'replicate']).optional(),
  /** Seconds a local ("offline preview") model training takes. */
  IMAGE_LOCAL_TRAINING_SECONDS: z.coerce.number().min(0).max(600).default(4),
  REPLICATE_API_TOKEN: z.string().min(8).optional(),
  /** The account's webhook signing secret (`whsec_…`, GET /v1/webhooks/default/secret). */
  REPLICATE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\S+$/, 'must be a webhook signing secret (whsec_…)')
    .optional(),
  /** The Replicate account (user or organisation) that owns the teachers' trained models. */
  REPLICATE_OWNER: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]*$/i, 'must be a Replicate username')
    .optional(),
  REPLICATE_MODEL_GENERATE: z
    .string()
    .regex(REPLICATE_MODEL, REPLICATE_MODEL_MESSAGE)
    .default('black-forest-labs/flux-schnell'),
  REPLICATE_MODEL_UPSCALE: z
    .string()
    .regex(REPLICATE_MODEL, REPLICATE_MODEL_MESSAGE)
    .default(
      'nightmareai/real-esrgan:f121d640bd286e1fdc67f9799164c1d5be36ff74576ee11c803ae5b665dd46aa',
    ),
  REPLICATE_MODEL_TRAINER: z
    .string()
    .regex(
      /^[a-z0-9][\w.-]*\/[\w.-]+:[0-9a-f]{64}$/i,
      'must be owner/name:version (a 64-character version id)',
    )
    .default(
      'ostris/flux-dev-lora-trainer:b6af14222e6bd9be257cbc1ea4afda3cd0503e1133083b9d1de0364d8568e6ef',
    ),
  /** Tests only: send Replicate calls to this base URL (a fake Replicate server). */
  REPLICATE_API_BASE: z.url().optional(),
  /** Seconds between polls of a running Replicate job (the fallback when no webhook arrives). */
  REPLICATE_POLL_SECONDS: z.coerce.number().min(0.05).max(300).default(5),
  /** Print-on-demand shop: 'local' (offline test mode) or 'printify'; PRINTIFY_API_TOKEN alone picks printify. */
  PRINT_PROVIDER: z.enum(['local', 'printify']).optional(),
  PRINTIFY_API_TOKEN: z.string().min(8).optional(),
  PRINTIFY_SHOP_ID: z
    .string()
    .regex(/^\d{1,20}$/, 'must be the numeric id of your Printify shop')
    .optional(),
  /** The secret given to Printify when our webhooks were registered (X-Pfy-Signature). */
  PRINTIFY_WEBHOOK_SECRET: z.string().min(8).optional(),
  /** Tests only: send Printify calls to this base URL (a fake Printify server). */
  PRINTIFY_API_BASE: z.url().optional(),
  /** Seconds between polls of open Printify orders (the fallback when no webhook arrives). */
  PRINTIFY_POLL_SECONDS: z.coerce.number().min(0.05).max(86_400).default(600),
  /** The local shop's order clock: seconds per step (created → in production → shipped → delivered). */
  SHOP_LOCAL_STEP_SECONDS: z.coerce
    .number()
    .min(0.1)
    .max(7 * 86_400)
    .default(3600),
  /** The share of a sale paid to the artwork's creator when they are an authorised seller. */
  SHOP_SELLER_SHARE_PERCENT: z.coerce.number().min(0).max(90).default(20),
  /** Google OAuth client (Web application) for "Send to Google Forms"; both or neither. */
  GOOGLE_CLIENT_ID: z
    .string()
    .regex(/^\S+$/, 'must be an OAuth client id (…apps.googleusercontent.com)')
    .optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(8).optional(),
  /** Tests only: one base URL for Google's OAuth and Forms endpoints (a fake Google). */
  GOOGLE_API_BASE: z.url().optional(),
});

export type Env = z.input<typeof EnvSchema>;

export interface Config {
  env: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  jwtSecret: string;
  logLevel: string;
  trustProxy: boolean;
  chatUrl: string;
  assistant: { engine: 'local' | 'openai'; messagesPerHour: number };
  webBuildDir: string;
  jobsEnabled: boolean;
  /** Guests' pages rendered into the render cache once the server listens (0: none). */
  pageCachePrefill: number;
  seedOnStart: boolean;
  webConcurrency: number;
  /** Migrations were applied by the cluster's primary (its web processes skip them). */
  migrated: boolean;
  mail: { smtpUrl: string | undefined; from: string };
  storage: StorageConfig;
  rateLimitScale: number;
  /** LibreOffice's soffice, when installed and not switched off: .ppt/.xls import needs it. */
  sofficePath: string | null;
  llm: {
    provider: 'local' | 'openai';
    baseUrl: string | undefined;
    apiKey: string | undefined;
    model: string | undefined;
    timeoutMs: number;
    localThreads: number;
  };
  payments: PaymentsConfig;
  texts: TextsConfig;
  images: ImagesConfig;
  /** Google Forms export; null when GOOGLE_CLIENT_ID/SECRET are not set (the button is hidden). */
  google: GoogleConfig | null;
  shop: ShopConfig;
}

export interface ShopConfig {
  sellerSharePercent: number;
  print:
    | { provider: 'local'; stepMs: number }
    | {
        provider: 'printify';
        apiToken: string;
        shopId: string;
        webhookSecret: string | undefined;
        apiBase: string;
        pollMs: number;
      };
}

export interface GoogleConfig {
  clientId: string;
  clientSecret: string;
  /** Where Google sends the teacher back: PUBLIC_URL/api/v1/google/oauth/callback. */
  redirectUri: string;
  authUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  formsApiBase: string;
  /** Drive API: deletes a form whose questions Google refused (files this app made). */
  driveApiBase: string;
}

export interface TextsConfig {
  mirror: { kind: 'http'; baseUrl: string } | { kind: 'folder'; dir: string } | { kind: 'off' };
  ratePerSecond: number;
  concurrency: number;
  timeoutMs: number;
  maxBytes: number;
  userAgent: string;
}

export type ImagesConfig =
  | { provider: 'local'; trainingMs: number }
  | {
      provider: 'replicate';
      apiToken: string;
      webhookSecret: string | undefined;
      owner: string | undefined;
      models: { generate: string; upscale: string; trainer: string };
      apiBase: string;
      pollMs: number;
    };

export type PaymentsConfig =
  | { provider: 'local' }
  | {
      provider: 'stripe';
      secretKey: string;
      webhookSecret: string;
      /** Signs the Connect endpoint's events (sellers' account.updated); optional. */
      connectWebhookSecret: string | undefined;
      prices: { subscription: string; modelTrainingCredit: string; imageGenerationCredits: string };
      /** Where API calls go instead of api.stripe.com (tests). */
      apiBase: { host: string; port: number; protocol: 'http' | 'https' } | undefined;
    };

export type StorageConfig =
  | { driver: 'local'; dir: string }
  | {
      driver: 's3';
      endpoint: string;
      region: string;
      bucket: string;
      accessKeyId: string;
      secretAccessKey: string;
      publicUrl: string | undefined;
      forcePathStyle: boolean;
    };

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const defaultWebBuildDir = path.resolve(
  path.dirname(new URL(import.meta.url).pathname),
  '../../web/build',
);

/** Parses the environment into a Config, or throws a ConfigError listing every problem. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || 'env'}: ${issue.message}`),
    );
  }
  const e = parsed.data;
  const problems: string[] = [];
  if (e.NODE_ENV === 'production' && !e.JWT_SECRET) {
    problems.push('JWT_SECRET: required in production (at least 32 characters)');
  }
  if (e.STORAGE === 's3') {
    for (const key of ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
      if (!e[key]) problems.push(`${key}: required when STORAGE=s3`);
    }
  }
  const sofficePath = findSoffice(e.SOFFICE_PATH, e.PATH);
  if (sofficePath === undefined) {
    problems.push(`SOFFICE_PATH: no executable at ${e.SOFFICE_PATH}`);
  }
  // Setting LLM_BASE_URL alone chooses the openai provider; it then needs a model name.
  const llmProvider = e.LLM_PROVIDER ?? (e.LLM_BASE_URL ? 'openai' : 'local');
  if (llmProvider === 'openai') {
    if (!e.LLM_BASE_URL) problems.push('LLM_BASE_URL: required when LLM_PROVIDER is openai');
    if (!e.LLM_MODEL) problems.push('LLM_MODEL: required when LLM_PROVIDER is openai');
  }
  const assistantEngine = e.ASSISTANT_ENGINE ?? llmProvider;
  if (assistantEngine === 'openai' && llmProvider !== 'openai') {
    if (!e.LLM_BASE_URL) problems.push('LLM_BASE_URL: required when ASSISTANT_ENGINE is openai');
    if (!e.LLM_MODEL) problems.push('LLM_MODEL: required when ASSISTANT_ENGINE is openai');
  }
  const paymentsProvider = e.PAYMENTS ?? (e.STRIPE_SECRET_KEY ? 'stripe' : 'local');
  if (paymentsProvider === 'stripe') {
    const required = [
      'STRIPE_SECRET_KEY',
      'STRIPE_WEBHOOK_SECRET',
      'STRIPE_PRICE_SUBSCRIPTION',
      'STRIPE_PRICE_MODEL_TRAINING_CREDIT',
      'STRIPE_PRICE_IMAGE_CREDITS',
    ] as const;
    for (const key of required) {
      if (!e[key]) problems.push(`${key}: required when PAYMENTS is stripe`);
    }
  } else if (e.NODE_ENV === 'production' && e.PAYMENTS !== 'local') {
    // The local adapter's test checkout lets anyone "pay" without a card: never by accident.
    problems.push(
      'PAYMENTS: required in production: set STRIPE_SECRET_KEY (and the other STRIPE_ settings) to take payments, or PAYMENTS=local to run the offline test checkout, where no card is charged and every purchase is free',
    );
  }
  const mirror = parseMirror(e.GUTENBERG_MIRROR);
  if (typeof mirror === 'string') problems.push(`GUTENBERG_MIRROR: ${mirror}`);
  const imageProvider = e.IMAGE_PROVIDER ?? (e.REPLICATE_API_TOKEN ? 'replicate' : 'local');
  if (imageProvider === 'replicate' && !e.REPLICATE_API_TOKEN) {
    problems.push('REPLICATE_API_TOKEN: required when IMAGE_PROVIDER is replicate');
  }
  const printProvider = e.PRINT_PROVIDER ?? (e.PRINTIFY_API_TOKEN ? 'printify' : 'local');
  if (printProvider === 'printify') {
    if (!e.PRINTIFY_API_TOKEN)
      problems.push('PRINTIFY_API_TOKEN: required when PRINT_PROVIDER is printify');
    if (!e.PRINTIFY_SHOP_ID)
      problems.push('PRINTIFY_SHOP_ID: required when PRINT_PROVIDER is printify');
  }
  if (Boolean(e.GOOGLE_CLIENT_ID) !== Boolean(e.GOOGLE_CLIENT_SECRET)) {
    problems.push(
      e.GOOGLE_CLIENT_ID
        ? 'GOOGLE_CLIENT_SECRET: required with GOOGLE_CLIENT_ID'
        : 'GOOGLE_CLIENT_ID: required with GOOGLE_CLIENT_SECRET',
    );
  }
  if (problems.length) throw new ConfigError(problems);

  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    env: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    jwtSecret: e.JWT_SECRET ?? readOrCreateDevSecret(dataDir),
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    chatUrl: (e.CHAT_URL ?? `${publicUrl}/assistant`).replace(/\/+$/, ''),
    assistant: { engine: assistantEngine, messagesPerHour: e.ASSISTANT_MESSAGES_PER_HOUR },
    webBuildDir: e.WEB_BUILD_DIR ? path.resolve(e.WEB_BUILD_DIR) : defaultWebBuildDir,
    jobsEnabled: e.JOBS_ENABLED,
    pageCachePrefill: e.PAGE_CACHE_PREFILL ?? (e.NODE_ENV === 'test' ? 0 : 40),
    seedOnStart: e.SEED_ON_START,
    webConcurrency: e.WEB_CONCURRENCY,
    migrated: e.CW_MIGRATED,
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM ?? `${PRODUCT_NAME} <no-reply@${new URL(publicUrl).hostname}>`,
    },
    storage:
      e.STORAGE === 's3'
        ? {
            driver: 's3',
            endpoint: (e.S3_ENDPOINT ?? `https://s3.${e.S3_REGION}.amazonaws.com`).replace(
              /\/+$/,
              '',
            ),
            region: e.S3_REGION,
            bucket: e.S3_BUCKET!,
            accessKeyId: e.S3_ACCESS_KEY_ID!,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
            publicUrl: e.S3_PUBLIC_URL?.replace(/\/+$/, ''),
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
          }
        : { driver: 'local', dir: path.join(dataDir, 'uploads') },
    rateLimitScale: e.RATE_LIMIT_SCALE,
    sofficePath: sofficePath ?? null,
    llm: {
      provider: llmProvider,
      baseUrl: e.LLM_BASE_URL,
      apiKey: e.LLM_API_KEY,
      model: e.LLM_MODEL,
      timeoutMs: Math.round(e.LLM_TIMEOUT * 1000),
      localThreads: e.LLM_LOCAL_THREADS,
    },
    payments:
      paymentsProvider === 'stripe'
        ? {
            provider: 'stripe',
            secretKey: e.STRIPE_SECRET_KEY!,
            webhookSecret: e.STRIPE_WEBHOOK_SECRET!,
            connectWebhookSecret: e.STRIPE_CONNECT_WEBHOOK_SECRET,
            prices: {
              subscription: e.STRIPE_PRICE_SUBSCRIPTION!,
              modelTrainingCredit: e.STRIPE_PRICE_MODEL_TRAINING_CREDIT!,
              imageGenerationCredits: e.STRIPE_PRICE_IMAGE_CREDITS!,
            },
            apiBase: e.STRIPE_API_BASE ? apiBaseOf(e.STRIPE_API_BASE) : undefined,
          }
        : { provider: 'local' },
    texts: {
      mirror: mirror as TextsConfig['mirror'],
      ratePerSecond:
        e.GUTENBERG_RATE ??
        (typeof mirror !== 'string' && mirror.kind === 'http' && isDefaultMirror(mirror.baseUrl)
          ? 1
          : 20),
      concurrency: e.GUTENBERG_CONCURRENCY,
      timeoutMs: Math.round(e.GUTENBERG_TIMEOUT * 1000),
      maxBytes: MAX_TEXT_BYTES,
      userAgent: `${PRODUCT_NAME}/0.1 (+${publicUrl}; fetches public-domain texts for teachers)`,
    },
    images:
      imageProvider === 'replicate'
        ? {
            provider: 'replicate',
            apiToken: e.REPLICATE_API_TOKEN!,
            webhookSecret: e.REPLICATE_WEBHOOK_SECRET,
            owner: e.REPLICATE_OWNER,
            models: {
              generate: e.REPLICATE_MODEL_GENERATE,
              upscale: e.REPLICATE_MODEL_UPSCALE,
              trainer: e.REPLICATE_MODEL_TRAINER,
            },
            apiBase: (e.REPLICATE_API_BASE ?? 'https://api.replicate.com').replace(/\/+$/, ''),
            pollMs: Math.round(e.REPLICATE_POLL_SECONDS * 1000),
          }
        : { provider: 'local', trainingMs: Math.round(e.IMAGE_LOCAL_TRAINING_SECONDS * 1000) },
    shop: {
      sellerSharePercent: e.SHOP_SELLER_SHARE_PERCENT,
      print:
        printProvider === 'printify'
          ? {
              provider: 'printify',
              apiToken: e.PRINTIFY_API_TOKEN!,
              shopId: e.PRINTIFY_SHOP_ID!,
              webhookSecret: e.PRINTIFY_WEBHOOK_SECRET,
              apiBase: (e.PRINTIFY_API_BASE ?? 'https://api.printify.com').replace(/\/+$/, ''),
              pollMs: Math.round(e.PRINTIFY_POLL_SECONDS * 1000),
            }
          : { provider: 'local', stepMs: Math.round(e.SHOP_LOCAL_STEP_SECONDS * 1000) },
    },
    google:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? googleConfig(e.GOOGLE_CLIENT_ID, e.GOOGLE_CLIENT_SECRET, publicUrl, e.GOOGLE_API_BASE)
        : null,
  };
}

/** Google's endpoints, or a fake Google's under one base URL (tests). */
function googleConfig(
  clientId: string,
  clientSecret: string,
  publicUrl: string,
  apiBase: string | undefined,
): GoogleConfig {
  const base = apiBase?.replace(/\/+$/, '');
  return {
    clientId,
    clientSecret,
    redirectUri: `${publicUrl}/api/v1/google/oauth/callback`,
    authUrl: base ? `${base}/o/oauth2/v2/auth` : 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenUrl: base ? `${base}/token` : 'https://oauth2.googleapis.com/token',
    revokeUrl: base ? `${base}/revoke` : 'https://oauth2.googleapis.com/revoke',
    formsApiBase: base ?? 'https://forms.googleapis.com',
    driveApiBase: base ?? 'https://www.googleapis.com',
  };
}

/** `off`, an http(s) base URL, or an existing folder; a string is the problem. */
export function parseMirror(value: string): TextsConfig['mirror'] | string {
  if (value === 'off') return { kind: 'off' };
  if (/^https?:\/\//i.test(value)) {
    try {
      const url = new URL(value);
      if (url.username || url.password || url.search || url.hash) {
        return 'must be a plain base URL (no credentials, query or fragment)';
      }
      return { kind: 'http', baseUrl: url.href.replace(/\/+$/, '') };
    } catch {
      return 'not a valid URL';
    }
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value))
    return 'only http:// and https:// mirrors are fetched';
  const dir = path.resolve(value);
  try {
    if (!statSync(dir).isDirectory()) return `${dir} is not a folder`;
  } catch {
    return `no folder at ${dir}`;
  }
  return { kind: 'folder', dir };
}

export function isDefaultMirror(baseUrl: string): boolean {
  return new URL(baseUrl).hostname === new URL(DEFAULT_GUTENBERG_MIRROR).hostname;
}

/** `http://127.0.0.1:4242` → the host, port and protocol the Stripe SDK takes. */
function apiBaseOf(url: string): { host: string; port: number; protocol: 'http' | 'https' } {
  const parsed = new URL(url);
  const protocol = parsed.protocol === 'http:' ? 'http' : 'https';
  return {
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : protocol === 'http' ? 80 : 443,
    protocol,
  };
}

/**
 * LibreOffice's `soffice`: the given path (undefined when it is not there), none when switched
 * off, else the first found on PATH or in the usual install folders (null when absent).
 */
function findSoffice(setting: string, searchPath: string): string | null | undefined {
  const isExecutable = (file: string) => {
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  };
  if (setting === 'off') return null;
  if (setting) return isExecutable(setting) ? path.resolve(setting) : undefined;
  const candidates = [
    ...searchPath
      .split(path.delimiter)
      .filter(Boolean)
      .flatMap((dir) => [path.join(dir, 'soffice'), path.join(dir, 'libreoffice')]),
    '/usr/lib/libreoffice/program/soffice',
    '/opt/libreoffice/program/soffice',
    '/Applications/LibreOffice.app/Contents/MacOS/soffice',
  ];
  return candidates.find(isExecutable) ?? null;
}

/** Outside production a missing JWT_SECRET is generated once and kept in DATA_DIR. */
function readOrCreateDevSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) {
    const saved = readFileSync(file, 'utf8').trim();
    if (saved.length >= 32) return saved;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
