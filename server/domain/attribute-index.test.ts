import { describe, expect, it } from 'vitest';
import { parseJsonPointer } from './read-rules/attribute-filters';
import { INDEX_LIMITS, encodePointerToken, indexAttributes } from './attribute-index';

describe('indexAttributes', () => {
  it('keeps scalar leaves by JSON Pointer path with typed keys', () => {
    const { leaves, coverage } = indexAttributes({
      http: { status: 503, method: 'GET' },
      cold_start: true,
      user: { Name: 'Ada' },
    });
    expect(coverage).toBe('indexed');
    expect(leaves).toEqual([
      { path: '/http/status', type: 'number', key: 503, raw: null },
      { path: '/http/method', type: 'string', key: 'get', raw: 'GET' },
      { path: '/cold_start', type: 'boolean', key: 1, raw: null },
      { path: '/user/Name', type: 'string', key: 'ada', raw: 'Ada' },
    ]);
  });

  it('escapes ~ and / in keys so the path round-trips through the filter parser', () => {
    const { leaves } = indexAttributes({ 'a/b': { '~c': 'x' } });
    expect(leaves[0]?.path).toBe('/a~1b/~0c');
    expect(parseJsonPointer(leaves[0]?.path ?? '')).toEqual(['a/b', '~c']);
    expect(encodePointerToken('~/')).toBe('~0~1');
  });

  it('ignores nulls and empty objects without calling the log partial', () => {
    expect(indexAttributes({ a: null, b: {} })).toEqual({ leaves: [], coverage: 'indexed' });
  });

  it('calls a log partial when arrays, deep leaves or long strings are left out', () => {
    expect(indexAttributes({ tags: ['a'], ok: 1 }).coverage).toBe('partial');
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < INDEX_LIMITS.maxDepth; i++) deep = { n: deep };
    expect(indexAttributes({ deep, ok: 1 }).coverage).toBe('partial');
    const long = 'x'.repeat(INDEX_LIMITS.maxStringBytes + 1);
    const r = indexAttributes({ long, ok: 'y' });
    expect(r.coverage).toBe('partial');
    expect(r.leaves.map((l) => l.path)).toEqual(['/ok']);
  });

  it('measures the string limit in UTF-8 bytes, not characters', () => {
    const atLimit = 'é'.repeat(INDEX_LIMITS.maxStringBytes / 2);
    expect(indexAttributes({ s: atLimit }).leaves).toHaveLength(1);
    expect(indexAttributes({ s: `${atLimit}x` }).coverage).toBe('unindexed');
  });

  it('calls a log unindexed when none of its values can be searched', () => {
    expect(indexAttributes({ tags: ['a', 'b'] }).coverage).toBe('unindexed');
  });

  it('indexes at most the per-log limit of leaves, in document order', () => {
    const many = Object.fromEntries(
      Array.from({ length: INDEX_LIMITS.maxAttributesPerLog + 3 }, (_, i) => [`k${i}`, i]),
    );
    const r = indexAttributes(many);
    expect(r.leaves).toHaveLength(INDEX_LIMITS.maxAttributesPerLog);
    expect(r.leaves[0]?.path).toBe('/k0');
    expect(r.coverage).toBe('partial');
  });

  it('keeps the exact depth limit and drops one past it', () => {
    const nest = (depth: number): Record<string, unknown> => {
      let v: unknown = 'v';
      for (let i = depth; i > 0; i--) v = { [`d${i}`]: v };
      return v as Record<string, unknown>;
    };
    expect(indexAttributes(nest(INDEX_LIMITS.maxDepth)).leaves).toHaveLength(1);
    expect(indexAttributes(nest(INDEX_LIMITS.maxDepth + 1)).coverage).toBe('unindexed');
  });
});
