import type { OccurrencesStore } from '../../core/store/telemetry/occurrences';
import { hourOf } from '../../domain/issue-histogram';
import type { PgDb, Sql } from './pg-database';
import { sql } from '../rows/sql';

/**
 * Adds stored occurrences to their issues' hours in `issue_occurrence_hours`, one statement
 * for the whole list (ingestion calls it inside its transaction with what it really stored).
 */
export async function countOccurrenceHours(
  tx: Sql,
  occurrences: readonly { issueId: string; occurredAt: number }[],
): Promise<void> {
  const cells = new Map<string, { issueId: string; hour: number; n: number }>();
  for (const o of occurrences) {
    const hour = hourOf(o.occurredAt);
    const key = `${o.issueId}|${String(hour)}`;
    const cell = cells.get(key);
    if (cell) cell.n += 1;
    else cells.set(key, { issueId: o.issueId, hour, n: 1 });
  }
  if (cells.size === 0) return;
  // In key order, so two transactions touching the same rows lock them in the same order.
  const list = [...cells.values()].sort((a, b) =>
    a.issueId < b.issueId ? -1 : a.issueId > b.issueId ? 1 : a.hour - b.hour,
  );
  await tx.run(sql`INSERT INTO issue_occurrence_hours (issue_id, hour, occurrences)
     SELECT * FROM unnest(${list.map((c) => c.issueId)}::text[],
     ${list.map((c) => c.hour)}::bigint[], ${list.map((c) => c.n)}::bigint[])
     ON CONFLICT (issue_id, hour) DO UPDATE
       SET occurrences = issue_occurrence_hours.occurrences + excluded.occurrences`);
}

/**
 * Per-hour occurrence counts of issue groups (`issue_occurrence_hours`, counted by the
 * transaction that stores or counts each occurrence), whichever engine keeps the occurrences.
 */
export function pgOccurrenceHours(db: PgDb): Pick<OccurrencesStore, 'hours'> {
  return {
    async hours({ projectIds, issueIds, fromHour, toHour }) {
      if (projectIds.length === 0 || issueIds.length === 0) return { readable: [], hours: [] };
      const readable = (
        await db.rows<{
          id: string;
        }>(sql`SELECT id FROM issues WHERE id = ANY(${issueIds}::text[]) AND project_id = ANY(${projectIds}::text[])
           ORDER BY id`)
      ).map((r) => r.id);
      if (readable.length === 0) return { readable, hours: [] };
      const hours = await db.rows<{
        issueId: string;
        hour: number;
        occurrences: number;
      }>(sql`SELECT issue_id AS "issueId", hour, occurrences FROM issue_occurrence_hours
         WHERE issue_id = ANY(${readable}::text[]) AND hour >= ${fromHour} AND hour < ${toHour}
         ORDER BY issue_id, hour`);
      return { readable, hours };
    },
  };
}
