import type { SpanNode, SpanTree } from './span-tree';
import { rowOfNode, type SpanRow } from './visible-rows';

/** What a key does in the span tree: move the focus, expand, collapse, or select a span. */
export type TreeKeyAction =
  | { kind: 'focus'; row: number }
  | { kind: 'expand'; node: number }
  | { kind: 'collapse'; node: number }
  | { kind: 'select'; node: number };

const depthOf = (tree: SpanTree, row: SpanRow) =>
  row.kind === 'span' ? (tree.nodes[row.node] as SpanNode).depth : row.depth;

/**
 * The ARIA tree keys (WAI-ARIA Authoring Practices, "Tree View"): Up/Down move, Right expands a
 * collapsed span or moves to its first child, Left collapses an expanded span or moves to the
 * parent, Home/End go to the first/last row, PageUp/PageDown move by a page, Enter and Space
 * select. `null` for any other key (the browser keeps it).
 */
export function treeKeyAction(
  key: string,
  rows: readonly SpanRow[],
  tree: SpanTree,
  collapsed: ReadonlySet<number>,
  focusRow: number,
  pageRows = 20,
): TreeKeyAction | null {
  if (rows.length === 0) return null;
  const last = rows.length - 1;
  const at = Math.min(Math.max(focusRow, 0), last);
  const row = rows[at] as SpanRow;
  switch (key) {
    case 'ArrowDown':
      return { kind: 'focus', row: Math.min(at + 1, last) };
    case 'ArrowUp':
      return { kind: 'focus', row: Math.max(at - 1, 0) };
    case 'PageDown':
      return { kind: 'focus', row: Math.min(at + pageRows, last) };
    case 'PageUp':
      return { kind: 'focus', row: Math.max(at - pageRows, 0) };
    case 'Home':
      return { kind: 'focus', row: 0 };
    case 'End':
      return { kind: 'focus', row: last };
    case 'ArrowRight': {
      if (row.kind !== 'span') return { kind: 'focus', row: at };
      const node = tree.nodes[row.node] as SpanNode;
      if (node.childCount === 0) return { kind: 'focus', row: at };
      if (collapsed.has(row.node)) return { kind: 'expand', node: row.node };
      const below = rows[at + 1];
      return below !== undefined && depthOf(tree, below) > node.depth
        ? { kind: 'focus', row: at + 1 }
        : { kind: 'focus', row: at };
    }
    case 'ArrowLeft': {
      if (row.kind === 'span') {
        const node = tree.nodes[row.node] as SpanNode;
        if (node.childCount > 0 && !collapsed.has(row.node)) {
          return { kind: 'collapse', node: row.node };
        }
        if (node.parent < 0) return { kind: 'focus', row: at };
        const parentRow = rowOfNode(rows, node.parent);
        return { kind: 'focus', row: parentRow >= 0 ? parentRow : at };
      }
      for (let r = at - 1; r >= 0; r--) {
        const up = rows[r] as SpanRow;
        if (depthOf(tree, up) < row.depth) return { kind: 'focus', row: r };
      }
      return { kind: 'focus', row: at };
    }
    case 'Enter':
    case ' ':
      return row.kind === 'span' ? { kind: 'select', node: row.node } : null;
    default:
      return null;
  }
}
