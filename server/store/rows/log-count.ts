import type { LogCountBucket, LogCountQuery, LogListQuery } from '../../core/store/telemetry/logs';

/** The range covering every bucket: [since, until) in epoch ms. */
export function bucketsRange(buckets: readonly LogCountBucket[]): { since: number; until: number } {
  return {
    since: Math.min(...buckets.map((b) => b.start)),
    until: Math.max(...buckets.map((b) => b.end)),
  };
}

/**
 * A count's filters as the list query whose range covers every bucket (no cursor, no size):
 * both engines narrow the read to it with the list's own conditions, then bucket the matches.
 */
export function countRange(q: LogCountQuery): LogListQuery {
  const { buckets, ...filters } = q;
  return {
    ...filters,
    ...bucketsRange(buckets),
    after: null,
    limit: 0,
  };
}

/** Counts per bucket index (0-based) as one count per bucket, in the buckets' order. */
export function countsByBucket(
  q: { buckets: readonly LogCountBucket[] },
  rows: readonly { bucket_index: number | string; n: number | string }[],
): number[] {
  const counts = q.buckets.map(() => 0);
  for (const r of rows) {
    const i = Number(r.bucket_index);
    counts[i] = (counts[i] ?? 0) + Number(r.n);
  }
  return counts;
}
