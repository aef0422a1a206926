import { emptyUsage, type Stream, type UsageByStream } from '../../domain/usage';
import type { Batch, Context, DroppedReport } from '../../core/batch';
import type { AcceptResult, NewItems } from '../../core/store/telemetry/ingest';
import type { StoredItem } from './release-row-deltas';

/**
 * What both stores do with the items of a batch they really stored (after skipping ids
 * already accepted): usage bytes, the list the usage counters and rollups are written from,
 * the contexts to remember and the drop report to count.
 */

export type { NewItems };

const bytesOf = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

/** Only the context fields of an item (rollup rows are keyed on them). */
const contextOf = (c: Context): Context => ({
  release: c.release,
  environment: c.environment,
  service_name: c.service_name,
});

/**
 * Every stored item once, with its bytes as usage counts them: the usage counters and the
 * release and volume rollups are written from this one list.
 */
export function storedItems(n: NewItems): StoredItem[] {
  const items: StoredItem[] = [];
  const item = (stream: Stream, at: number, ctx: Context, bytes: number) => {
    const one: StoredItem = { stream, at, ...contextOf(ctx), bytes };
    items.push(one);
    return one;
  };
  n.issues.forEach((i, k) => {
    const stored = item(
      'issues',
      i.occurredAt,
      i,
      bytesOf([i.title, i.message, i.stackTrace, i.attributes, i.breadcrumbs]),
    );
    stored.issueId = n.issueGroups[k];
  });
  for (const l of n.logs) item('logs', l.occurredAt, l, l.bytes);
  for (const sp of n.spans) {
    const stored = item('traces', sp.startedAt, sp, bytesOf([sp.name, sp.attributes, sp.events]));
    stored.traceId = sp.traceId;
    stored.error = sp.status === 'error';
  }
  for (const a of n.actions) item('actions', a.occurredAt, a, bytesOf([a.name, a.properties]));
  for (const m of n.metrics) item('metrics', m.occurredAt, m, m.bytes);
  return items;
}

/** Events and bytes the stored items add to usage, per stream. */
export function usageAdded(items: readonly StoredItem[]): UsageByStream {
  const added = emptyUsage();
  for (const it of items) {
    added[it.stream].events += 1;
    added[it.stream].bytes += it.bytes;
  }
  return added;
}

/** The distinct contexts of the stored items, in the order first seen. */
export function contextsOf(items: readonly StoredItem[]): Context[] {
  const seen = new Map<string, Context>();
  for (const it of items) {
    const key = [it.release, it.environment, it.service_name].join('\u0000');
    if (!seen.has(key)) seen.set(key, contextOf(it));
  }
  return [...seen.values()];
}

/**
 * The drop report to count with a batch: none when the batch stored nothing new (a re-sent
 * batch is not counted again, so retrying keeps the report exactly once), else summed per
 * reason.
 */
export function droppedToCount(
  dropped: readonly DroppedReport[] | undefined,
  storedCount: number,
): DroppedReport[] {
  if (storedCount === 0) return [];
  const byReason = new Map<string, number>();
  for (const d of dropped ?? []) byReason.set(d.reason, (byReason.get(d.reason) ?? 0) + d.events);
  return [...byReason].map(([reason, events]) => ({ reason, events }));
}

const itemsOf = (b: Omit<NewItems, 'issueGroups'>) =>
  b.issues.length + b.logs.length + b.spans.length + b.actions.length + b.metrics.length;

/**
 * What `accept` answers once `stored` (the new items of `batch`, each group in `issueGroups`)
 * is written: per-stream counts, how many were accepted before, and the groups that grew.
 */
export function acceptResult(
  batch: Batch,
  stored: NewItems,
  contextUpdated: boolean,
): AcceptResult {
  const { issues, logs, spans, actions, metrics } = stored;
  return {
    counts: {
      issues: issues.length,
      logs: logs.length,
      trace_spans: spans.length,
      actions: actions.length,
      metrics: metrics.length,
    },
    alreadyAccepted: itemsOf(batch) - itemsOf(stored),
    contextUpdated,
    stored: { projectId: batch.projectId, issues, logs, spans, actions, metrics },
    issueIds: [...new Set(stored.issueGroups)],
  };
}
