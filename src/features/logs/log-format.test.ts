import { describe, expect, it } from 'vitest';
import {
  attributeCell,
  attributeTree,
  filterForValue,
  formatLogTime,
  valueText,
} from './log-format';

describe('formatLogTime', () => {
  it('shows month-day and time with milliseconds, in UTC', () => {
    expect(formatLogTime('2026-11-02T04:05:06.007Z')).toBe('11-02 04:05:06.007');
    expect(formatLogTime('not a time')).toBe('not a time');
  });
});

describe('valueText and attributeCell', () => {
  it('shows strings as they are and the rest as JSON', () => {
    expect(valueText('<b>x</b>')).toBe('<b>x</b>');
    expect(valueText(500)).toBe('500');
    expect(valueText(false)).toBe('false');
    expect(valueText(null)).toBe('null');
    expect(valueText({ a: [1] })).toBe('{"a":[1]}');
  });

  it('reads a column by pointer, null when absent', () => {
    const attrs = { http: { status: 200 }, 'a/b': 'x' };
    expect(attributeCell(attrs, '/http/status')).toBe('200');
    expect(attributeCell(attrs, '/a~1b')).toBe('x');
    expect(attributeCell(attrs, '/nope')).toBeNull();
  });
});

describe('attributeTree', () => {
  it('gives each key its escaped pointer', () => {
    const tree = attributeTree({ http: { status: 200 }, 'cron~schedule': '* * *', tags: ['a'] });
    expect(tree).toEqual([
      {
        kind: 'object',
        key: 'http',
        pointer: '/http',
        children: [
          { kind: 'value', key: 'status', pointer: '/http/status', value: 200, inArray: false },
        ],
      },
      {
        kind: 'value',
        key: 'cron~schedule',
        pointer: '/cron~0schedule',
        value: '* * *',
        inArray: false,
      },
      { kind: 'array', key: 'tags', pointer: '/tags', value: ['a'] },
    ]);
  });
});

describe('filterForValue', () => {
  it('builds eq and ne filters of the value type', () => {
    expect(filterForValue('/http/status', 500, 'ne')).toEqual({
      ok: true,
      filter: { path: '/http/status', type: 'number', operator: 'ne', value: 500 },
    });
    expect(filterForValue('/ok', true, 'eq')).toMatchObject({ ok: true });
  });

  it('says why a value cannot be filtered', () => {
    expect(filterForValue('/x', null, 'eq').ok).toBe(false);
    expect(filterForValue('/x', 'y'.repeat(2000), 'eq')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('bytes') as string,
    });
  });
});
