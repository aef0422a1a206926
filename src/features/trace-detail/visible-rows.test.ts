import { describe, expect, it } from 'vitest';
import { expandToMatches, filterSpans } from './span-filter';
import { buildSpanTree } from './span-tree';
import { testSpan } from './test-spans';
import { matchesUnderCollapsed, rowOfNode, visibleRows, type SpanRow } from './visible-rows';

// 1 ─┬─ 2 (api) ── 3 (db "select")
//    ├─ 4 (cache)
//    ├─ 5 (cache)
//    └─ 6 (db "insert") ── 7 (api)
const tree = buildSpanTree([
  testSpan('1', null, 0, 100, { name: 'GET /checkout' }),
  testSpan('2', '1', 1, 50),
  testSpan('3', '2', 2, 10, { service_name: 'db', name: 'select orders' }),
  testSpan('4', '1', 3, 5, { service_name: 'cache', name: 'get cart' }),
  testSpan('5', '1', 4, 5, { service_name: 'cache', name: 'get user' }),
  testSpan('6', '1', 5, 20, { service_name: 'db', name: 'insert order', operation: 'db.query' }),
  testSpan('7', '6', 6, 1),
]);

const show = (rows: SpanRow[]) =>
  rows.map((r) =>
    r.kind === 'hidden'
      ? `hidden ${r.count}@${r.depth}`
      : `${tree.nodes[r.node]?.span.span_id.replace(/^0+/, '')}${r.dimmed ? ' dim' : ''}${r.hiddenMatches > 0 ? ` hides ${r.hiddenMatches}` : ''}`,
  );

describe('visibleRows', () => {
  it('shows every span when nothing is collapsed or filtered', () => {
    expect(show(visibleRows(tree, new Set(), null))).toEqual(['1', '2', '3', '4', '5', '6', '7']);
  });

  it('skips the subtree of a collapsed span', () => {
    expect(show(visibleRows(tree, new Set([1]), null))).toEqual(['1', '2', '4', '5', '6', '7']);
    expect(show(visibleRows(tree, new Set([0]), null))).toEqual(['1']);
  });

  it('keeps dimmed ancestors of matches and folds each run of hidden spans into one row', () => {
    const filter = filterSpans(tree, { service: 'db' });
    expect(filter?.matchCount).toBe(2);
    expect(show(visibleRows(tree, new Set(), filter))).toEqual([
      '1 dim',
      '2 dim',
      '3',
      'hidden 2@1',
      '6',
      'hidden 1@2',
    ]);
  });

  it('matches the text in name, service, operation and span id, ignoring case', () => {
    const count = (text: string) => filterSpans(tree, { text })?.matchCount;
    expect(count('CART')).toBe(1);
    expect(count('cache')).toBe(2);
    expect(count('db.query')).toBe(1);
    expect(count('0000000000000007')).toBe(1);
    expect(filterSpans(tree, { text: '  ' })).toBeNull();
    expect(filterSpans(tree, { text: 'order', service: 'db' })?.matchCount).toBe(2);
  });

  it('hides everything in one row when nothing matches', () => {
    const filter = filterSpans(tree, { text: 'nothing like this' });
    expect(show(visibleRows(tree, new Set(), filter))).toEqual(['hidden 7@0']);
  });

  it('counts the matches under each span', () => {
    const filter = filterSpans(tree, { service: 'db' });
    expect(Array.from(filter?.below ?? [])).toEqual([2, 1, 0, 0, 0, 0, 0]);
  });

  it('marks a collapsed span with the matches it hides, never leaving them unreachable', () => {
    const filter = filterSpans(tree, { service: 'db' });
    // Both matches sit under the collapsed root: its row says so and is not dimmed.
    const rows = visibleRows(tree, new Set([0]), filter);
    expect(show(rows)).toEqual(['1 hides 2']);
    expect(matchesUnderCollapsed(rows)).toBe(2);
    // A collapsed match with no match below hides none; an outer collapse counts once.
    expect(show(visibleRows(tree, new Set([5]), filter))).toEqual([
      '1 dim',
      '2 dim',
      '3',
      'hidden 2@1',
      '6',
    ]);
    expect(matchesUnderCollapsed(visibleRows(tree, new Set([0, 1]), filter))).toBe(2);
    expect(matchesUnderCollapsed(visibleRows(tree, new Set([1]), filter))).toBe(1);
  });

  it('expands the spans that hide matches of a new filter, and only those', () => {
    const filter = filterSpans(tree, { service: 'db' });
    expect([...expandToMatches(new Set([0, 1, 5]), filter)]).toEqual([5]);
    const none = new Set([5]);
    expect(expandToMatches(none, filter)).toBe(none);
    expect(expandToMatches(none, null)).toBe(none);
    expect(show(visibleRows(tree, expandToMatches(new Set([0, 1]), filter), filter))).toEqual([
      '1 dim',
      '2 dim',
      '3',
      'hidden 2@1',
      '6',
      'hidden 1@2',
    ]);
  });

  it('finds the row of a node', () => {
    const rows = visibleRows(tree, new Set([1]), null);
    expect(rowOfNode(rows, 3)).toBe(2);
    expect(rowOfNode(rows, 2)).toBe(-1);
  });
});
