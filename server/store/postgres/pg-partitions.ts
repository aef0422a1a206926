import type { Sql } from './pg-database';
import { sql, raw } from '../rows/sql';

/** The tables partitioned by month of their event time. */
export type PartitionedTable =
  'logs' | 'log_attributes' | 'issue_occurrences' | 'spans' | 'actions' | 'metric_samples';

/** UTC month containing `at`: [start, end) in epoch ms, and its suffix `y2025m03`. */
export function monthOf(at: number): { start: number; end: number; suffix: string } {
  const d = new Date(at);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const start = Date.UTC(y, m, 1);
  const end = Date.UTC(y, m + 1, 1);
  const yy = y < 0 ? `n${String(-y)}` : String(y).padStart(4, '0');
  return { start, end, suffix: `y${yy}m${String(m + 1).padStart(2, '0')}` };
}

// Partitions this process knows exist, per search path (tests run many schemas in one process).
const known = new Map<string, Set<string>>();

/**
 * Makes sure every month the given times fall in has a partition of `table`. Creating one
 * takes a lock on the parent, so it runs in its own short statement before the batch's
 * transaction; another instance creating the same month at once is not an error.
 */
export async function ensurePartitions(
  tx: Sql,
  scope: string,
  table: PartitionedTable,
  times: Iterable<number>,
): Promise<void> {
  let seen = known.get(scope);
  if (!seen) known.set(scope, (seen = new Set()));
  const months = new Map<string, { start: number; end: number }>();
  for (const t of times) {
    const m = monthOf(t);
    const name = `${table}_${m.suffix}`;
    if (!seen.has(name)) months.set(name, m);
  }
  for (const [name, m] of months) {
    try {
      await tx.run(sql`CREATE TABLE IF NOT EXISTS ${raw(name)} PARTITION OF ${raw(table)}
         FOR VALUES FROM (${raw(String(m.start))}) TO (${raw(String(m.end))})`);
    } catch (err) {
      // 42P07 duplicate table / 23505 duplicate type name: another instance won the race.
      const code = (err as { code?: string }).code;
      if (code !== '42P07' && code !== '23505') throw err;
    }
    seen.add(name);
  }
}

/** Forgets what this process knew about a schema's partitions (after it is dropped). */
export function forgetPartitions(scope: string): void {
  known.delete(scope);
}

/**
 * Drops every whole month of telemetry that ended before `before` (retention). Rows of
 * `telemetry_ids` for those months go too, so their ids could be accepted again.
 */
export async function dropPartitionsBefore(tx: Sql, before: number): Promise<string[]> {
  const rows = await tx.rows<{
    name: string;
    parent: string;
  }>(sql`SELECT c.relname AS name, p.relname AS parent
       FROM pg_inherits i
       JOIN pg_class c ON c.oid = i.inhrelid
       JOIN pg_class p ON p.oid = i.inhparent
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema()`);
  const dropped: string[] = [];
  let cutoff = -Infinity;
  for (const r of rows) {
    const m = /_y(n?\d+)m(\d\d)$/.exec(r.name);
    if (!m?.[1] || !m[2]) continue;
    const year = m[1].startsWith('n') ? -Number(m[1].slice(1)) : Number(m[1]);
    const end = Date.UTC(year, Number(m[2]), 1);
    if (end > before) continue;
    await tx.run(sql`DROP TABLE ${raw(r.name)}`);
    dropped.push(r.name);
    cutoff = Math.max(cutoff, end);
  }
  if (dropped.length > 0) {
    await tx.run(sql`DELETE FROM telemetry_ids WHERE occurred_at < ${cutoff}`);
  }
  return dropped;
}
