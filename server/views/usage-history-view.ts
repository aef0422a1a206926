import { bucketIndexOf, type HistoryBucket } from '../domain/usage-history';
import type { DailyUsageRow } from '../core/store/state/usage';
import { usageRows } from './account-usage-view';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Usage history buckets, zero-filled, oldest first. Counters are kept per UTC day and every
 * bucket starts at 00:00 UTC, so a day's counter falls wholly into one bucket.
 */
export function historyBucketViews(
  buckets: readonly HistoryBucket[],
  ownedProjects: readonly string[],
  daily: readonly DailyUsageRow[],
) {
  const perBucket: DailyUsageRow[][] = buckets.map(() => []);
  for (const r of daily) {
    const i = bucketIndexOf(buckets, r.day);
    if (i >= 0) perBucket[i]?.push(r);
  }
  return buckets.map((b, i) => {
    const rows = usageRows(ownedProjects, perBucket[i] ?? []);
    const totals = rows.by_stream.reduce(
      (t, s) => ({ events: t.events + s.events, bytes: t.bytes + s.bytes }),
      { events: 0, bytes: 0 },
    );
    return {
      period_start: iso(b.start),
      period_end: iso(b.end),
      usage: { ...totals, projects: rows.projectsWithUsage },
      by_project: rows.by_project,
      by_stream: rows.by_stream,
    };
  });
}
