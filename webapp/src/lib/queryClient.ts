import { QueryClient, type DefaultOptions } from '@tanstack/react-query';
import { ApiError, ReadBehindError } from './request';

/** Back-off between asks while the read models catch up: 0.25 s, 0.5 s, 1 s ... at most 8 s. */
export function readBehindDelay(attempt: number): number {
  return Math.min(250 * 2 ** attempt, 8_000);
}

/**
 * `retry` for queries that retry nothing else: an answer marked behind is asked again (with
 * back-off, for as long as it takes) until it holds the user's own write.
 */
export const retryReadBehindOnly = (_count: number, error: unknown) =>
  error instanceof ReadBehindError;

export const queryDefaults: DefaultOptions = {
  queries: {
    staleTime: 30_000,
    refetchOnWindowFocus: false,
    // Client errors will not heal by retrying; the request client has shown them. An answer
    // that is behind the user's own write heals by asking again.
    retry: (count, error) =>
      error instanceof ReadBehindError ||
      (!(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 1),
    retryDelay: (attempt, error) =>
      error instanceof ReadBehindError
        ? readBehindDelay(attempt)
        : Math.min(1000 * 2 ** attempt, 30_000),
  },
};

export const queryClient = new QueryClient({ defaultOptions: queryDefaults });
