import { describe, expect, it } from 'vitest';
import { bucketIndexOf, historyBuckets, periodStart, type HistoryInterval } from './usage-history';

const t = (s: string) => Date.parse(s);
const iso = (ms: number) => new Date(ms).toISOString();
const starts = (interval: HistoryInterval, now: string) =>
  historyBuckets(interval, t(now)).map((b) => iso(b.start));

describe('historyBuckets', () => {
  it('daily: 30 days from 00:00 UTC, the last holding now, across a month end', () => {
    const b = historyBuckets('daily', t('2026-03-02T15:30:00Z'));
    expect(b).toHaveLength(30);
    expect(iso(b[29]!.start)).toBe('2026-03-02T00:00:00.000Z');
    expect(iso(b[29]!.end)).toBe('2026-03-03T00:00:00.000Z');
    expect(iso(b[0]!.start)).toBe('2026-02-01T00:00:00.000Z');
    // Contiguous: each bucket ends where the next starts.
    for (let i = 1; i < b.length; i++) expect(b[i]!.start).toBe(b[i - 1]!.end);
  });

  it('daily on 29 February of a leap year', () => {
    const s = starts('daily', '2028-02-29T23:59:59.999Z');
    expect(s[29]).toBe('2028-02-29T00:00:00.000Z');
    expect(s[28]).toBe('2028-02-28T00:00:00.000Z');
    expect(s[0]).toBe('2028-01-31T00:00:00.000Z');
  });

  it('weekly: 12 weeks starting Monday 00:00 UTC; a Sunday belongs to the week before it', () => {
    // 2026-11-22 is a Sunday.
    const sunday = historyBuckets('weekly', t('2026-11-22T23:00:00Z'));
    expect(sunday).toHaveLength(12);
    expect(iso(sunday[11]!.start)).toBe('2026-11-16T00:00:00.000Z');
    expect(iso(sunday[11]!.end)).toBe('2026-11-23T00:00:00.000Z');
    expect(iso(sunday[0]!.start)).toBe('2026-08-31T00:00:00.000Z');
    for (const b of sunday) expect(new Date(b.start).getUTCDay()).toBe(1);
  });

  it('weekly: Monday 00:00 starts a new week', () => {
    const s = starts('weekly', '2026-11-23T00:00:00.000Z');
    expect(s[11]).toBe('2026-11-23T00:00:00.000Z');
    expect(starts('weekly', '2026-11-22T23:59:59.999Z')[11]).toBe('2026-11-16T00:00:00.000Z');
  });

  it('weekly across a year end: 1 January 2027 is a Friday', () => {
    const s = starts('weekly', '2027-01-01T00:00:00Z');
    expect(s[11]).toBe('2026-12-28T00:00:00.000Z');
    expect(s[0]).toBe('2026-10-12T00:00:00.000Z');
  });

  it('monthly: 12 months from the 1st, across a year boundary', () => {
    const b = historyBuckets('monthly', t('2026-02-10T08:00:00Z'));
    expect(b).toHaveLength(12);
    expect(iso(b[0]!.start)).toBe('2025-03-01T00:00:00.000Z');
    expect(iso(b[10]!.start)).toBe('2026-01-01T00:00:00.000Z');
    expect(iso(b[11]!.start)).toBe('2026-02-01T00:00:00.000Z');
    expect(iso(b[11]!.end)).toBe('2026-03-01T00:00:00.000Z');
  });

  it('monthly on 1 January 00:00: the new year is the current bucket', () => {
    const s = starts('monthly', '2027-01-01T00:00:00Z');
    expect(s[11]).toBe('2027-01-01T00:00:00.000Z');
    expect(s[0]).toBe('2026-02-01T00:00:00.000Z');
  });

  it('monthly on 29 February', () => {
    const b = historyBuckets('monthly', t('2028-02-29T12:00:00Z'));
    expect(iso(b[11]!.start)).toBe('2028-02-01T00:00:00.000Z');
    expect(iso(b[11]!.end)).toBe('2028-03-01T00:00:00.000Z');
  });

  it('yearly: 5 years from 1 January', () => {
    expect(starts('yearly', '2026-11-22T10:00:00Z')).toEqual([
      '2022-01-01T00:00:00.000Z',
      '2023-01-01T00:00:00.000Z',
      '2024-01-01T00:00:00.000Z',
      '2025-01-01T00:00:00.000Z',
      '2026-01-01T00:00:00.000Z',
    ]);
    expect(starts('yearly', '2027-01-01T00:00:00Z')[4]).toBe('2027-01-01T00:00:00.000Z');
    expect(iso(historyBuckets('yearly', t('2026-12-31T23:59:59.999Z'))[4]!.end)).toBe(
      '2027-01-01T00:00:00.000Z',
    );
  });
});

describe('periodStart and bucketIndexOf', () => {
  it('starts periods at 00:00 UTC', () => {
    expect(iso(periodStart('daily', t('2026-11-22T23:59:59Z')))).toBe('2026-11-22T00:00:00.000Z');
    expect(iso(periodStart('weekly', t('2026-11-24T05:00:00Z')))).toBe('2026-11-23T00:00:00.000Z');
  });

  it('finds the bucket holding a time, -1 outside the window', () => {
    const b = historyBuckets('monthly', t('2026-11-22T10:00:00Z'));
    expect(bucketIndexOf(b, t('2026-11-01T00:00:00Z'))).toBe(11);
    expect(bucketIndexOf(b, t('2026-10-31T23:59:59.999Z'))).toBe(10);
    expect(bucketIndexOf(b, t('2025-12-01T00:00:00Z'))).toBe(0);
    expect(bucketIndexOf(b, t('2025-11-30T00:00:00Z'))).toBe(-1);
    expect(bucketIndexOf(b, t('2026-12-01T00:00:00Z'))).toBe(-1);
  });
});
