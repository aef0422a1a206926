import { describe, expect, it } from 'vitest';
import { isNewSince, readMarkFor, unreadShown } from './inbox-marks';

const at = (s: number) => new Date(Date.UTC(2026, 0, 5, 10, 0, s)).toISOString();

describe('isNewSince', () => {
  it('is new only when strictly later than the read mark', () => {
    expect(isNewSince(at(10), at(9))).toBe(true);
    expect(isNewSince(at(10), at(10))).toBe(false);
    expect(isNewSince(at(10), at(11))).toBe(false);
  });

  it('compares instants, not text', () => {
    expect(isNewSince('2026-01-05T10:00:10.001Z', '2026-01-05T11:00:10+01:00')).toBe(true);
    expect(isNewSince('2026-01-05T10:00:10Z', '2026-01-05T10:00:10.000Z')).toBe(false);
  });

  it('is new when nothing was ever read', () => {
    expect(isNewSince(at(1), null)).toBe(true);
  });
});

describe('readMarkFor', () => {
  const shown = [{ at: at(30) }, { at: at(20) }, { at: at(10) }];

  it('moves the mark to the newest notification shown, never to "now"', () => {
    expect(readMarkFor(shown, at(15), 2)).toBe(at(30));
    expect(readMarkFor(shown, null, 3)).toBe(at(30));
  });

  it('leaves the mark when nothing shown is unread', () => {
    expect(readMarkFor(shown, at(30), 0)).toBeNull();
    expect(readMarkFor([], null, 0)).toBeNull();
  });

  it('leaves the mark while unread notifications are on a page not shown', () => {
    expect(unreadShown(shown, at(5))).toBe(3);
    expect(readMarkFor(shown, at(5), 4)).toBeNull();
  });
});
