import { describe, expect, it } from 'vitest';
import {
  CATALOG_CURSOR_INCOMPLETE,
  parseCatalogCursor,
  parseCatalogSearch,
  parseCatalogType,
} from './catalog-query';

describe('catalog query', () => {
  it('type is one of the three attribute types', () => {
    expect(parseCatalogType(undefined)).toBeNull();
    expect(parseCatalogType('number')).toBe('number');
    expect(() => parseCatalogType('object')).toThrow('type must be');
  });

  it('search is 1 to 128 bytes without control characters', () => {
    expect(parseCatalogSearch('http')).toBe('http');
    expect(parseCatalogSearch('é'.repeat(64))).toBe('é'.repeat(64));
    expect(() => parseCatalogSearch('')).toThrow('1 to 128 bytes');
    expect(() => parseCatalogSearch('é'.repeat(65))).toThrow('1 to 128 bytes');
    expect(() => parseCatalogSearch('a\nb')).toThrow('control characters');
    expect(() => parseCatalogSearch('a\u0085b')).toThrow('control characters');
  });

  it('the cursor is all three fields or none', () => {
    expect(parseCatalogCursor({})).toBeNull();
    expect(
      parseCatalogCursor({
        cursor_observed_count: '12',
        cursor_path: '/a~1b',
        cursor_type: 'string',
      }),
    ).toEqual({ observedCount: 12, path: '/a~1b', type: 'string' });
    expect(() => parseCatalogCursor({ cursor_path: '/a', cursor_type: 'string' })).toThrow(
      CATALOG_CURSOR_INCOMPLETE,
    );
    const ok = { cursor_observed_count: '1', cursor_path: '/a', cursor_type: 'string' };
    expect(() => parseCatalogCursor({ ...ok, cursor_observed_count: '-1' })).toThrow();
    expect(() => parseCatalogCursor({ ...ok, cursor_observed_count: '1.5' })).toThrow();
    expect(() => parseCatalogCursor({ ...ok, cursor_path: 'a' })).toThrow('JSON Pointer');
    expect(() => parseCatalogCursor({ ...ok, cursor_type: 'object' })).toThrow('cursor_type');
  });
});
