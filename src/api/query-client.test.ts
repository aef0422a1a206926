import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, MAX_ATTEMPTS } from './errors';
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

  it('re-sends a failing read one attempt at a time, never two at once, then gives up', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0); // no jitter wait
    let inFlight = 0;
    let maxInFlight = 0;
    let attempts = 0;
    const client = createQueryClient();
    const failure = client.fetchQuery({
      queryKey: ['test', 'flaky'],
      queryFn: async () => {
        attempts++;
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        throw new ApiError({ status: 503, message: 'x', code: 'service_unavailable' });
      },
    });
    await expect(failure).rejects.toMatchObject({ code: 'service_unavailable' });
    expect(attempts).toBe(MAX_ATTEMPTS);
    expect(maxInFlight).toBe(1);
  });
});

afterEach(() => vi.restoreAllMocks());
