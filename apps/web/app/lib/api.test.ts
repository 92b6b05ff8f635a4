import { describe, expect, it } from 'vitest';
import { ApiClientError, apiPath, apiRequest } from './api';

const answer = (status: number, body: unknown) =>
  (async () => new Response(JSON.stringify(body), { status })) as unknown as typeof fetch;

describe('apiRequest', () => {
  it('builds /api/v1 paths and leaves out empty query values', () => {
    expect(apiPath('/getgutenbergbooks', { sort: 'download_count', searchTerm: '', page: 2 })).toBe(
      '/api/v1/getgutenbergbooks?sort=download_count&page=2',
    );
  });

  it("throws the server's errors.message", async () => {
    const error = await apiRequest('/x', {
      fetch: answer(409, { errors: { message: 'Taken', code: 'CONFLICT' } }),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiClientError);
    expect((error as ApiClientError).message).toBe('Taken');
    expect((error as ApiClientError).status).toBe(409);
  });

  it("falls back to 'Ooops, something went wrong' when there is no message", async () => {
    const error = await apiRequest('/x', { fetch: answer(500, {}) }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('Ooops, something went wrong');
  });
});
