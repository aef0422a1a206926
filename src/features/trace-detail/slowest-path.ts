import { childrenOf, type SpanNode, type SpanTree } from './span-tree';

/**
 * The nodes of the slowest path: the summary's (root first, then the longest child at each
 * level) when the service sent one, else the same walk over the tree from its first row.
 */
export function slowestPathNodes(
  tree: SpanTree,
  summaryPath: readonly { span_id: string }[] | null,
): Set<number> {
  const out = new Set<number>();
  if (summaryPath !== null && summaryPath.length > 0) {
    for (const s of summaryPath) {
      const i = tree.bySpanId.get(s.span_id);
      if (i !== undefined) out.add(i);
    }
    return out;
  }
  if (tree.nodes.length === 0) return out;
  let current = 0;
  for (;;) {
    out.add(current);
    let longest = -1;
    let longestMs = -Infinity;
    for (const c of childrenOf(tree, current)) {
      const ms = (tree.nodes[c] as SpanNode).span.duration_ms;
      if (ms > longestMs) {
        longestMs = ms;
        longest = c;
      }
    }
    if (longest < 0) return out;
    current = longest;
  }
}
