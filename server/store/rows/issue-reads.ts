import type { IssueListQuery } from '../../core/store/state/issues';
import { afterConditions, exactConditions } from './conditions';
import { ACTIVITY_COLUMNS, ACTIVITY_JOINS } from './issue-activity';
import { ASSIGNEE_CAN_READ, EFFECTIVE_PRIORITY, EFFECTIVE_SEVERITY } from './issue-record';
import { and, raw, sql, where, type SqlFragment } from './sql';

/**
 * The issue list's filters on `i` (issues), `o` (latest occurrence) and `r` (rule), but the
 * project, which each engine reads along its own index.
 */
export function issueListConditions(q: IssueListQuery): SqlFragment[] {
  const conditions: SqlFragment[] = [];
  if (q.since !== null) conditions.push(sql`i.last_seen_at >= ${q.since}`);
  conditions.push(...afterConditions(q.after, 'i.last_seen_at', 'i.id'));
  if (q.status !== null) conditions.push(sql`i.status = ${q.status}`);
  if (q.severity !== null) conditions.push(sql`${raw(EFFECTIVE_SEVERITY)} = ${q.severity}`);
  if (q.priority !== null) conditions.push(sql`${raw(EFFECTIVE_PRIORITY)} = ${q.priority}`);
  conditions.push(
    ...exactConditions([
      ['o.service_name', q.serviceName],
      ['o.release', q.release],
      ['o.environment', q.environment],
    ]),
  );
  const a = q.assignee;
  if (a === null) return conditions;
  switch (a.kind) {
    case 'none':
      // What reads show as no assignee: none stored, or an account that cannot read the project.
      conditions.push(
        sql`i.assignee_team_id IS NULL AND (i.assignee_account_id IS NULL OR NOT ${raw(ASSIGNEE_CAN_READ)})`,
      );
      break;
    case 'user':
      conditions.push(sql`i.assignee_account_id = ${a.accountId} AND ${raw(ASSIGNEE_CAN_READ)}`);
      break;
    case 'team':
      conditions.push(sql`i.assignee_team_id = ${a.teamId}`);
      break;
    case 'teams_of':
      conditions.push(
        sql`i.assignee_team_id IN (SELECT team_id FROM team_members WHERE account_id = ${a.accountId})`,
      );
      break;
  }
  return conditions;
}

/**
 * An issue's activity, newest first by (at, id), strictly after `after`. The first_seen entry
 * is the issue's first occurrence, read from its occurrences.
 */
export const activityStatement = (
  issueId: string,
  after: { time: number; id: string } | null,
  limit: number,
): SqlFragment => sql`SELECT ${raw(ACTIVITY_COLUMNS)} FROM (
    SELECT id, issue_id, project_id, type, value, actor_id, assignee_account_id,
      assignee_team_id, at FROM issue_activity WHERE issue_id = ${issueId}
    UNION ALL
    SELECT * FROM (SELECT id, issue_id, project_id, 'first_seen', release, NULL, NULL,
      NULL, occurred_at FROM issue_occurrences WHERE issue_id = ${issueId}
      ORDER BY occurred_at, id LIMIT 1) first_seen
  ) x ${raw(ACTIVITY_JOINS)}
  ${where(afterConditions(after, 'x.at', 'x.id'))}
  ORDER BY x.at DESC, x.id DESC LIMIT ${limit}`;

/** The account's notifications among activity rows `x` in the projects `inProjects` names. */
const notificationConditions = (accountId: string, inProjects: SqlFragment): SqlFragment[] => [
  sql`x.type = 'assigned'`,
  inProjects,
  sql`(x.assignee_account_id = ${accountId} OR
    x.assignee_team_id IN (SELECT team_id FROM team_members WHERE account_id = ${accountId}))`,
  sql`x.actor_id IS NOT NULL AND x.actor_id <> ${accountId}`,
];

/** How many of the account's notifications came after its read mark (all without one). */
export const unreadNotificationsStatement = (
  accountId: string,
  inProjects: SqlFragment,
  readAt: number | null,
): SqlFragment => {
  const conditions = notificationConditions(accountId, inProjects);
  if (readAt !== null) conditions.push(sql`x.at > ${readAt}`);
  return sql`SELECT COUNT(*) AS n FROM issue_activity x WHERE ${and(conditions)}`;
};

/** A page of the account's notifications with their issues' titles, newest first. */
export const notificationsStatement = (q: {
  accountId: string;
  inProjects: SqlFragment;
  after: { time: number; id: string } | null;
  limit: number;
}): SqlFragment => sql`SELECT ${raw(ACTIVITY_COLUMNS)}, o.title AS issue_title
  FROM issue_activity x
  JOIN issues i ON i.id = x.issue_id
  JOIN issue_occurrences o ON o.seq = i.latest_occurrence_seq
  ${raw(ACTIVITY_JOINS)}
  WHERE ${and([
    ...notificationConditions(q.accountId, q.inProjects),
    ...afterConditions(q.after, 'x.at', 'x.id'),
  ])}
  ORDER BY x.at DESC, x.id DESC LIMIT ${q.limit}`;
