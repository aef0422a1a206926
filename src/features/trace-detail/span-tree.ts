import type { TraceSpan } from '../../api/queries/traces';

/** One span in the tree, at its place in depth-first (pre-)order. */
export type SpanNode = {
  span: TraceSpan;
  /** Position in pre-order (the index of this node in `SpanTree.nodes`). */
  index: number;
  /** The parent's index, or -1 for a top-level row. */
  parent: number;
  depth: number;
  /** The index after this node's last descendant: its subtree is `[index, end)`. */
  end: number;
  childCount: number;
  /** The span names a parent the trace does not hold (shown under the root). */
  orphan: boolean;
  /** Milliseconds from the trace's start to this span's start. */
  offset: number;
  error: boolean;
};

export type SpanTree = {
  nodes: SpanNode[];
  /** The node of each span id (the first span when an id repeats). */
  bySpanId: ReadonlyMap<string, number>;
  /** Epoch milliseconds of the earliest span start. */
  startMs: number;
  /** From the earliest start to the latest end, in milliseconds. */
  durationMs: number;
  /** Error spans, in tree order. */
  errors: number[];
  orphanCount: number;
  /** Spans without a parent id (the trace's roots). */
  rootCount: number;
  maxDepth: number;
};

const NO_PARENT = -1;

/**
 * The span tree of a trace, in O(n log n) at most (O(n) when the spans come in start order,
 * as the service sends them) and without recursion, so a deep trace cannot overflow the stack.
 * Children are in start order. A span whose parent is not in the trace is an orphan under the
 * first root (top-level when the trace has no root); spans in a parent cycle are cut loose
 * the same way. No span is ever dropped.
 */
export function buildSpanTree(spans: readonly TraceSpan[]): SpanTree {
  const n = spans.length;
  const start = new Float64Array(n);
  let sorted = true;
  for (let i = 0; i < n; i++) {
    const t = Date.parse((spans[i] as TraceSpan).started_at);
    start[i] = Number.isNaN(t) ? 0 : t;
    if (i > 0 && (start[i] as number) < (start[i - 1] as number)) sorted = false;
  }
  // `order[k]` is the input position of the k-th span by start time (stable).
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  if (!sorted) {
    const byStart = Array.from(order).sort((a, b) => (start[a] as number) - (start[b] as number));
    order.set(byStart);
  }
  const spanAt = (k: number) => spans[order[k] as number] as TraceSpan;
  const startAt = (k: number) => start[order[k] as number] as number;

  const bySorted = new Map<string, number>();
  for (let k = 0; k < n; k++) {
    const id = spanAt(k).span_id;
    if (!bySorted.has(id)) bySorted.set(id, k);
  }

  const parent = new Int32Array(n);
  const orphan = new Uint8Array(n);
  let firstRoot = -1;
  let rootCount = 0;
  for (let k = 0; k < n; k++) {
    const parentId = spanAt(k).parent_span_id;
    if (parentId === null || parentId === '') {
      parent[k] = NO_PARENT;
      rootCount++;
      if (firstRoot < 0) firstRoot = k;
      continue;
    }
    const p = bySorted.get(parentId);
    if (p === undefined || p === k) {
      orphan[k] = 1;
      parent[k] = -2; // placed below, once the first root is known
    } else {
      parent[k] = p;
    }
  }
  for (let k = 0; k < n; k++) if (parent[k] === -2) parent[k] = firstRoot;

  let children = childLists(parent, n);
  // Spans in a parent cycle are reached from no top-level row: cut each cycle once.
  const reached = new Uint8Array(n);
  const stack: number[] = [];
  const walk = (from: number) => {
    stack.push(from);
    while (stack.length > 0) {
      const k = stack.pop() as number;
      if (reached[k]) continue;
      reached[k] = 1;
      for (let c = children.offsets[k] as number; c < (children.offsets[k + 1] as number); c++) {
        stack.push(children.list[c] as number);
      }
    }
  };
  for (let k = 0; k < n; k++) if (parent[k] === NO_PARENT) walk(k);
  let cut = false;
  for (let k = 0; k < n; k++) {
    if (reached[k]) continue;
    cut = true;
    orphan[k] = 1;
    parent[k] = firstRoot >= 0 && firstRoot !== k ? firstRoot : NO_PARENT;
    walk(k);
  }
  if (cut) children = childLists(parent, n);

  // Pre-order, iteratively: children pushed in reverse so the earliest is visited first.
  const pre = new Int32Array(n);
  const position = new Int32Array(n);
  let next = 0;
  for (let top = n - 1; top >= 0; top--) if (parent[top] === NO_PARENT) stack.push(top);
  while (stack.length > 0) {
    const k = stack.pop() as number;
    position[k] = next;
    pre[next++] = k;
    for (
      let c = (children.offsets[k + 1] as number) - 1;
      c >= (children.offsets[k] as number);
      c--
    ) {
      stack.push(children.list[c] as number);
    }
  }

  let startMs = n === 0 ? 0 : Infinity;
  for (const t of start) if (t < startMs) startMs = t;
  let endMs = startMs;
  const nodes: SpanNode[] = new Array<SpanNode>(n);
  const errors: number[] = [];
  let orphanCount = 0;
  let maxDepth = 0;
  for (let i = 0; i < n; i++) {
    const k = pre[i] as number;
    const span = spanAt(k);
    const p = parent[k] as number;
    const parentIndex = p === NO_PARENT ? -1 : (position[p] as number);
    const depth = parentIndex < 0 ? 0 : (nodes[parentIndex] as SpanNode).depth + 1;
    const offset = startAt(k) - startMs;
    const error = span.status === 'error';
    const duration = Number.isFinite(span.duration_ms) ? Math.max(0, span.duration_ms) : 0;
    endMs = Math.max(endMs, startMs + offset + duration);
    nodes[i] = {
      span,
      index: i,
      parent: parentIndex,
      depth,
      end: i + 1,
      childCount: (children.offsets[k + 1] as number) - (children.offsets[k] as number),
      orphan: orphan[k] === 1,
      offset,
      error,
    };
    if (error) errors.push(i);
    if (orphan[k] === 1) orphanCount++;
    if (depth > maxDepth) maxDepth = depth;
  }
  // Subtree ends: in reverse pre-order a node's end is known before its parent's.
  for (let i = n - 1; i >= 0; i--) {
    const node = nodes[i] as SpanNode;
    if (node.parent >= 0) {
      const up = nodes[node.parent] as SpanNode;
      if (node.end > up.end) up.end = node.end;
    }
  }

  const bySpanId = new Map<string, number>();
  for (const [id, k] of bySorted) bySpanId.set(id, position[k] as number);

  return {
    nodes,
    bySpanId,
    startMs,
    durationMs: endMs - startMs,
    errors,
    orphanCount,
    rootCount,
    maxDepth,
  };
}

