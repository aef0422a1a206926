import { describe, expect, it } from 'vitest';
import { parseAttributeFilters, parseJsonPointer } from './attribute-filters';

const one = (f: Record<string, unknown>) => JSON.stringify([f]);

describe('parseJsonPointer', () => {
  it('splits tokens and undoes ~1 and ~0', () => {
    expect(parseJsonPointer('/http/status')).toEqual(['http', 'status']);
    expect(parseJsonPointer('/a~1b/c~0d')).toEqual(['a/b', 'c~d']);
    expect(parseJsonPointer('/~01')).toEqual(['~1']);
  });
  it('rejects pointers without a leading slash or with a bad escape', () => {
    expect(parseJsonPointer('http')).toBeNull();
    expect(parseJsonPointer('')).toBeNull();
    expect(parseJsonPointer('/a~2')).toBeNull();
    expect(parseJsonPointer('/a~')).toBeNull();
  });
});

describe('parseAttributeFilters', () => {
  it('accepts every operator its type allows', () => {
    const ok = [
      { path: '/a', type: 'string', operator: 'eq', value: 'x', case_sensitive: true },
      { path: '/a', type: 'string', operator: 'ne', value: '' },
      { path: '/a', type: 'string', operator: 'contains', value: 'x' },
      { path: '/a', type: 'string', operator: 'starts_with', value: 'x' },
      { path: '/a', type: 'string', operator: 'exists' },
      { path: '/n', type: 'number', operator: 'gt', value: 1 },
      { path: '/n', type: 'number', operator: 'gte', value: -9007199254740992 },
      { path: '/n', type: 'number', operator: 'lt', value: 1.5 },
      { path: '/n', type: 'number', operator: 'lte', value: 9007199254740992 },
      { path: '/n', type: 'number', operator: 'eq', value: 500, case_sensitive: false },
      { path: '/b', type: 'boolean', operator: 'ne', value: false },
    ];
    for (const f of ok) expect(parseAttributeFilters(one(f)), JSON.stringify(f)).toHaveLength(1);
    const parsed = parseAttributeFilters(one(ok[0] ?? {}));
    expect(parsed[0]).toMatchObject({ segments: ['a'], caseSensitive: true, value: 'x' });
  });
  it('rejects every broken rule', () => {
    const bad: string[] = [
      'not json',
      '{}',
      '[]',
      JSON.stringify(Array(5).fill({ path: '/a', type: 'string', operator: 'exists' })),
      one({ path: '/a', type: 'string', operator: 'eq', value: 'x'.repeat(5000) }),
      one({ path: '/a', type: 'string', operator: 'eq', value: 'é'.repeat(513) }),
      one({ path: 'a', type: 'string', operator: 'eq', value: 'x' }),
      one({ path: '/a~2', type: 'string', operator: 'eq', value: 'x' }),
      one({ path: '/a', type: 'object', operator: 'eq', value: 'x' }),
      one({ path: '/a', type: 'string', operator: 'like', value: 'x' }),
      one({ path: '/a', type: 'string', operator: 'gt', value: 'x' }),
      one({ path: '/a', type: 'boolean', operator: 'contains', value: true }),
      one({ path: '/a', type: 'string', operator: 'eq', value: 500 }),
      one({ path: '/a', type: 'number', operator: 'eq', value: '500' }),
      one({ path: '/a', type: 'boolean', operator: 'eq', value: 'true' }),
      one({ path: '/a', type: 'number', operator: 'eq', value: 9007199254740994 }),
      '[{"path":"/a","type":"number","operator":"eq","value":1e400}]',
      one({ path: '/a', type: 'number', operator: 'eq', value: 1, case_sensitive: true }),
      one({ path: '/a', type: 'boolean', operator: 'eq', value: true, case_sensitive: true }),
      one({ path: '/a', type: 'string', operator: 'eq', value: 'x', case_sensitive: 'yes' }),
      one({ path: '/a', type: 'string', operator: 'contains', value: '' }),
      one({ path: '/a', type: 'string', operator: 'starts_with', value: '' }),
      one({ path: '/a', type: 'string', operator: 'eq' }),
      one({ path: '/a', type: 'string', operator: 'exists', value: 'x' }),
      one({ path: '/a', type: 'string', operator: 'eq', value: 'x', extra: 1 }),
      JSON.stringify(['x']),
    ];
    for (const raw of bad) expect(() => parseAttributeFilters(raw), raw.slice(0, 80)).toThrow();
  });
});
