import type { IssueStatus, Priority } from '../../domain/issue-triage';
import type { AssigneeTarget } from '../../core/store/state/issues';
import type { ActivityInsert } from './issue-activity';

/** An issue's triage as stored. */
export type StoredTriage = {
  status: IssueStatus;
  priority: Priority | null;
  assignee_account_id: string | null;
  assignee_team_id: string | null;
};

/** The activity entries a change makes to one issue's stored triage (none: unchanged). */
export function changesOf(
  row: StoredTriage,
  change: { status?: IssueStatus; priority?: Priority; assignee?: AssigneeTarget | null },
): { next: StoredTriage; entries: ActivityInsert[] } {
  const next = { ...row };
  const entries: ActivityInsert[] = [];
  const none = { assigneeAccountId: null, assigneeTeamId: null };
  if (change.status !== undefined && change.status !== row.status) {
    next.status = change.status;
    entries.push({ type: 'status', value: change.status, ...none });
  }
  if (change.priority !== undefined && change.priority !== row.priority) {
    next.priority = change.priority;
    entries.push({ type: 'priority', value: change.priority, ...none });
  }
  if (change.assignee !== undefined) {
    const a = change.assignee;
    const account = a?.type === 'user' ? a.accountId : null;
    const team = a?.type === 'team' ? a.teamId : null;
    if (account !== row.assignee_account_id || team !== row.assignee_team_id) {
      next.assignee_account_id = account;
      next.assignee_team_id = team;
      if (a === null) {
        // Unassigned names whom the issue was taken from.
        entries.push({
          type: 'unassigned',
          value: row.assignee_account_id !== null ? 'user' : 'team',
          assigneeAccountId: row.assignee_account_id,
          assigneeTeamId: row.assignee_team_id,
        });
      } else {
        entries.push({
          type: 'assigned',
          value: a.type,
          assigneeAccountId: account,
          assigneeTeamId: team,
        });
      }
    }
  }
  return { next, entries };
}
