import { LocalAssistantEngine } from './local/index.js';
import { OpenAiAssistantEngine } from './openai.js';
import type { AssistantEngine } from './types.js';

export * from './types.js';
export { LocalAssistantEngine } from './local/index.js';
export { OpenAiAssistantEngine } from './openai.js';

/** The assistant engine the config asks for. Chosen once at boot. */
export function createAssistantEngine(
  engine: 'local' | 'openai',
  llm: {
    baseUrl?: string | undefined;
    apiKey?: string | undefined;
    model?: string | undefined;
    timeoutMs: number;
  },
  fetchImpl?: typeof fetch,
): AssistantEngine {
  if (engine === 'openai') {
    if (!llm.baseUrl || !llm.model)
      throw new Error('LLM_BASE_URL and LLM_MODEL are required for the openai assistant');
    return new OpenAiAssistantEngine({
      baseUrl: llm.baseUrl,
      apiKey: llm.apiKey,
      model: llm.model,
      timeoutMs: llm.timeoutMs,
      ...(fetchImpl ? { fetch: fetchImpl } : {}),
    });
  }
  return new LocalAssistantEngine();
}
