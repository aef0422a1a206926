import { useQueries, type UseQueryResult } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { issuesQueries, type IssueHistograms } from '../../api/queries/issues';
import { histogramBatches } from './board';

export type BoardHistograms = {
  /** Counts per bucket by issue id; an issue whose histogram has not arrived is absent. */
  countsById: ReadonlyMap<string, readonly number[]>;
  bucketSeconds: number;
  /** The first failed batch, if any. */
  error: unknown;
};

const EMPTY: ReadonlyMap<string, readonly number[]> = new Map();

function combine(results: UseQueryResult<IssueHistograms>[]) {
  return {
    data: results.map((r) => r.data),
    error: results.find((r) => r.isError)?.error ?? null,
  };
}

/**
 * Occurrence histograms of the loaded issues, read in batches of 100 ids over the board's
 * range (`since` as one RFC3339 value, about 24 bars of whole hours).
 */
export function useIssueHistograms(ids: readonly string[], since: string): BoardHistograms {
  const batches = useMemo(() => histogramBatches(ids), [ids]);
  const { data, error } = useQueries({
    queries: batches.map((batch) => issuesQueries.histograms({ ids: batch, since })),
    combine,
  });
  const fresh = useMemo(() => {
    let bucketSeconds = 3600;
    const countsById = new Map<string, readonly number[]>();
    for (const answer of data) {
      if (!answer) continue;
      bucketSeconds = answer.bucket_seconds;
      for (const h of answer.issues) countsById.set(h.issue_id, h.counts);
    }
    return { countsById: countsById.size === 0 ? EMPTY : countsById, bucketSeconds, error };
  }, [data, error]);
  const complete = data.every((answer) => answer !== undefined);
  // Each re-read of the board moves `since`, which asks for new histograms: until they are
  // in, the ones read before stay, so the sparklines do not blink at every re-read.
  const [previous, setPrevious] = useState<BoardHistograms | null>(null);
  if (complete && previous !== fresh) setPrevious(fresh);
  return useMemo(() => {
    if (complete || previous === null) return fresh;
    const countsById = new Map(previous.countsById);
    for (const [id, counts] of fresh.countsById) countsById.set(id, counts);
    const bucketSeconds = fresh.countsById.size > 0 ? fresh.bucketSeconds : previous.bucketSeconds;
    return { countsById, bucketSeconds, error: fresh.error };
  }, [complete, fresh, previous]);
}