/** Children of every node as one flat list (CSR), each node's children in start order. */
function childLists(parent: Int32Array, n: number) {
  const offsets = new Int32Array(n + 1);
  for (let k = 0; k < n; k++) {
    const p = parent[k] as number;
    if (p >= 0) offsets[p + 1] = (offsets[p + 1] as number) + 1;
  }
  for (let k = 0; k < n; k++) offsets[k + 1] = (offsets[k + 1] as number) + (offsets[k] as number);
  const fill = offsets.slice(0, n);
  const list = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    const p = parent[k] as number;
    if (p >= 0) {
      list[fill[p] as number] = k;
      fill[p] = (fill[p] as number) + 1;
    }
  }
  return { offsets, list };
}

/** The indices of a node's children, in order (walks the subtree by `end`, not the whole tree). */
export function childrenOf(tree: SpanTree, index: number): number[] {
  const node = tree.nodes[index];
  if (!node) return [];
  const out: number[] = [];
  for (let c = index + 1; c < node.end; c = (tree.nodes[c] as SpanNode).end) out.push(c);
  return out;
}

/** The node's ancestors, nearest first. */
export function ancestorsOf(tree: SpanTree, index: number): number[] {
  const out: number[] = [];
  for (let p = tree.nodes[index]?.parent ?? -1; p >= 0; p = (tree.nodes[p] as SpanNode).parent) {
    out.push(p);
  }
  return out;
}

/** Every node with children (what "Collapse all" collapses). */
export function parentNodes(tree: SpanTree): Set<number> {
  const out = new Set<number>();
  for (const node of tree.nodes) if (node.childCount > 0) out.add(node.index);
  return out;
}

/** The collapsed set with the node's ancestors expanded, so the node is in view. */
export function revealNode(
  tree: SpanTree,
  collapsed: ReadonlySet<number>,
  index: number,
): ReadonlySet<number> {
  const ancestors = ancestorsOf(tree, index).filter((a) => collapsed.has(a));
  if (ancestors.length === 0) return collapsed;
  const next = new Set(collapsed);
  for (const a of ancestors) next.delete(a);
  return next;
}
