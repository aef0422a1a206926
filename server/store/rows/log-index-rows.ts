import type { IndexCoverage, IndexedAttributes } from '../../domain/attribute-index';
import type { AttributeType } from '../../domain/read-rules/attribute-filters';
import type { Severity } from '../../domain/severity';

const HOUR_MS = 3_600_000;

/** A log ready for the index: its row, time, captured severity and indexed leaves. */
export type LogToIndex = {
  seq: number;
  occurredAt: number;
  severity: Severity;
  indexed: IndexedAttributes;
};

/** One `log_attributes` row: path id, time, log row, key (folded string, number, 1/0), raw. */
export type LeafRow = {
  pathId: number;
  occurredAt: number;
  seq: number;
  key: string | number;
  raw: string | null;
};

/** What one batch adds to a `log_attribute_hours` row. */
export type PathHour = {
  hour: number;
  severity: Severity;
  pathId: number;
  observed: number;
  last: number;
};

/** What one batch adds to a `log_index_hours` row. */
export type CoverageHour = { hour: number; severity: Severity } & Record<IndexCoverage, number>;

/**
 * The index rows of a batch's stored logs: one leaf row per indexed scalar, and the hourly
 * rollups of paths and coverage. `pathId` gives the id of a path that already has one.
 * Leaves come in key order, so consecutive inserts land on the same index pages.
 */
export function logIndexRows(
  logs: readonly LogToIndex[],
  pathId: (path: string, type: AttributeType) => number | undefined,
): { leaves: LeafRow[]; pathHours: PathHour[]; coverageHours: CoverageHour[] } {
  const pathHours = new Map<string, PathHour>();
  const coverageHours = new Map<string, CoverageHour>();
  const leaves: LeafRow[] = [];
  for (const log of logs) {
    const hour = Math.floor(log.occurredAt / HOUR_MS);
    for (const leaf of log.indexed.leaves) {
      const id = pathId(leaf.path, leaf.type);
      if (id === undefined) throw new Error('path ids must exist before the index is written');
      leaves.push({
        pathId: id,
        occurredAt: log.occurredAt,
        seq: log.seq,
        key: leaf.key,
        raw: leaf.raw,
      });
      const k = `${String(hour)}|${log.severity}|${String(id)}`;
      const agg = pathHours.get(k);
      if (agg) {
        agg.observed += 1;
        agg.last = Math.max(agg.last, log.occurredAt);
      } else
        pathHours.set(k, {
          hour,
          severity: log.severity,
          pathId: id,
          observed: 1,
          last: log.occurredAt,
        });
    }
    const ck = `${String(hour)}|${log.severity}`;
    const cov = coverageHours.get(ck) ?? {
      hour,
      severity: log.severity,
      indexed: 0,
      partial: 0,
      unindexed: 0,
    };
    cov[log.indexed.coverage] += 1;
    coverageHours.set(ck, cov);
  }
  leaves.sort((a, b) => a.pathId - b.pathId || a.occurredAt - b.occurredAt || a.seq - b.seq);
  return { leaves, pathHours: [...pathHours.values()], coverageHours: [...coverageHours.values()] };
}
