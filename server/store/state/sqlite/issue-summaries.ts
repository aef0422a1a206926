import type { Db } from '../../sqlite/database';
import type { IssueSummaries } from '../../../core/store/state/issue-summaries';

/**
 * Status and latest occurrence's title of issue groups, from the state store (which keeps each
 * group's latest occurrence beside it when the occurrences live in ClickHouse).
 */
export function sqliteIssueSummaries(db: Db): IssueSummaries {
  const one = db.prepare<[string], { status: string; title: string }>(
    `SELECT i.status, o.title FROM issues i
     JOIN issue_occurrences o ON o.seq = i.latest_occurrence_seq WHERE i.id = ?`,
  );
  return async (issueIds) => {
    const found = new Map<string, { status: string; title: string }>();
    for (const id of issueIds) {
      const row = one.get(id);
      if (row) found.set(id, row);
    }
    return found;
  };
}
