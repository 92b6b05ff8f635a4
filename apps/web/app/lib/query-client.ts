import { QueryClient } from '@tanstack/react-query';

/** One QueryClient per browser session (and per server render). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false },
    },
  });
}
