import {
  FALLBACK_ERROR_MESSAGE,
  type AssistantContextInput,
  type AssistantConversation,
  type AssistantSessionAnswer,
  type AssistantStreamEvent,
  type ConversationAnswer,
} from '@chapterwise/shared';
import { apiRequest, ApiClientError, apiPath, type ApiRequestOptions } from '../../lib/api';

/**
 * The assistant's calls. They carry the chat session cookie (same origin), never the site's
 * bearer token: a chat session is not an API session.
 */
function chatRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  return apiRequest<T>(`/assistant${path}`, { ...options, auth: false });
}

export const assistantApi = {
  exchange: (token: string) =>
    chatRequest<AssistantSessionAnswer>('/session', { method: 'POST', body: { token } }),
  session: () => chatRequest<AssistantSessionAnswer>('/session'),
  endSession: () => chatRequest<void>('/session', { method: 'DELETE' }),
  list: () => chatRequest<{ data: AssistantConversation[] }>('/conversations'),
  create: (body: { context?: AssistantContextInput; grade?: string } = {}) =>
    chatRequest<AssistantConversation>('/conversations', { method: 'POST', body }),
  get: (id: string) => chatRequest<ConversationAnswer>(`/conversations/${id}`),
  update: (id: string, body: { title?: string; context?: AssistantContextInput; grade?: string }) =>
    chatRequest<AssistantConversation>(`/conversations/${id}`, { method: 'PATCH', body }),
  remove: (id: string) => chatRequest<void>(`/conversations/${id}`, { method: 'DELETE' }),
  makeMaterial: (id: string, body: { type: string; messageId?: string }) =>
    chatRequest<{ materialId: string; name: string; type: string }>(
      `/conversations/${id}/materials`,
      { method: 'POST', body },
    ),
  materialStatus: (id: string) =>
    chatRequest<{ finished: boolean; status: string; error?: string }>(`/materials/${id}`),
};

/**
 * Sends a message and reads the answer as it streams (Server-Sent Events over a fetch POST).
 * Aborting the signal is the Stop button: the server keeps what was written. Errors before the
 * stream starts (401, 404, 429, 400) throw ApiClientError with the server's message.
 */
export async function streamAnswer(
  conversationId: string,
  body: { content?: string; retry?: boolean },
  onEvent: (event: AssistantStreamEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(apiPath(`/assistant/conversations/${conversationId}/messages`), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(body),
      signal,
      cache: 'no-store',
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') return;
    throw new ApiClientError(
      'Could not reach the server. Check your connection and try again.',
      0,
      'NETWORK',
    );
  }
  if (!response.ok || !response.body) {
    const json = (await response.json().catch(() => null)) as {
      errors?: { message?: string; code?: string };
    } | null;
    throw new ApiClientError(
      json?.errors?.message || FALLBACK_ERROR_MESSAGE,
      response.status,
      json?.errors?.code ?? 'UNKNOWN',
    );
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        if (block.startsWith('data: ')) onEvent(JSON.parse(block.slice(6)) as AssistantStreamEvent);
      }
    }
  } catch (error) {
    if ((error as Error).name === 'AbortError') return;
    throw new ApiClientError(
      'The connection broke while the answer was coming. Press Retry to ask again.',
      0,
      'NETWORK',
    );
  }
}
