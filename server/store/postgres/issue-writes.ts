import { randomUUID } from 'node:crypto';
import { hourOf } from '../../domain/issue-histogram';
import type { ActivityInsert } from '../rows/issue-activity';
import {
  ISSUE_RECORD_SELECT,
  inIdOrder,
  toIssueRecord,
  type IssueDbRow,
} from '../rows/issue-record';
import type { IssueRecord } from '../store';
import type { Sql } from './pg-database';

/** Issue records by id, in the order of `ids` (unknown ids are left out). */
export async function issueRecordsByIds(sql: Sql, ids: readonly string[]): Promise<IssueRecord[]> {
  if (ids.length === 0) return [];
  const rows = await sql.rows<IssueDbRow>(`${ISSUE_RECORD_SELECT} WHERE i.id = ANY($1::text[])`, [
    ids,
  ]);
  return inIdOrder(ids, rows).map(toIssueRecord);
}

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

/** Records activity entries through `sql` (also used by ingestion for a regression, with no actor). */
export function activityWriter(sql: Sql) {
  return async (
    issueId: string,
    projectId: string,
    e: ActivityInsert,
    actorId: string | null,
    at: number,
  ): Promise<void> => {
    await sql.run(
      `INSERT INTO issue_activity
         (id, issue_id, project_id, type, value, actor_id, assignee_account_id, assignee_team_id, at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        randomUUID(),
        issueId,
        projectId,
        e.type,
        e.value,
        actorId,
        e.assigneeAccountId,
        e.assigneeTeamId,
        at,
      ],
    );
  };
}
