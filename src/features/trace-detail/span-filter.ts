import type { SpanNode, SpanTree } from './span-tree';

export type SpanFilterQuery = { text?: string | undefined; service?: string | undefined };

/**
 * Which spans a filter shows: `match` marks the spans that match, `keep` those that match or
 * have a matching descendant (an ancestor kept to show where a match sits, drawn dimmed), and
 * `below` counts the matches among each span's descendants (what collapsing it would hide).
 */
export type SpanFilterResult = {
  match: Uint8Array;
  keep: Uint8Array;
  below: Uint32Array;
  matchCount: number;
};

export function isFilterActive(query: SpanFilterQuery): boolean {
  return (query.text !== undefined && query.text.trim() !== '') || query.service !== undefined;
}

/**
 * The text matches a span's name, service, operation or span id (case-insensitive, a part of
 * it); the service must be the span's service exactly. Both must hold when both are set.
 * `null` when nothing filters. O(n): ancestors are marked in one pass in reverse tree order.
 */
export function filterSpans(tree: SpanTree, query: SpanFilterQuery): SpanFilterResult | null {
  if (!isFilterActive(query)) return null;
  const needle = query.text?.trim().toLowerCase() ?? '';
  const n = tree.nodes.length;
  const match = new Uint8Array(n);
  const keep = new Uint8Array(n);
  let matchCount = 0;
  for (let i = 0; i < n; i++) {
    const span = (tree.nodes[i] as SpanNode).span;
    if (query.service !== undefined && span.service_name !== query.service) continue;
    if (
      needle !== '' &&
      !span.name.toLowerCase().includes(needle) &&
      !span.service_name.toLowerCase().includes(needle) &&
      !(span.operation ?? '').toLowerCase().includes(needle) &&
      !span.span_id.toLowerCase().includes(needle)
    ) {
      continue;
    }
    match[i] = 1;
    keep[i] = 1;
    matchCount++;
  }
  // Children come after their parent in tree order, so one reverse pass sees every subtree
  // complete before its parent.
  const below = new Uint32Array(n);
  for (let i = n - 1; i >= 0; i--) {
    if (keep[i] !== 1) continue;
    const p = (tree.nodes[i] as SpanNode).parent;
    if (p < 0) continue;
    keep[p] = 1;
    below[p] = (below[p] as number) + (below[i] as number) + (match[i] as number);
  }
  return { match, keep, below, matchCount };
}

/**
 * The collapsed set without the spans that hide a match, so every match of a new filter is on
 * screen. The same set when none does.
 */
export function expandToMatches(
  collapsed: ReadonlySet<number>,
  filter: SpanFilterResult | null,
): ReadonlySet<number> {
  if (filter === null) return collapsed;
  const hiding = [...collapsed].filter((node) => (filter.below[node] ?? 0) > 0);
  if (hiding.length === 0) return collapsed;
  const next = new Set(collapsed);
  for (const node of hiding) next.delete(node);
  return next;
}
