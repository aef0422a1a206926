import { describe, expect, it } from 'vitest';
import { mergeSearch } from './merge-search';

type Search = { q?: string | undefined; page?: number | undefined };

describe('mergeSearch', () => {
  it('sets the given keys and keeps the others', () => {
    expect(mergeSearch<Search>({ q: 'x' })({ q: 'a', page: 2 })).toEqual({ q: 'x', page: 2 });
    expect(mergeSearch<Search>({ q: undefined })({ q: 'a', page: 2 })).toEqual({
      q: undefined,
      page: 2,
    });
  });

  it('applies a function of the previous search as is', () => {
    expect(mergeSearch<Search>((prev) => ({ page: (prev.page ?? 0) + 1 }))({ q: 'a' })).toEqual({
      page: 1,
    });
  });
});
