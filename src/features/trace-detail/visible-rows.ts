import type { SpanFilterResult } from './span-filter';
import type { SpanNode, SpanTree } from './span-tree';

export type SpanRow =
  | {
      kind: 'span';
      key: string;
      node: number;
      /** Shown only because a descendant matches the filter. */
      dimmed: boolean;
    }
  | {
      kind: 'hidden';
      key: string;
      /** The depth of the first hidden span, so the row sits where the spans would. */
      depth: number;
      /** How many spans the filter hides here. */
      count: number;
    };

/**
 * The rows on screen, in tree order: a collapsed span's subtree is skipped, spans the filter
 * hides (no match in their subtree) are counted into one "N spans hidden" row per run, and
 * kept ancestors of matches are dimmed. One pass over the visible part: a skipped subtree
 * costs O(1) (its `end`), so collapsing makes the pass cheaper, never dearer.
 */
export function visibleRows(
  tree: SpanTree,
  collapsed: ReadonlySet<number>,
  filter: SpanFilterResult | null,
): SpanRow[] {
  const rows: SpanRow[] = [];
  const nodes = tree.nodes;
  let hidden = 0;
  let hiddenDepth = 0;
  let hiddenFirst = -1;
  const flush = () => {
    if (hidden === 0) return;
    rows.push({ kind: 'hidden', key: `hidden:${hiddenFirst}`, depth: hiddenDepth, count: hidden });
    hidden = 0;
  };
  let i = 0;
  while (i < nodes.length) {
    const node = nodes[i] as SpanNode;
    if (filter !== null && filter.keep[i] !== 1) {
      // Nothing in this subtree matches: all of it is hidden here.
      if (hidden === 0) {
        hiddenDepth = node.depth;
        hiddenFirst = i;
      }
      hidden += node.end - i;
      i = node.end;
      continue;
    }
    flush();
    rows.push({
      kind: 'span',
      key: node.span.id,
      node: i,
      dimmed: filter !== null && filter.match[i] !== 1,
    });
    i = collapsed.has(i) ? node.end : i + 1;
  }
  flush();
  return rows;
}

/** The row of a node, or -1 when it is not on screen (collapsed away or hidden). */
export function rowOfNode(rows: readonly SpanRow[], node: number): number {
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r] as SpanRow;
    if (row.kind === 'span' && row.node === node) return r;
  }
  return -1;
}
