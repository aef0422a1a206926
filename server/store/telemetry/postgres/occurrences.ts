import {
  OCCURRENCE_COLUMNS,
  toOccurrence,
  type OccurrenceDbRow,
} from '../../rows/occurrence-record';
import type { OccurrencesStore } from '../../../core/store/telemetry/occurrences';
import { afterCondition, param } from '../../postgres/where';
import { hourOf } from '../../../domain/issue-histogram';
import type { PgDb, Sql } from '../../postgres/pg-database';

/**
 * Adds stored occurrences to their issues' hours in `issue_occurrence_hours`, one statement
 * for the whole list (ingestion calls it inside its transaction with what it really stored).
 */
export async function countOccurrenceHours(
  sql: Sql,
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
  await sql.run(
    `INSERT INTO issue_occurrence_hours (issue_id, hour, occurrences)
     SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[])
     ON CONFLICT (issue_id, hour) DO UPDATE
       SET occurrences = issue_occurrence_hours.occurrences + excluded.occurrences`,
    [list.map((c) => c.issueId), list.map((c) => c.hour), list.map((c) => c.n)],
  );
}

/** Adds one stored occurrence to its issue's hour. */
export function countOccurrenceHour(sql: Sql, issueId: string, occurredAt: number): Promise<void> {
  return countOccurrenceHours(sql, [{ issueId, occurredAt }]);
}

export function pgOccurrences(db: PgDb): OccurrencesStore {
  return {
    async hours({ projectIds, issueIds, fromHour, toHour }) {
      if (projectIds.length === 0 || issueIds.length === 0) return { readable: [], hours: [] };
      const readable = (
        await db.rows<{ id: string }>(
          `SELECT id FROM issues WHERE id = ANY($1::text[]) AND project_id = ANY($2::text[])
           ORDER BY id`,
          [issueIds, projectIds],
        )
      ).map((r) => r.id);
      if (readable.length === 0) return { readable, hours: [] };
      const hours = await db.rows<{ issueId: string; hour: number; occurrences: number }>(
        `SELECT issue_id AS "issueId", hour, occurrences FROM issue_occurrence_hours
         WHERE issue_id = ANY($1::text[]) AND hour >= $2 AND hour < $3
         ORDER BY issue_id, hour`,
        [readable, fromHour, toHour],
      );
      return { readable, hours };
    },

    async list(issueId, after, limit) {
      const args: unknown[] = [issueId];
      const where = ['issue_id = $1'];
      afterCondition(after, 'occurred_at', 'id', where, args);
      const rows = await db.rows<OccurrenceDbRow>(
        `SELECT ${OCCURRENCE_COLUMNS} FROM issue_occurrences WHERE ${where.join(' AND ')}
         ORDER BY occurred_at DESC, id DESC LIMIT ${param(args, limit)}`,
        args,
      );
      return rows.map(toOccurrence);
    },
  };
}
