import { randomUUID } from 'node:crypto';
import type { ActivityInsert } from '../rows/issue-activity';
import type { Sql } from './pg-database';
import { sql } from '../rows/sql';

/** Records activity entries through `sql` (also used by ingestion for a regression, with no actor). */
export function activityWriter(tx: Sql) {
  return async (
    issueId: string,
    projectId: string,
    e: ActivityInsert,
    actorId: string | null,
    at: number,
  ): Promise<void> => {
    await tx.run(sql`INSERT INTO issue_activity
         (id, issue_id, project_id, type, value, actor_id, assignee_account_id, assignee_team_id, at)
       VALUES (${randomUUID()}, ${issueId}, ${projectId}, ${e.type}, ${e.value}, ${actorId},
       ${e.assigneeAccountId}, ${e.assigneeTeamId}, ${at})`);
  };
}
