import type { ActivityRecord, ActivityType } from '../../core/store/state/issues';

/** One activity entry a write records (first_seen is read from occurrences, never written). */
export type ActivityInsert = {
  type: Exclude<ActivityType, 'first_seen'>;
  value: string | null;
  assigneeAccountId: string | null;
  assigneeTeamId: string | null;
};

/** The activity entry of a severity rule set (`source` when removed) on an issue's key. */
export const severityRuleActivity = (severity: string | null): ActivityInsert => ({
  type: 'severity_rule',
  value: severity ?? 'source',
  assigneeAccountId: null,
  assigneeTeamId: null,
});

export type ActivityDbRow = {
  id: string;
  issue_id: string;
  project_id: string;
  type: ActivityType;
  value: string | null;
  actor_id: string | null;
  actor_name: string | null;
  actor_email: string | null;
  assignee_account_id: string | null;
  assignee_name: string | null;
  assignee_email: string | null;
  assignee_team_id: string | null;
  team_slug: string | null;
  team_name: string | null;
  at: number;
};

/** The people and team named by an activity row `x` (same SQL in both stores). */
export const ACTIVITY_COLUMNS = `x.id, x.issue_id, x.project_id, x.type, x.value, x.at,
  x.actor_id, ac.name AS actor_name, ac.email AS actor_email,
  x.assignee_account_id, aa.name AS assignee_name, aa.email AS assignee_email,
  x.assignee_team_id, tm.slug AS team_slug, tm.name AS team_name`;
export const ACTIVITY_JOINS = `LEFT JOIN accounts ac ON ac.id = x.actor_id
  LEFT JOIN accounts aa ON aa.id = x.assignee_account_id
  LEFT JOIN teams tm ON tm.id = x.assignee_team_id`;

const accountRef = (id: string | null, name: string | null, email: string | null) =>
  id === null ? null : { id, name, email: email ?? '' };

export const toActivity = (r: ActivityDbRow): ActivityRecord => ({
  id: r.id,
  issueId: r.issue_id,
  projectId: r.project_id,
  type: r.type,
  value: r.value,
  actor: accountRef(r.actor_id, r.actor_name, r.actor_email),
  assigneeUser: accountRef(r.assignee_account_id, r.assignee_name, r.assignee_email),
  assigneeTeam:
    r.assignee_team_id === null
      ? null
      : { id: r.assignee_team_id, slug: r.team_slug ?? '', name: r.team_name ?? '' },
  at: r.at,
});
