import { describe, expect, it } from 'vitest';
import {
  attributeFiltersProblem,
  catalogSearchOf,
  checkAttributeFilter,
  describeFilter,
  draftOf,
  filterFromDraft,
  indexedPaths,
  matchesAttributeFilter,
  matchesAttributeFilters,
  NUMBER_BOUND,
  sameFilter,
  serializeAttributeFilters,
  type AttributeFilter,
  type FilterDraft,
} from './attribute-filter';

const draft = (d: Partial<FilterDraft>): FilterDraft => ({
  path: '/http/status',
  type: 'number',
  operator: 'eq',
  valueText: '',
  caseSensitive: false,
  ...d,
});

describe('checkAttributeFilter', () => {
  it('accepts each type with its operators', () => {
    expect(
      checkAttributeFilter({ path: '/a', type: 'string', operator: 'contains', value: 'x' }).ok,
    ).toBe(true);
    expect(checkAttributeFilter({ path: '/a', type: 'number', operator: 'gte', value: 5 }).ok).toBe(
      true,
    );
    expect(
      checkAttributeFilter({ path: '/a', type: 'boolean', operator: 'ne', value: false }).ok,
    ).toBe(true);
    expect(checkAttributeFilter({ path: '/a', type: 'boolean', operator: 'exists' }).ok).toBe(true);
  });

  it('refuses operators of another type', () => {
    expect(
      checkAttributeFilter({ path: '/a', type: 'number', operator: 'contains', value: 1 }),
    ).toMatchObject({ ok: false, problem: expect.stringContaining('=, ≠, >') as string });
    expect(
      checkAttributeFilter({ path: '/a', type: 'boolean', operator: 'gt', value: true }).ok,
    ).toBe(false);
    expect(
      checkAttributeFilter({ path: '/a', type: 'string', operator: 'gt', value: 'a' }).ok,
    ).toBe(false);
  });

  it('refuses a value with exists, and a value of another JSON type', () => {
    expect(
      checkAttributeFilter({ path: '/a', type: 'string', operator: 'exists', value: 'x' }),
    ).toEqual({ ok: false, problem: '“exists” takes no value.' });
    expect(
      checkAttributeFilter({ path: '/a', type: 'number', operator: 'eq', value: '500' }).ok,
    ).toBe(false);
    expect(checkAttributeFilter({ path: '/a', type: 'boolean', operator: 'eq', value: 1 }).ok).toBe(
      false,
    );
  });

  it('keeps case_sensitive for strings only, and only when true', () => {
    expect(
      checkAttributeFilter({
        path: '/a',
        type: 'number',
        operator: 'eq',
        value: 1,
        case_sensitive: true,
      }).ok,
    ).toBe(false);
    expect(
      checkAttributeFilter({
        path: '/a',
        type: 'string',
        operator: 'eq',
        value: 'x',
        case_sensitive: false,
      }),
    ).toEqual({ ok: true, filter: { path: '/a', type: 'string', operator: 'eq', value: 'x' } });
  });

  it('refuses paths that are not JSON Pointers and unknown types', () => {
    expect(
      checkAttributeFilter({ path: 'http.status', type: 'number', operator: 'exists' }).ok,
    ).toBe(false);
    expect(checkAttributeFilter({ path: '/a~2', type: 'number', operator: 'exists' }).ok).toBe(
      false,
    );
    expect(checkAttributeFilter({ path: '/a', type: 'object', operator: 'exists' }).ok).toBe(false);
    expect(checkAttributeFilter(null).ok).toBe(false);
  });

  it('keeps only the keys the service accepts', () => {
    const check = checkAttributeFilter({
      path: '/a',
      type: 'number',
      operator: 'exists',
      extra: 1,
    });
    expect(check).toEqual({ ok: true, filter: { path: '/a', type: 'number', operator: 'exists' } });
  });
});

