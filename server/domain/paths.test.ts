import { describe, expect, it } from 'vitest';
import type { FunnelEvent } from './funnel';
import { computePaths } from './paths';

const e = (unit: string | null, name: string, at: number): FunnelEvent => ({
  unit,
  name,
  kind: 'page_view',
  at,
});
const names = (r: ReturnType<typeof computePaths>) =>
  r.paths.map((p) => [p.steps.map((s) => s.name).join('>'), p.units]);

describe('computePaths', () => {
  it('follows each unit from its first start event for depth steps, most units first', () => {
    const r = computePaths({ start: { kind: 'page_view', eventName: 'Home' }, depth: 2 }, [
      e('a', 'Search', 0), // before the start: not in the path
      e('a', 'Home', 1),
      e('a', 'Product', 2),
      e('a', 'Cart', 3),
      e('a', 'Pay', 4), // beyond depth
      e('b', 'Cart', 12),
      e('b', 'Home', 10),
      e('b', 'Product', 11),
      e('c', 'Home', 0), // ends early
      e('d', 'Product', 0), // never starts
      e(null, 'Home', 0),
    ]);
    expect(r.units).toBe(3);
    expect(names(r)).toEqual([
      ['Home>Product>Cart', 2],
      ['Home', 1],
    ]);
  });

  it('starts at the first action without a start event', () => {
    const r = computePaths({ start: null, depth: 1 }, [e('a', 'Search', 0), e('a', 'Home', 1)]);
    expect(names(r)).toEqual([['Search>Home', 1]]);
  });
});
