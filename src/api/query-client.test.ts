import { describe, expect, it } from 'vitest';
import { ApiError } from './errors';
import { createQueryClient } from './query-client';

describe('createQueryClient', () => {
  it('retries reads only for transient failures', () => {
    const client = createQueryClient();
    const retry = client.getDefaultOptions().queries?.retry;
    expect(typeof retry).toBe('function');
    if (typeof retry !== 'function') return;
    expect(retry(0, new ApiError({ status: 503, message: 'x', code: 'service_unavailable' }))).toBe(
      true,
    );
    expect(retry(0, new ApiError({ status: 0, message: 'x' }))).toBe(true);
    expect(retry(0, new ApiError({ status: 403, message: 'x', code: 'forbidden' }))).toBe(false);
    expect(retry(0, new ApiError({ status: 401, message: 'x', code: 'unauthorized' }))).toBe(false);
    // React Query counts earlier failures (0 after the first): three attempts in all.
    expect(retry(1, new ApiError({ status: 503, message: 'x' }))).toBe(true);
    expect(retry(2, new ApiError({ status: 503, message: 'x' }))).toBe(false);
  });

  it('never re-sends mutations by default and keeps data fresh for a while', () => {
    const defaults = createQueryClient().getDefaultOptions();
    expect(defaults.mutations?.retry).toBe(false);
    expect(defaults.queries?.staleTime).toBe(30_000);
  });

  it('builds a client without retries for tests', () => {
    expect(createQueryClient({ retry: false }).getDefaultOptions().queries?.retry).toBe(false);
  });
});