describe('filterFromDraft', () => {
  it('reads numbers and explains what is not one', () => {
    expect(filterFromDraft(draft({ valueText: ' 500 ' }))).toEqual({
      ok: true,
      filter: { path: '/http/status', type: 'number', operator: 'eq', value: 500 },
    });
    expect(filterFromDraft(draft({ valueText: '-0.25' })).ok).toBe(true);
    expect(filterFromDraft(draft({ valueText: '1e3' })).ok).toBe(true);
    expect(filterFromDraft(draft({ valueText: '' }))).toMatchObject({ ok: false });
    expect(filterFromDraft(draft({ valueText: '5OO' }))).toEqual({
      ok: false,
      problem: '“5OO” is not a number. Enter digits, such as 500 or 0.25.',
    });
    expect(filterFromDraft(draft({ valueText: 'Infinity' })).ok).toBe(false);
    expect(filterFromDraft(draft({ valueText: '0x10' })).ok).toBe(false);
  });

  it('explains numbers out of the exact range', () => {
    expect(filterFromDraft(draft({ valueText: String(NUMBER_BOUND) })).ok).toBe(true);
    expect(filterFromDraft(draft({ valueText: '9007199254740993000' }))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('between') as string,
    });
    expect(filterFromDraft(draft({ valueText: '1e400' })).ok).toBe(false);
  });

  it('needs text for contains and starts_with, not for eq', () => {
    const s = { type: 'string' as const, path: '/user/plan' };
    expect(filterFromDraft(draft({ ...s, operator: 'contains', valueText: '' }))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('at least one character') as string,
    });
    expect(filterFromDraft(draft({ ...s, operator: 'starts_with', valueText: '' })).ok).toBe(false);
    expect(filterFromDraft(draft({ ...s, operator: 'eq', valueText: '' })).ok).toBe(true);
  });

  it('counts string limits in UTF-8 bytes', () => {
    const s = { type: 'string' as const, operator: 'eq' as const };
    expect(filterFromDraft(draft({ ...s, valueText: 'a'.repeat(1024) })).ok).toBe(true);
    // 342 × 3 bytes = 1026 bytes, in 342 characters.
    expect(filterFromDraft(draft({ ...s, valueText: '€'.repeat(342) }))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('1,026 bytes') as string,
    });
  });

  it('carries case sensitivity for strings, and no value for exists', () => {
    expect(
      filterFromDraft(
        draft({ type: 'string', operator: 'eq', valueText: 'Pro', caseSensitive: true }),
      ),
    ).toEqual({
      ok: true,
      filter: {
        path: '/http/status',
        type: 'string',
        operator: 'eq',
        value: 'Pro',
        case_sensitive: true,
      },
    });
    expect(filterFromDraft(draft({ operator: 'exists', valueText: 'ignored' }))).toEqual({
      ok: true,
      filter: { path: '/http/status', type: 'number', operator: 'exists' },
    });
  });

  it('reads booleans', () => {
    expect(filterFromDraft(draft({ type: 'boolean', valueText: 'false' }))).toEqual({
      ok: true,
      filter: { path: '/http/status', type: 'boolean', operator: 'eq', value: false },
    });
    expect(filterFromDraft(draft({ type: 'boolean', valueText: 'yes' })).ok).toBe(false);
  });

  it('round-trips through draftOf', () => {
    const filters: AttributeFilter[] = [
      { path: '/a', type: 'number', operator: 'lt', value: 0.5 },
      { path: '/b', type: 'string', operator: 'ne', value: 'x', case_sensitive: true },
      { path: '/c', type: 'boolean', operator: 'eq', value: false },
      { path: '/d', type: 'string', operator: 'exists' },
    ];
    for (const f of filters) expect(filterFromDraft(draftOf(f))).toEqual({ ok: true, filter: f });
  });
});

