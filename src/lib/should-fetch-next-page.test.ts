import { describe, expect, it } from 'vitest';
import { shouldFetchNextPage } from './should-fetch-next-page';

const idle = { hasNextPage: true, isFetchingNextPage: false, error: null };

describe('shouldFetchNextPage', () => {
  it('asks once the last row in view is within the prefetch distance of the end', () => {
    expect(shouldFetchNextPage(idle, 69, 100, 30)).toBe(false);
    expect(shouldFetchNextPage(idle, 70, 100, 30)).toBe(true);
    expect(shouldFetchNextPage(idle, 100, 100, 30)).toBe(true);
  });

  it('never asks when there is no next page, one is loading, or the last attempt failed', () => {
    expect(shouldFetchNextPage({ ...idle, hasNextPage: false }, 99, 100, 30)).toBe(false);
    expect(shouldFetchNextPage({ ...idle, isFetchingNextPage: true }, 99, 100, 30)).toBe(false);
    expect(shouldFetchNextPage({ ...idle, error: new Error('x') }, 99, 100, 30)).toBe(false);
  });
});
