import type { BatchWrite } from '../core/store/telemetry/telemetry-writes';

/** Writes batches to telemetry together: one insert per table for all of them. */
export type GroupWrite = (batches: readonly BatchWrite[]) => Promise<void>;

/**
 * Joins the writes of groups of any projects that wait while one is being written: every
 * group that arrives while a write is in flight goes into the next one, a single `write` of
 * all their batches (ClickHouse makes a part per insert and table, and its materialized views
 * one per view: many small mixed requests of several projects otherwise cost a dozen parts
 * each). Nothing is answered before its write is: each caller's promise settles with the
 * write that held its batches, the same error for every caller of a failed one (each then
 * takes its own batches back, by their ids, as a lone failed write would have it do).
 *
 * Rows keep their own batch's id and journal entry, so recovery and take-back stay per batch;
 * the insert token of a joined write is derived from all its batches' ids (telemetry-writes.ts).
 * A write holds at most `maxItems` items (at least one group), so the inserts stay a few MB.
 */
export function coalescedWrites(write: GroupWrite, maxItems = MAX_WRITE_ITEMS): GroupWrite {
  /** Writes waiting for the one in flight, in order of arrival. */
  const next: Joined[] = [];
  let writing = false;

  async function drain(): Promise<void> {
    writing = true;
    try {
      for (let joined = next.shift(); joined; joined = next.shift()) {
        const { batches, callers } = joined;
        try {
          await write(batches);
          for (const c of callers) c.resolve();
        } catch (e) {
          for (const c of callers) c.reject(e);
        }
      }
    } finally {
      writing = false;
    }
  }

  return (batches) =>
    new Promise<void>((resolve, reject) => {
      const items = batches.reduce((n, b) => n + itemsOf(b), 0);
      const last = next[next.length - 1];
      if (last && last.items + items <= maxItems) {
        last.batches.push(...batches);
        last.items += items;
        last.callers.push({ resolve, reject });
      } else next.push({ batches: [...batches], items, callers: [{ resolve, reject }] });
      if (!writing) void drain();
    });
}

/** The most items one joined write holds: two full groups (journaled-ingest.ts). */
const MAX_WRITE_ITEMS = 20_000;

type Joined = {
  batches: BatchWrite[];
  items: number;
  callers: { resolve(): void; reject(e: unknown): void }[];
};

const itemsOf = ({ items }: BatchWrite) =>
  items.issues.length +
  items.logs.length +
  items.spans.length +
  items.actions.length +
  items.metrics.length;
