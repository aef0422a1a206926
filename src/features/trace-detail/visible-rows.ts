import type { SpanFilterResult } from './span-filter';
import type { SpanNode, SpanTree } from './span-tree';

export type SpanRow =
  | {
      kind: 'span';
      key: string;
      node: number;
      /** Shown only because a descendant matches the filter. */
      dimmed: boolean;
      /** Matches of the filter inside this span's subtree that its collapse hides (else 0). */
      hiddenMatches: number;
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
 * kept ancestors of matches are dimmed, unless collapsed over matches: such a row stands for
 * them and says how many it hides (`hiddenMatches`). One pass over the visible part: a skipped subtree
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
    const isCollapsed = collapsed.has(i);
    const hiddenMatches = filter !== null && isCollapsed ? (filter.below[i] ?? 0) : 0;
    rows.push({
      kind: 'span',
      key: node.span.id,
      node: i,
      dimmed: filter !== null && filter.match[i] !== 1 && hiddenMatches === 0,
      hiddenMatches,
    });
    i = isCollapsed ? node.end : i + 1;
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

/**
 * How many matches sit under the collapsed spans on screen. Only the outermost collapsed span
 * of a subtree is a row, so no match is counted twice.
 */
export function matchesUnderCollapsed(rows: readonly SpanRow[]): number {
  let total = 0;
  for (const row of rows) if (row.kind === 'span') total += row.hiddenMatches;
  return total;
}
