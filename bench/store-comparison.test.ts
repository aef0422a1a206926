import { describe, expect, it } from 'vitest';
import { mergeStoreRuns, type StoreRun } from './store-comparison';

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
});
