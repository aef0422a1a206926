import { describe, expect, it } from 'vitest';
import { offeredStarters } from './funnel-starters';

const web = [
  { name: 'Home', kind: 'page_view' as const, events: 900 },
  { name: 'Product', kind: 'page_view' as const, events: 560 },
  { name: 'Add to cart', kind: 'interaction' as const, events: 250 },
  { name: 'Checkout', kind: 'page_view' as const, events: 170 },
  { name: 'Place order', kind: 'interaction' as const, events: 120 },
  { name: 'Search', kind: 'interaction' as const, events: 200 },
];

describe('offeredStarters', () => {
  it('offers the shop checkout when every step was seen, in order, with the kinds seen', () => {
    expect(offeredStarters(web)).toEqual([
      {
        id: 'shop-checkout',
        title: 'Shop checkout',
        steps: [
          { kind: 'page_view', name: 'Home' },
          { kind: 'page_view', name: 'Product' },
          { kind: 'interaction', name: 'Add to cart' },
          { kind: 'page_view', name: 'Checkout' },
          { kind: 'interaction', name: 'Place order' },
        ],
      },
    ]);
  });

  it('takes screen views in an app, and the kind seen most when both were', () => {
    const app = web.map((a) =>
      a.kind === 'page_view' ? { ...a, kind: 'screen_view' as const } : a,
    );
    expect(offeredStarters(app)[0]?.steps.map((s) => s.kind)).toEqual([
      'screen_view',
      'screen_view',
      'interaction',
      'screen_view',
      'interaction',
    ]);
    const both = [...web, { name: 'Home', kind: 'screen_view' as const, events: 1200 }];
    expect(offeredStarters(both)[0]?.steps[0]).toEqual({ kind: 'screen_view', name: 'Home' });
  });

  it('offers nothing when a step was not seen, or was seen as another kind', () => {
    expect(offeredStarters(web.filter((a) => a.name !== 'Place order'))).toEqual([]);
    expect(
      offeredStarters(
        web.map((a) => (a.name === 'Add to cart' ? { ...a, kind: 'page_view' as const } : a)),
      ),
    ).toEqual([]);
    expect(offeredStarters([])).toEqual([]);
  });

  it('names must match exactly', () => {
    expect(
      offeredStarters(web.map((a) => (a.name === 'Home' ? { ...a, name: 'home' } : a))),
    ).toEqual([]);
  });
});
