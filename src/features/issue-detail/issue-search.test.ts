import { describe, expect, it } from 'vitest';
import {
  cursorText,
  issueSearchSchema,
  occurrenceOf,
  occurrenceSearch,
  parseCursorText,
} from './issue-search';

const cursor = { time: '2026-05-01T10:22:03.120Z', id: '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b' };

describe('the occurrence in the URL', () => {
  it('writes the service’s cursor as it is and reads it back', () => {
    expect(cursorText(cursor)).toBe(`2026-05-01T10:22:03.120Z_${cursor.id}`);
    expect(parseCursorText(cursorText(cursor))).toEqual(cursor);
    expect(parseCursorText('2026-05-01T10:22:03.120Z')).toBeNull();
    expect(parseCursorText(`yesterday_${cursor.id}`)).toBeNull();
    expect(parseCursorText('2026-05-01T10:22:03.120Z_not-an-id')).toBeNull();
  });

  it('reads the latest unless both the position and a valid cursor are given', () => {
    const read = (raw: Record<string, unknown>) => occurrenceOf(issueSearchSchema.parse(raw));
    expect(read({})).toEqual({ position: 1, cursor: null });
    expect(read({ occurrence: 3, before: cursorText(cursor) })).toEqual({ position: 3, cursor });
    expect(read({ occurrence: 3 })).toEqual({ position: 1, cursor: null });
    expect(read({ before: cursorText(cursor) })).toEqual({ position: 1, cursor: null });
    expect(read({ occurrence: 1, before: cursorText(cursor) })).toEqual({
      position: 1,
      cursor: null,
    });
    expect(read({ occurrence: 3, before: 'garbage' })).toEqual({ position: 1, cursor: null });
  });

  it('keeps the latest out of the URL', () => {
    expect(occurrenceSearch(1, null)).toEqual({ occurrence: undefined, before: undefined });
    expect(occurrenceSearch(4, cursor)).toEqual({ occurrence: 4, before: cursorText(cursor) });
  });
});