describe('attributeFiltersProblem', () => {
  const f: AttributeFilter = { path: '/a', type: 'number', operator: 'eq', value: 1 };

  it('allows 0 to 4 filters', () => {
    expect(attributeFiltersProblem([])).toBeNull();
    expect(attributeFiltersProblem([f, f, f, f])).toBeNull();
    expect(attributeFiltersProblem([f, f, f, f, f])).toMatch(/At most 4/);
  });

  it('counts the bytes of the JSON sent', () => {
    const long: AttributeFilter = {
      path: '/a',
      type: 'string',
      operator: 'eq',
      value: 'x'.repeat(1000),
    };
    expect(attributeFiltersProblem([long, long, long])).toBeNull();
    expect(serializeAttributeFilters([long, long, long, long]).length).toBeGreaterThan(4096);
    expect(attributeFiltersProblem([long, long, long, long])).toMatch(/at most 4,096/);
  });
});

describe('describeFilter and sameFilter', () => {
  it('reads as a short sentence', () => {
    expect(
      describeFilter({ path: '/http/status', type: 'number', operator: 'gte', value: 500 }),
    ).toBe('http › status ≥ 500');
    expect(describeFilter({ path: '/plan', type: 'string', operator: 'eq', value: 'pro' })).toBe(
      'plan is "pro"',
    );
    expect(describeFilter({ path: '/beta', type: 'boolean', operator: 'exists' })).toBe(
      'beta exists',
    );
  });

  it('shows the keys as written, never a pointer escape', () => {
    expect(
      describeFilter({ path: '/stripe~1event', type: 'string', operator: 'eq', value: 'paid' }),
    ).toBe('stripe/event is "paid"');
    expect(
      describeFilter({ path: '/k8s/app.kubernetes.io~1name', type: 'string', operator: 'exists' }),
    ).toBe('k8s › app.kubernetes.io/name exists');
  });

  it('compares by meaning, not by key order', () => {
    expect(
      sameFilter(
        { path: '/a', type: 'string', operator: 'eq', value: 'x', case_sensitive: false },
        { value: 'x', operator: 'eq', type: 'string', path: '/a' },
      ),
    ).toBe(true);
    expect(
      sameFilter(
        { path: '/a', type: 'string', operator: 'eq', value: 'x' },
        { path: '/a', type: 'string', operator: 'ne', value: 'x' },
      ),
    ).toBe(false);
  });
});

describe('matchesAttributeFilter', () => {
  const attrs = {
    http: { status: 503, method: 'GET' },
    user: { plan: 'Pro' },
    flags: { beta: true },
    'app.kubernetes.io/name': 'checkout',
    tags: ['a', 'b'],
    nothing: null,
  };
  const m = (f: AttributeFilter) => matchesAttributeFilter(attrs, f);

  it('compares numbers', () => {
    expect(m({ path: '/http/status', type: 'number', operator: 'gte', value: 500 })).toBe(true);
    expect(m({ path: '/http/status', type: 'number', operator: 'lt', value: 500 })).toBe(false);
    expect(m({ path: '/http/status', type: 'number', operator: 'ne', value: 500 })).toBe(true);
    expect(m({ path: '/http/status', type: 'number', operator: 'eq', value: 503 })).toBe(true);
  });

  it('folds case unless asked not to', () => {
    expect(m({ path: '/user/plan', type: 'string', operator: 'eq', value: 'pro' })).toBe(true);
    expect(
      m({ path: '/user/plan', type: 'string', operator: 'eq', value: 'pro', case_sensitive: true }),
    ).toBe(false);
    expect(m({ path: '/user/plan', type: 'string', operator: 'starts_with', value: 'P' })).toBe(
      true,
    );
    expect(m({ path: '/user/plan', type: 'string', operator: 'contains', value: 'RO' })).toBe(true);
  });

  it('needs the path with a value of the type, even for ne', () => {
    expect(m({ path: '/missing', type: 'string', operator: 'ne', value: 'x' })).toBe(false);
    expect(m({ path: '/http/status', type: 'string', operator: 'ne', value: 'x' })).toBe(false);
    expect(m({ path: '/http/status', type: 'string', operator: 'exists' })).toBe(false);
    expect(m({ path: '/http/status', type: 'number', operator: 'exists' })).toBe(true);
    expect(m({ path: '/nothing', type: 'string', operator: 'exists' })).toBe(false);
    expect(m({ path: '/http', type: 'string', operator: 'exists' })).toBe(false);
  });

  it('reads escaped keys and booleans, never array items', () => {
    expect(
      m({ path: '/app.kubernetes.io~1name', type: 'string', operator: 'eq', value: 'checkout' }),
    ).toBe(true);
    expect(m({ path: '/flags/beta', type: 'boolean', operator: 'eq', value: true })).toBe(true);
    expect(m({ path: '/flags/beta', type: 'boolean', operator: 'ne', value: true })).toBe(false);
    expect(m({ path: '/tags/0', type: 'string', operator: 'eq', value: 'a' })).toBe(false);
  });

  it('needs every filter', () => {
    expect(
      matchesAttributeFilters(attrs, [
        { path: '/http/status', type: 'number', operator: 'gte', value: 500 },
        { path: '/http/method', type: 'string', operator: 'eq', value: 'POST' },
      ]),
    ).toBe(false);
    expect(matchesAttributeFilters(attrs, [])).toBe(true);
  });
});

