import { describe, expect, it } from 'vitest';
import { BUNDLE_LIMITS } from '../domain/investigation-bounds';
import { LIST_RESULT_MAX_CHARS, boundRecord, boundRows } from './bounded-rows';

describe('list tool rows, bounded like the bundles', () => {
  it('cuts a long text and deep attributes, and counts the cuts', () => {
    const row = {
      id: 'a',
      message: 'x'.repeat(5000),
      attributes: { long: 'y'.repeat(1000), keep: 1 },
    };
    const { rows, coverage } = boundRows([row], { limit: 10, nextCursor: null });
    const out = rows[0] as typeof row;
    expect(out.message).toHaveLength(BUNDLE_LIMITS.text_chars);
    expect(out.attributes.long).toHaveLength(BUNDLE_LIMITS.attribute_chars);
    expect(out.attributes.keep).toBe(1);
    expect(coverage).toMatchObject({ rows: 1, truncated_strings: 2, more: false });
  });

  it('leaves rows untouched when they fit, with the page cursor', () => {
    const rows = [{ id: 'a', message: 'short', attributes: { a: { b: true } } }];
    const cursor = { time: '2025-03-03T00:00:00.000Z', id: 'a' };
    const out = boundRows(rows, { limit: 1, nextCursor: cursor });
    expect(out.rows).toEqual(rows);
    expect(out.coverage).toMatchObject({ more: true, next_cursor: cursor, truncated_strings: 0 });
  });

  it('leaves rows out past the size bound and withholds the cursor that would skip them', () => {
    const rows = Array.from({ length: 400 }, (_, i) => ({
      id: String(i),
      message: 'm'.repeat(900),
    }));
    const out = boundRows(rows, { limit: 400, nextCursor: { time: 't', id: '399' } });
    expect(JSON.stringify(out.rows).length).toBeLessThanOrEqual(LIST_RESULT_MAX_CHARS);
    expect(out.coverage.rows_omitted_for_size).toBe(400 - out.rows.length);
    expect(out.coverage.rows_omitted_for_size).toBeGreaterThan(0);
    expect(out.coverage).toMatchObject({ more: true, next_cursor: null });
    expect(out.coverage.note).toMatch(/smaller limit/);
  });

  it('bounds one record the same way', () => {
    const { record, cut } = boundRecord({ title: 't', stack_trace: 's'.repeat(3000) });
    expect((record as { stack_trace: string }).stack_trace).toHaveLength(BUNDLE_LIMITS.text_chars);
    expect(cut).toEqual({ truncated_strings: 1, truncated_values: 0 });
  });
});
