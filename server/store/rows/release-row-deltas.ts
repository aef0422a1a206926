import type { Stream } from '../../domain/usage';

/** One stored item as the release and volume rollups see it. */
export type StoredItem = {
  stream: Stream;
  /** Event time: `occurred_at`, or a span's `started_at` (epoch ms). */
  at: number;
  release: string;
  environment: string;
  service_name: string;
  /** Bytes as usage counts them. */
  bytes: number;
  /** Issues: the group the occurrence joined. */
  issueId?: string;
  /** Spans: the trace, and whether this span failed. */
  traceId?: string;
  error?: boolean;
};

/** What one batch adds to a `release_rows` row, before its issues and traces are counted. */
export type ReleaseRowDelta = {
  release: string;
  environment: string;
  service_name: string;
  issues: number;
  logs: number;
  spans: number;
  actions: number;
  metrics: number;
  traces: number;
  error_traces: number;
  first: number;
  last: number;
  /** Issue groups that gained an occurrence in the row. */
  issueIds: Set<string>;
  /** Traces that gained a span in the row, and whether one of those spans failed. */
  traceErrors: Map<string, boolean>;
};

const COUNT_COLUMN: Record<Stream, 'logs' | 'spans' | 'actions' | 'metrics' | null> = {
  issues: null,
  logs: 'logs',
  traces: 'spans',
  actions: 'actions',
  metrics: 'metrics',
};

/**
 * The release rows a batch's stored items touch, with their counts. `issues`, `traces` and
 * `error_traces` start at 0: whether an issue or trace is new to a row depends on what is
 * stored, so each store adds those from `issueIds` and `traceErrors`.
 */
export function releaseRowDeltas(items: readonly StoredItem[]): ReleaseRowDelta[] {
  const rows = new Map<string, ReleaseRowDelta>();
  for (const it of items) {
    const key = [it.release, it.environment, it.service_name].join('\u0000');
    let row = rows.get(key);
    if (!row) {
      row = {
        release: it.release,
        environment: it.environment,
        service_name: it.service_name,
        issues: 0,
        logs: 0,
        spans: 0,
        actions: 0,
        metrics: 0,
        traces: 0,
        error_traces: 0,
        first: it.at,
        last: it.at,
        issueIds: new Set(),
        traceErrors: new Map(),
      };
      rows.set(key, row);
    }
    row.first = Math.min(row.first, it.at);
    row.last = Math.max(row.last, it.at);
    const column = COUNT_COLUMN[it.stream];
    if (column !== null) row[column] += 1;
    if (it.issueId !== undefined) row.issueIds.add(it.issueId);
    if (it.traceId !== undefined)
      row.traceErrors.set(
        it.traceId,
        (row.traceErrors.get(it.traceId) ?? false) || it.error === true,
      );
  }
  return [...rows.values()];
}
