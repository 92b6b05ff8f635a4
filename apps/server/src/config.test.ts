import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const tmp = () => mkdtempSync(path.join(tmpdir(), 'cw-config-'));

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const dir = tmp();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.env).toBe('development');
  });

  it('lists every problem at once in readable form', () => {
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        PUBLIC_URL: 'nope',
        DATA_DIR: tmp(),
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as ConfigError).message;
      expect(message).toContain('PORT');
      expect(message).toContain('DATABASE_URL: must be a postgres:// or postgresql:// URL');
      expect(message).toContain('PUBLIC_URL');
      expect((error as ConfigError).problems).toHaveLength(3);
    }
  });

  it('requires JWT_SECRET in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: tmp() })).toThrow(
      /JWT_SECRET: required in production/,
    );
  });

  it('rejects a short JWT_SECRET', () => {
    expect(() => loadConfig({ JWT_SECRET: 'short', DATA_DIR: tmp() })).toThrow(/at least 32/);
  });

  it('generates a development secret once and keeps it in DATA_DIR', () => {
    const dir = tmp();
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(second.jwtSecret).toBe(first.jwtSecret);
    expect(readFileSync(path.join(dir, 'jwt-secret'), 'utf8')).toBe(first.jwtSecret);
  });

  it('mail, storage and rate-limit settings: defaults and checks', () => {
    const dir = tmp();
    const config = loadConfig({ DATA_DIR: dir, PUBLIC_URL: 'https://teach.example.org' });
    expect(config.mail).toEqual({
      smtpUrl: undefined,
      from: 'Chapterwise <no-reply@teach.example.org>',
    });
    expect(config.storage).toEqual({ driver: 'local', dir: path.join(dir, 'uploads') });
    expect(config.rateLimitScale).toBe(1);
    expect(() => loadConfig({ DATA_DIR: dir, SMTP_URL: 'http://mail' })).toThrow(/SMTP_URL/);
    expect(() => loadConfig({ DATA_DIR: dir, RATE_LIMIT_SCALE: '0' })).toThrow(/RATE_LIMIT_SCALE/);
    try {
      loadConfig({ DATA_DIR: dir, STORAGE: 's3' });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'S3_BUCKET: required when STORAGE=s3',
        'S3_ACCESS_KEY_ID: required when STORAGE=s3',
        'S3_SECRET_ACCESS_KEY: required when STORAGE=s3',
      ]);
    }
    const s3 = loadConfig({
      DATA_DIR: dir,
      STORAGE: 's3',
      S3_BUCKET: 'b',
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
      S3_REGION: 'eu-west-3',
    });
    expect(s3.storage).toMatchObject({
      driver: 's3',
      endpoint: 'https://s3.eu-west-3.amazonaws.com',
      forcePathStyle: true,
    });
  });

  it('payments: local by default, Stripe when its key is set, with every setting it needs', () => {
    const dir = tmp();
    expect(loadConfig({ DATA_DIR: dir }).payments).toEqual({ provider: 'local' });
    const stripe = {
      DATA_DIR: dir,
      STRIPE_SECRET_KEY: 'sk_test_abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc',
      STRIPE_PRICE_SUBSCRIPTION: 'price_a',
      STRIPE_PRICE_MODEL_TRAINING_CREDIT: 'price_b',
      STRIPE_PRICE_IMAGE_CREDITS: 'price_c',
    };
    expect(loadConfig(stripe).payments).toEqual({
      provider: 'stripe',
      secretKey: 'sk_test_abc',
      webhookSecret: 'whsec_abc',
      connectWebhookSecret: undefined,
      prices: {
        subscription: 'price_a',
        modelTrainingCredit: 'price_b',
        imageGenerationCredits: 'price_c',
      },
      apiBase: undefined,
    });
    expect(
      loadConfig({ ...stripe, STRIPE_API_BASE: 'http://127.0.0.1:12111' }).payments,
    ).toMatchObject({ apiBase: { host: '127.0.0.1', port: 12111, protocol: 'http' } });
    // PAYMENTS=local wins over a key (a developer keeps the key in their shell).
    expect(loadConfig({ ...stripe, PAYMENTS: 'local' }).payments).toEqual({ provider: 'local' });
    try {
      loadConfig({ DATA_DIR: dir, PAYMENTS: 'stripe', STRIPE_WEBHOOK_SECRET: 'nope' });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'STRIPE_WEBHOOK_SECRET: must be a webhook signing secret (whsec_…)',
      ]);
    }
    try {
      loadConfig({ DATA_DIR: dir, PAYMENTS: 'stripe' });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        'STRIPE_SECRET_KEY: required when PAYMENTS is stripe',
        'STRIPE_WEBHOOK_SECRET: required when PAYMENTS is stripe',
        'STRIPE_PRICE_SUBSCRIPTION: required when PAYMENTS is stripe',
        'STRIPE_PRICE_MODEL_TRAINING_CREDIT: required when PAYMENTS is stripe',
        'STRIPE_PRICE_IMAGE_CREDITS: required when PAYMENTS is stripe',
      ]);
    }
  });

  it('production never runs the free test checkout by accident', () => {
    const production = {
      DATA_DIR: tmp(),
      NODE_ENV: 'production',
      JWT_SECRET: 'x'.repeat(40),
    };
    expect(() => loadConfig(production)).toThrow(/PAYMENTS: required in production/);
    expect(loadConfig({ ...production, PAYMENTS: 'local' }).payments.provider).toBe('local');
  });

  it('assistant: served at PUBLIC_URL/assistant, local unless a model is set up', () => {
    const dir = tmp();
    const plain = loadConfig({ DATA_DIR: dir, PUBLIC_URL: 'https://school.example.org/' });
    expect(plain.chatUrl).toBe('https://school.example.org/assistant');
    expect(plain.assistant).toEqual({ engine: 'local', messagesPerHour: 100 });
    const elsewhere = loadConfig({
      DATA_DIR: dir,
      CHAT_URL: 'https://chat.example.org/assistant/',
    });
    expect(elsewhere.chatUrl).toBe('https://chat.example.org/assistant');
    const model = loadConfig({
      DATA_DIR: dir,
      LLM_BASE_URL: 'http://127.0.0.1:11434/v1',
      LLM_MODEL: 'llama3',
    });
    expect(model.assistant.engine).toBe('openai');
    const localChat = loadConfig({
      DATA_DIR: dir,
      LLM_BASE_URL: 'http://127.0.0.1:11434/v1',
      LLM_MODEL: 'llama3',
      ASSISTANT_ENGINE: 'local',
    });
    expect(localChat.assistant.engine).toBe('local');
    expect(() => loadConfig({ DATA_DIR: dir, ASSISTANT_ENGINE: 'openai' })).toThrow(
      /LLM_BASE_URL: required when ASSISTANT_ENGINE is openai/,
    );
    expect(() => loadConfig({ DATA_DIR: dir, ASSISTANT_MESSAGES_PER_HOUR: '0' })).toThrow(
      /ASSISTANT_MESSAGES_PER_HOUR/,
    );
  });

  it('Google Forms: off without a client, both id and secret, redirect under PUBLIC_URL', () => {
    const dir = tmp();
    expect(loadConfig({ DATA_DIR: dir }).google).toBeNull();
    expect(() =>
      loadConfig({ DATA_DIR: dir, GOOGLE_CLIENT_ID: 'x.apps.googleusercontent.com' }),
    ).toThrow(/GOOGLE_CLIENT_SECRET: required with GOOGLE_CLIENT_ID/);
    const google = loadConfig({
      DATA_DIR: dir,
      PUBLIC_URL: 'https://teach.example/',
      GOOGLE_CLIENT_ID: 'x.apps.googleusercontent.com',
      GOOGLE_CLIENT_SECRET: 'a-secret-value',
    }).google;
    expect(google).toMatchObject({
      redirectUri: 'https://teach.example/api/v1/google/oauth/callback',
      authUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      formsApiBase: 'https://forms.googleapis.com',
    });
  });
});
