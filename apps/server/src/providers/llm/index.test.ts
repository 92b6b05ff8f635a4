import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { createMaterialGenerator } from './index.js';

const dir = () => mkdtempSync(path.join(tmpdir(), 'cw-llm-'));

describe('choosing the generator from the config', () => {
  it('is the built-in local generator by default', () => {
    const config = loadConfig({ DATA_DIR: dir() });
    expect(config.llm).toMatchObject({ provider: 'local', timeoutMs: 60_000 });
    expect(createMaterialGenerator(config.llm).engine).toBe('local');
  });

  it('uses an OpenAI-compatible server when LLM_BASE_URL is set, and needs a model', () => {
    const config = loadConfig({
      DATA_DIR: dir(),
      LLM_BASE_URL: 'http://localhost:11434/v1',
      LLM_MODEL: 'llama3.1',
      LLM_TIMEOUT: '2.5',
    });
    expect(config.llm).toMatchObject({ provider: 'openai', model: 'llama3.1', timeoutMs: 2500 });
    expect(createMaterialGenerator(config.llm).engine).toBe('openai');
    expect(() =>
      loadConfig({ DATA_DIR: dir(), LLM_BASE_URL: 'http://localhost:11434/v1' }),
    ).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir(), LLM_PROVIDER: 'openai' })).toThrow(
      /LLM_BASE_URL: required/,
    );
    expect(
      loadConfig({ DATA_DIR: dir(), LLM_PROVIDER: 'local', LLM_BASE_URL: 'http://x.test/v1' }).llm
        .provider,
    ).toBe('local');
  });
});
