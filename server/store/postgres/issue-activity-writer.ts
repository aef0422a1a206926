import { randomUUID } from 'node:crypto';
import type { ActivityInsert } from '../rows/issue-activity';
import type { Sql } from './pg-database';

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
