import { describe, expect, it } from 'vitest';
import type { FunnelKind } from '../../api/queries/analytics';
import { actionChoices } from './action-choices';

// As the overview gives them: most frequent first.
const seen: { name: string; kind: FunnelKind }[] = [
  { name: 'Home', kind: 'page_view' },
  { name: 'Product', kind: 'page_view' },
  { name: 'Search', kind: 'interaction' },
  { name: 'Home', kind: 'screen_view' },
  { name: 'Homeware banner', kind: 'interaction' },
  { name: 'Back to home', kind: 'interaction' },
  { name: 'Shipping home address', kind: 'interaction' },
];

const names = (r: ReturnType<typeof actionChoices>) =>
  r.matches.map((a) => `${a.name} (${a.kind})`);

describe('actionChoices', () => {
  it('typing a seen name puts the seen actions first, the typed name only for unseen kinds', () => {
    const r = actionChoices(seen, 'Home');
    expect(names(r)[0]).toBe('Home (page_view)');
    expect(names(r)).toEqual([
      'Home (page_view)',
      'Home (screen_view)',
      'Homeware banner (interaction)',
      'Back to home (interaction)',
      'Shipping home address (interaction)',
    ]);
    expect(r.unseenKinds).toEqual(['interaction']);
  });

  it('matches without case, best match first, frequency within a match', () => {
    expect(names(actionChoices(seen, 'home')).slice(0, 2)).toEqual([
      'Home (page_view)',
      'Home (screen_view)',
    ]);
    expect(names(actionChoices(seen, 'prod'))).toEqual(['Product (page_view)']);
    // Exact, then start, then a word's start, then inside a word; frequency does not reorder.
    const add: { name: string; kind: FunnelKind }[] = [
      { name: 'Ladder view', kind: 'page_view' },
      { name: 'Quick add', kind: 'interaction' },
      { name: 'Address book', kind: 'page_view' },
      { name: 'add', kind: 'interaction' },
    ];
    expect(names(actionChoices(add, 'Add'))).toEqual([
      'add (interaction)',
      'Address book (page_view)',
      'Quick add (interaction)',
      'Ladder view (page_view)',
    ]);
  });

  it('a name nobody used is offered for every kind, and nothing seen matches it', () => {
    expect(actionChoices(seen, 'Wishlist')).toEqual({
      matches: [],
      unseenKinds: ['page_view', 'screen_view', 'interaction'],
    });
  });

  it('nothing typed lists every seen action as given and offers no free text', () => {
    expect(actionChoices(seen, '  ')).toEqual({ matches: seen, unseenKinds: [] });
  });

  it('the free-text name is exact: "home" is still unseen as a page view', () => {
    expect(actionChoices(seen, 'home').unseenKinds).toEqual([
      'page_view',
      'screen_view',
      'interaction',
    ]);
  });
});
