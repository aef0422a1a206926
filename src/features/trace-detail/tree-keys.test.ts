import { describe, expect, it } from 'vitest';
import { filterSpans } from './span-filter';
import { buildSpanTree } from './span-tree';
import { testSpan } from './test-spans';
import { treeKeyAction } from './tree-keys';
import { visibleRows } from './visible-rows';

const tree = buildSpanTree([
  testSpan('1', null, 0, 100),
  testSpan('2', '1', 1, 50),
  testSpan('3', '2', 2, 10),
  testSpan('4', '1', 3, 5, { service_name: 'db' }),
]);
const none = new Set<number>();
const rows = visibleRows(tree, none, null);

describe('treeKeyAction', () => {
  it('moves up, down, home and end within the rows', () => {
    expect(treeKeyAction('ArrowDown', rows, tree, none, 0)).toEqual({ kind: 'focus', row: 1 });
    expect(treeKeyAction('ArrowDown', rows, tree, none, 3)).toEqual({ kind: 'focus', row: 3 });
    expect(treeKeyAction('ArrowUp', rows, tree, none, 0)).toEqual({ kind: 'focus', row: 0 });
    expect(treeKeyAction('End', rows, tree, none, 0)).toEqual({ kind: 'focus', row: 3 });
    expect(treeKeyAction('Home', rows, tree, none, 2)).toEqual({ kind: 'focus', row: 0 });
    expect(treeKeyAction('PageDown', rows, tree, none, 0, 2)).toEqual({ kind: 'focus', row: 2 });
  });

  it('collapses an expanded span, else goes to its parent', () => {
    expect(treeKeyAction('ArrowLeft', rows, tree, none, 1)).toEqual({ kind: 'collapse', node: 1 });
    expect(treeKeyAction('ArrowLeft', rows, tree, none, 2)).toEqual({ kind: 'focus', row: 1 });
    expect(treeKeyAction('ArrowLeft', rows, tree, new Set([1]), 1)).toEqual({
      kind: 'focus',
      row: 0,
    });
  });

  it('expands a collapsed span, else goes to its first child', () => {
    const collapsed = new Set([1]);
    const shown = visibleRows(tree, collapsed, null);
    expect(treeKeyAction('ArrowRight', shown, tree, collapsed, 1)).toEqual({
      kind: 'expand',
      node: 1,
    });
    expect(treeKeyAction('ArrowRight', rows, tree, none, 1)).toEqual({ kind: 'focus', row: 2 });
    expect(treeKeyAction('ArrowRight', rows, tree, none, 2)).toEqual({ kind: 'focus', row: 2 });
  });

  it('selects with Enter and Space, and leaves other keys alone', () => {
    expect(treeKeyAction('Enter', rows, tree, none, 2)).toEqual({ kind: 'select', node: 2 });
    expect(treeKeyAction(' ', rows, tree, none, 3)).toEqual({ kind: 'select', node: 3 });
    expect(treeKeyAction('a', rows, tree, none, 3)).toBeNull();
  });

  it('moves from a hidden-spans row to the span above it', () => {
    const filter = filterSpans(tree, { service: 'db' });
    const filtered = visibleRows(tree, none, filter);
    expect(filtered.map((r) => r.kind)).toEqual(['span', 'hidden', 'span']);
    expect(treeKeyAction('ArrowLeft', filtered, tree, none, 1)).toEqual({ kind: 'focus', row: 0 });
    expect(treeKeyAction('Enter', filtered, tree, none, 1)).toBeNull();
  });
});
