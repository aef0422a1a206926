import { describe, expect, it } from 'vitest';
import { lastTenthRate, mergeStoreRuns, type StoreRun } from './store-comparison';

const run = (store: StoreRun['store'], logs: number, eventsPerSecond: number): StoreRun => ({
  store,
  logs,
  measured_at: '2026-11-23T06:00:00.000Z',
  seed_seconds: logs / eventsPerSecond,
  ingest_events_per_second: eventsPerSecond,
  cases: [],
});

describe('store comparison results', () => {
  it('keeps the 1M runs when only 10M is measured again, and replaces a rerun of the same size', () => {
    const earlier = [run('sqlite', 1e6, 1600), run('postgres', 1e6, 1700), run('sqlite', 1e7, 900)];
    const merged = mergeStoreRuns(earlier, [run('sqlite', 1e7, 1500), run('postgres', 1e7, 1400)]);
    expect(merged.map((r) => [r.store, r.logs, r.ingest_events_per_second])).toEqual([
      ['postgres', 1e6, 1700],
      ['sqlite', 1e6, 1600],
      ['postgres', 1e7, 1400],
      ['sqlite', 1e7, 1500],
    ]);
  });

  it('keeps a backfill run beside a live run of the same store and size', () => {
    const live = { ...run('postgres', 1e7, 2500), arrival: 'live' as const };
    const merged = mergeStoreRuns([run('postgres', 1e7, 900)], [live]);
    expect(merged.map((r) => [r.arrival ?? 'backfill', r.ingest_events_per_second])).toEqual([
      ['backfill', 900],
      ['live', 2500],
    ]);
    const again = { ...live, ingest_events_per_second: 2600 };
    expect(mergeStoreRuns(merged, [again]).map((r) => r.ingest_events_per_second)).toEqual([
      900, 2600,
    ]);
  });

  it('rates the last tenth of a seed by the logs and seconds after it began', () => {
    // 10,000 batches of 1,000: the last tenth began at batch 9,000 after 6,000 s.
    const at = { batches: 9_000, seconds: 6_000 };
    expect(
      lastTenthRate(10_000_000, { batches_done: 10_000, seconds: 8_000, last_tenth_from: at }),
    ).toBe(500);
    // A seed that has not reached its last tenth, or spent no time in it, has no rate.
    expect(lastTenthRate(10_000_000, { batches_done: 5_000, seconds: 3_000 })).toBeUndefined();
    expect(
      lastTenthRate(10_000_000, { batches_done: 9_000, seconds: 6_000, last_tenth_from: at }),
    ).toBeUndefined();
    // A total that is not whole batches counts only the logs really sent.
    expect(
      lastTenthRate(1_500, {
        batches_done: 2,
        seconds: 2,
        last_tenth_from: { batches: 1, seconds: 1 },
      }),
    ).toBe(500);
  });
});
