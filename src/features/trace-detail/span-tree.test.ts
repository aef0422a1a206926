import { describe, expect, it } from 'vitest';
import {
  ancestorsOf,
  buildSpanTree,
  childrenOf,
  parentNodes,
  revealNode,
  type SpanTree,
} from './span-tree';
import { testSpan } from './test-spans';

const names = (tree: SpanTree) =>
  tree.nodes.map((n) => `${'-'.repeat(n.depth)}${n.span.span_id.replace(/^0+/, '')}`);

describe('buildSpanTree', () => {
  it('nests children under parents in start order, depth first', () => {
    const tree = buildSpanTree([
      testSpan('1', null, 0, 100),
      testSpan('2', '1', 5, 50),
      testSpan('3', '1', 10, 20),
      testSpan('4', '2', 6, 10),
    ]);
    expect(names(tree)).toEqual(['1', '-2', '--4', '-3']);
    expect(tree.nodes[0]?.end).toBe(4);
    expect(tree.nodes[1]?.end).toBe(3);
    expect(tree.nodes[0]?.childCount).toBe(2);
    expect(tree.durationMs).toBe(100);
    expect(childrenOf(tree, 0)).toEqual([1, 3]);
    expect(ancestorsOf(tree, 2)).toEqual([1, 0]);
  });

  it('sorts spans that arrive out of start order', () => {
    const tree = buildSpanTree([
      testSpan('3', '1', 30, 5),
      testSpan('1', null, 0, 100),
      testSpan('2', '1', 10, 5),
    ]);
    expect(names(tree)).toEqual(['1', '-2', '-3']);
    expect(tree.nodes[2]?.offset).toBe(30);
  });

  it('puts spans whose parent is missing under the first root, marked as orphans', () => {
    const tree = buildSpanTree([
      testSpan('1', null, 0, 100),
      testSpan('9', null, 1, 10),
      testSpan('2', 'ff', 2, 10),
      testSpan('3', '2', 3, 1),
    ]);
    expect(names(tree)).toEqual(['1', '-2', '--3', '9']);
    expect(tree.nodes[1]?.orphan).toBe(true);
    expect(tree.nodes[2]?.orphan).toBe(false);
    expect(tree.orphanCount).toBe(1);
    expect(tree.rootCount).toBe(2);
  });

  it('makes orphans top-level rows when the trace has no root', () => {
    const tree = buildSpanTree([testSpan('2', 'ff', 0, 10), testSpan('3', 'ee', 1, 10)]);
    expect(names(tree)).toEqual(['2', '3']);
    expect(tree.nodes.every((n) => n.orphan && n.parent === -1)).toBe(true);
  });

  it('cuts parent cycles instead of dropping their spans', () => {
    const tree = buildSpanTree([
      testSpan('1', null, 0, 100),
      testSpan('2', '3', 1, 10),
      testSpan('3', '2', 2, 10),
      testSpan('4', '4', 3, 10),
    ]);
    expect(tree.nodes).toHaveLength(4);
    expect(names(tree)).toEqual(['1', '-2', '--3', '-4']);
    expect(tree.nodes[1]?.orphan).toBe(true);
    expect(tree.nodes[3]?.orphan).toBe(true);
  });

  it('keeps every span when an id repeats', () => {
    const tree = buildSpanTree([
      testSpan('1', null, 0, 100),
      testSpan('2', '1', 1, 10),
      testSpan('2', '1', 2, 10, { id: '00000000-0000-4000-8000-00000000beef' }),
    ]);
    expect(tree.nodes).toHaveLength(3);
  });

  it('lists error spans in tree order', () => {
    const tree = buildSpanTree([
      testSpan('1', null, 0, 100),
      testSpan('2', '1', 1, 10, { status: 'error' }),
      testSpan('3', '2', 2, 1, { status: 'error' }),
    ]);
    expect(tree.errors).toEqual([1, 2]);
  });

  it('builds a chain of 100,000 spans without recursion', () => {
    const spans = Array.from({ length: 100_000 }, (_, i) =>
      testSpan((i + 1).toString(16), i === 0 ? null : i.toString(16), i, 1),
    );
    const tree = buildSpanTree(spans);
    expect(tree.maxDepth).toBe(99_999);
    expect(tree.nodes[0]?.end).toBe(100_000);
    // What it checks is the stack, not the speed: a busy machine may take longer than 5 s.
  }, 30_000);

  it('expands collapsed ancestors to reveal a node', () => {
    const tree = buildSpanTree([
      testSpan('1', null, 0, 100),
      testSpan('2', '1', 1, 10),
      testSpan('3', '2', 2, 1),
    ]);
    const all = parentNodes(tree);
    expect([...all]).toEqual([0, 1]);
    expect([...revealNode(tree, all, 2)]).toEqual([]);
    const none = new Set<number>();
    expect(revealNode(tree, none, 2)).toBe(none);
  });
});
