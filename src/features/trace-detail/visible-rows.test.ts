import { describe, expect, it } from 'vitest';
import { filterSpans } from './span-filter';
import { buildSpanTree } from './span-tree';
import { testSpan } from './test-spans';
import { rowOfNode, visibleRows, type SpanRow } from './visible-rows';

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
      : `${tree.nodes[r.node]?.span.span_id.replace(/^0+/, '')}${r.dimmed ? ' dim' : ''}`,
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

  it('finds the row of a node', () => {
    const rows = visibleRows(tree, new Set([1]), null);
    expect(rowOfNode(rows, 3)).toBe(2);
    expect(rowOfNode(rows, 2)).toBe(-1);
  });
});