describe('catalogSearchOf', () => {
  it('trims, drops control characters, and keeps to 128 bytes', () => {
    expect(catalogSearchOf('  http ')).toEqual({ ok: true, search: 'http' });
    expect(catalogSearchOf('ht\ttp\u0000')).toEqual({ ok: true, search: 'http' });
    expect(catalogSearchOf('   ')).toEqual({ ok: true, search: undefined });
    expect(catalogSearchOf('a'.repeat(128))).toMatchObject({ ok: true });
    expect(catalogSearchOf('é'.repeat(65))).toMatchObject({ ok: false });
  });

  it('searches what a person reads: a key holding / or nested keys', () => {
    expect(catalogSearchOf('stripe/event')).toEqual({ ok: true, search: 'stripe~1event' });
    expect(catalogSearchOf('k8s › app')).toEqual({ ok: true, search: 'k8s/app' });
    // The escape counts toward the service's 128 bytes.
    expect(catalogSearchOf('/'.repeat(64))).toMatchObject({ ok: true });
    expect(catalogSearchOf('/'.repeat(65))).toMatchObject({ ok: false });
  });
});

describe('indexedPaths and matching within the index', () => {
  const limits = { max_depth: 2, max_attributes_per_log: 3, max_string_bytes: 8 };

  it('keeps scalar leaves in document order, within depth, count and length', () => {
    const attrs = {
      a: 1,
      deep: { b: { c: true } },
      long: 'x'.repeat(9),
      list: [1, 2],
      nil: null,
      s: 'ok',
      t: 'two',
      u: 'late',
    };
    expect([...indexedPaths(attrs, limits)]).toEqual(['/a', '/s', '/t']);
  });

  it('never matches a value the index left out', () => {
    const attrs = { long: 'x'.repeat(9), deep: { b: { c: true } }, ok: 'yes' };
    const f = (filter: AttributeFilter) => matchesAttributeFilters(attrs, [filter], limits);
    expect(f({ path: '/long', type: 'string', operator: 'exists' })).toBe(false);
    expect(f({ path: '/deep/b/c', type: 'boolean', operator: 'eq', value: true })).toBe(false);
    expect(f({ path: '/ok', type: 'string', operator: 'eq', value: 'YES' })).toBe(true);
    // The service's own limits by default: depth 8, 64 leaves, 1024-byte strings.
    expect(
      matchesAttributeFilters({ long: 'x'.repeat(1025) }, [
        { path: '/long', type: 'string', operator: 'exists' },
      ]),
    ).toBe(false);
  });

  it('escapes keys as pointers', () => {
    expect([...indexedPaths({ 'a/b': 1, 'c~d': 2 }, limits)]).toEqual(['/a~1b', '/c~0d']);
  });
});
