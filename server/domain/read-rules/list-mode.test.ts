import { describe, expect, it } from 'vitest';
import { TIME_ID_CURSOR, parseListMode, type CursorFamily } from './list-mode';

const ID = '11111111-1111-4111-8111-111111111111';
const T = '2025-03-03T08:00:00.000Z';

describe('parseListMode', () => {
  it('is a bare array by default and a page with pagination=cursor', () => {
    expect(parseListMode({}, TIME_ID_CURSOR)).toEqual({ mode: 'array' });
    expect(parseListMode({ pagination: 'cursor' }, TIME_ID_CURSOR)).toEqual({
      mode: 'cursor',
      after: null,
    });
    expect(
      parseListMode({ pagination: 'cursor', cursor_time: T, cursor_id: ID }, TIME_ID_CURSOR),
    ).toEqual({ mode: 'cursor', after: { time: Date.parse(T), cursor_id: ID } });
  });
  it('rejects other pagination values, orphan or incomplete cursors and bad values', () => {
    const bad = [
      { pagination: 'offset' },
      { pagination: '' },
      { cursor_time: T, cursor_id: ID },
      { pagination: 'cursor', cursor_time: T },
      { pagination: 'cursor', cursor_id: ID },
      { pagination: 'cursor', cursor_time: 'yesterday', cursor_id: ID },
      { pagination: 'cursor', cursor_time: T, cursor_id: 'nope' },
    ];
    for (const q of bad)
      expect(() => parseListMode(q, TIME_ID_CURSOR), JSON.stringify(q)).toThrow();
  });
  it('supports other families, with their own incomplete-set text and blank checks', () => {
    const releases: CursorFamily<'cursor_project_id' | 'cursor_release'> = {
      fields: ['cursor_project_id', 'cursor_release'],
      incomplete: 'all release cursor fields must be sent together',
    };
    expect(() => parseListMode({ pagination: 'cursor', cursor_time: T }, releases)).toThrow(
      'all release cursor fields must be sent together',
    );
    expect(() =>
      parseListMode(
        { pagination: 'cursor', cursor_time: T, cursor_project_id: ID, cursor_release: '' },
        releases,
      ),
    ).toThrow('cursor_release must not be blank');
  });
});
