import type { IssueSummaries } from '../../../core/store/state/issue-summaries';
import { sql, type SqlRunner } from '../../rows/sql';

/**
 * Status and latest occurrence's title of issue groups, from the state store (which keeps each
 * group's latest occurrence beside it when the occurrences live in ClickHouse): the same SQL
 * on both engines.
 */
export function sqlIssueSummaries(db: SqlRunner): IssueSummaries {
  return async (issueIds) => {
    const found = new Map<string, { status: string; title: string }>();
    for (const id of new Set(issueIds)) {
      const row = await db.one<{ status: string; title: string }>(
        sql`SELECT i.status, o.title FROM issues i
          JOIN issue_occurrences o ON o.seq = i.latest_occurrence_seq WHERE i.id = ${id}`,
      );
      if (row) found.set(id, row);
    }
    return found;
  };
}
