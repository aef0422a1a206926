import { randomUUID } from 'node:crypto';
import type { ActivityInsert } from '../rows/issue-activity';
import type { Db } from './database';

/** Records one activity entry (also used by ingestion for a regression, with no actor). */
export function activityWriter(db: Db) {
  const insert = db.prepare(`INSERT INTO issue_activity
    (id, issue_id, project_id, type, value, actor_id, assignee_account_id, assignee_team_id, at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  return (
    issueId: string,
    projectId: string,
    e: ActivityInsert,
    actorId: string | null,
    at: number,
  ) =>
    insert.run(
      randomUUID(),
      issueId,
      projectId,
      e.type,
      e.value,
      actorId,
      e.assigneeAccountId,
      e.assigneeTeamId,
      at,
    );
}
