import type { Severity } from '../../../domain/severity';
import {
  ACTIVITY_COLUMNS,
  ACTIVITY_JOINS,
  toActivity,
  type ActivityDbRow,
} from '../../rows/issue-activity';
import {
  ASSIGNEE_CAN_READ,
  EFFECTIVE_PRIORITY,
  EFFECTIVE_SEVERITY,
  ISSUE_FROM,
  ISSUE_RECORD_SELECT,
  inIdOrder,
  toIssueRecord,
  type IssueDbRow,
} from '../../rows/issue-record';
import { changesOf, type StoredTriage } from '../../rows/issue-triage-change';
import type {
  ChangeOutcome,
  IssueListQuery,
  IssueRecord,
  IssuesStore,
  TeamRef,
} from '../../../core/store/state/issues';
import { activityWriter } from '../../postgres/issue-activity-writer';
import type { PgDb, Sql } from '../../postgres/pg-database';
import { afterCondition, param } from '../../postgres/where';

/** The list's filters on `i` (issues), `o` (latest occurrence) and `r` (rule), but the project. */
function listConditions(q: IssueListQuery, where: string[], args: unknown[]): void {
  if (q.since !== null) where.push(`i.last_seen_at >= ${param(args, q.since)}`);
  afterCondition(q.after, 'i.last_seen_at', 'i.id', where, args);
  if (q.status !== null) where.push(`i.status = ${param(args, q.status)}`);
  if (q.severity !== null) where.push(`${EFFECTIVE_SEVERITY} = ${param(args, q.severity)}`);
  if (q.priority !== null) where.push(`${EFFECTIVE_PRIORITY} = ${param(args, q.priority)}`);
  const exact: [string, string | null][] = [
    ['service_name', q.serviceName],
    ['release', q.release],
    ['environment', q.environment],
  ];
  for (const [column, value] of exact)
    if (value !== null) where.push(`o.${column} = ${param(args, value)}`);
  const a = q.assignee;
  if (a === null) return;
  switch (a.kind) {
    case 'none':
      // What reads show as no assignee: none stored, or an account that cannot read the project.
      where.push(
        `i.assignee_team_id IS NULL AND (i.assignee_account_id IS NULL OR NOT ${ASSIGNEE_CAN_READ})`,
      );
      break;
    case 'user':
      where.push(`i.assignee_account_id = ${param(args, a.accountId)} AND ${ASSIGNEE_CAN_READ}`);
      break;
    case 'team':
      where.push(`i.assignee_team_id = ${param(args, a.teamId)}`);
      break;
    case 'teams_of':
      where.push(
        `i.assignee_team_id IN (SELECT team_id FROM team_members WHERE account_id = ${param(args, a.accountId)})`,
      );
      break;
  }
}

/** Issue records by id, in the order of `ids` (unknown ids are left out). */
export async function issueRecordsByIds(sql: Sql, ids: readonly string[]): Promise<IssueRecord[]> {
  if (ids.length === 0) return [];
  const rows = await sql.rows<IssueDbRow>(`${ISSUE_RECORD_SELECT} WHERE i.id = ANY($1::text[])`, [
    ids,
  ]);
  return inIdOrder(ids, rows).map(toIssueRecord);
}

type TriageRow = StoredTriage & { id: string };

export function pgIssues(db: PgDb): IssuesStore {
  return {
    async list(q) {
      if (q.projectIds.length === 0) return [];
      const args: unknown[] = [q.projectIds];
      const where = ['i.project_id = p.id'];
      listConditions(q, where, args);
      const limit = param(args, q.limit);
      // Each project is read along its own (project_id, last_seen_at, id) index, up to a page
      // each, then the pages are merged: one sort of every match would read them all.
      const heads = await db.rows<{ id: string }>(
        `SELECT h.id FROM unnest($1::text[]) AS p(id), LATERAL (
           SELECT i.id, i.last_seen_at FROM ${ISSUE_FROM} WHERE ${where.join(' AND ')}
           ORDER BY i.last_seen_at DESC, i.id DESC LIMIT ${limit}
         ) h
         ORDER BY h.last_seen_at DESC, h.id DESC LIMIT ${limit}`,
        args,
      );
      return issueRecordsByIds(
        db,
        heads.map((h) => h.id),
      );
    },

    async byId(projectIds, id) {
      if (projectIds.length === 0) return null;
      const row = await db.one<IssueDbRow>(
        `${ISSUE_RECORD_SELECT} WHERE i.id = $1 AND i.project_id = ANY($2::text[])`,
        [id, projectIds],
      );
      return row ? toIssueRecord(row) : null;
    },

    async byIds(projectId, ids) {
      return (await issueRecordsByIds(db, ids)).filter((i) => i.projectId === projectId);
    },

    async records(ids) {
      return issueRecordsByIds(db, ids);
    },

    async change(c) {
      return db.tx(async (sql) => {
        // Rows locked in id order: two bulk changes (on any instances) over overlapping issues
        // wait for each other instead of deadlocking, and each reads what the other wrote.
        const locked = await sql.rows<TriageRow>(
          `SELECT id, status, priority, assignee_account_id, assignee_team_id FROM issues
           WHERE id = ANY($1::text[]) AND project_id = $2 ORDER BY id FOR UPDATE`,
          [c.issueIds, c.projectId],
        );
        const current = new Map<string, StoredTriage>(locked.map((r) => [r.id, r]));
        const changed = new Map<string, StoredTriage>();
        const writeActivity = activityWriter(sql);
        const outcomes: ChangeOutcome[] = [];
        // In request order, as SQLite applies them: a repeated id sees the first change.
        for (const id of c.issueIds) {
          const row = current.get(id);
          if (!row) {
            outcomes.push('not_found');
            continue;
          }
          const { next, entries } = changesOf(row, c);
          if (entries.length === 0) {
            outcomes.push('unchanged');
            continue;
          }
          current.set(id, next);
          changed.set(id, next);
          for (const e of entries) await writeActivity(id, c.projectId, e, c.actorId, c.at);
          outcomes.push('updated');
        }
        if (changed.size > 0) {
          const rows = [...changed].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
          await sql.run(
            `UPDATE issues SET status = n.status, priority = n.priority,
               assignee_account_id = n.assignee_account_id, assignee_team_id = n.assignee_team_id
             FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
               AS n(id, status, priority, assignee_account_id, assignee_team_id)
             WHERE issues.id = n.id`,
            [
              rows.map(([id]) => id),
              rows.map(([, t]) => t.status),
              rows.map(([, t]) => t.priority),
              rows.map(([, t]) => t.assignee_account_id),
              rows.map(([, t]) => t.assignee_team_id),
            ],
          );
        }
        return outcomes;
      });
    },

    async setRule(c) {
      return db.tx(async (sql) => {
        // The issue row is locked so two rule changes of one grouping key take turns: only
        // the one that really changes the rule records activity.
        const fingerprint = (
          await sql.one<{ fingerprint: string }>(
            'SELECT fingerprint FROM issues WHERE id = $1 AND project_id = $2 FOR UPDATE',
            [c.issueId, c.projectId],
          )
        )?.fingerprint;
        if (fingerprint === undefined) return false;
        const current =
          (
            await sql.one<{ severity_override: Severity }>(
              'SELECT severity_override FROM issue_rules WHERE project_id = $1 AND fingerprint = $2',
              [c.projectId, fingerprint],
            )
          )?.severity_override ?? null;
        if (current === c.severity) return false;
        if (c.severity === null)
          await sql.run('DELETE FROM issue_rules WHERE project_id = $1 AND fingerprint = $2', [
            c.projectId,
            fingerprint,
          ]);
        else
          await sql.run(
            `INSERT INTO issue_rules
               (project_id, fingerprint, severity_override, updated_at, updated_by)
             VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (project_id, fingerprint) DO UPDATE SET
               severity_override = excluded.severity_override, updated_at = excluded.updated_at,
               updated_by = excluded.updated_by`,
            [c.projectId, fingerprint, c.severity, c.at, c.actorId],
          );
        await activityWriter(sql)(
          c.issueId,
          c.projectId,
          {
            type: 'severity_rule',
            value: c.severity ?? 'source',
            assigneeAccountId: null,
            assigneeTeamId: null,
          },
          c.actorId,
          c.at,
        );
        return true;
      });
    },

    async readersOf(projectId) {
      // lower() under the C collation folds ASCII only, as SQLite's NOCASE does.
      return db.rows<{ id: string; name: string | null; email: string }>(
        `SELECT a.id, a.name, a.email FROM projects p
         JOIN memberships m ON m.organization_id = p.organization_id
         JOIN accounts a ON a.id = m.account_id
         WHERE p.id = $1 ORDER BY a.name IS NULL, lower(a.name), lower(a.email)`,
        [projectId],
      );
    },

    async teamsOf(organizationId) {
      return db.rows<TeamRef>(
        'SELECT id, slug, name FROM teams WHERE organization_id = $1 ORDER BY lower(name), slug',
        [organizationId],
      );
    },

    async team(teamId) {
      const t = await db.one<TeamRef & { organization_id: string }>(
        'SELECT id, slug, name, organization_id FROM teams WHERE id = $1',
        [teamId],
      );
      return t ? { id: t.id, slug: t.slug, name: t.name, organizationId: t.organization_id } : null;
    },

    async activity(issueId, after, limit) {
      const args: unknown[] = [issueId];
      const where: string[] = [];
      afterCondition(after, 'x.at', 'x.id', where, args);
      // The first_seen entry is the issue's first occurrence, read from its occurrences.
      const rows = await db.rows<ActivityDbRow>(
        `SELECT ${ACTIVITY_COLUMNS} FROM (
           SELECT id, issue_id, project_id, type, value, actor_id, assignee_account_id,
             assignee_team_id, at FROM issue_activity WHERE issue_id = $1
           UNION ALL
           (SELECT id, issue_id, project_id, 'first_seen', release, NULL, NULL, NULL, occurred_at
             FROM issue_occurrences WHERE issue_id = $1 ORDER BY occurred_at, id LIMIT 1)
         ) x ${ACTIVITY_JOINS}
         ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
         ORDER BY x.at DESC, x.id DESC LIMIT ${param(args, limit)}`,
        args,
      );
      return rows.map(toActivity);
    },

    async notifications({ accountId, projectIds, after, limit }) {
      const readAt =
        (
          await db.one<{ read_at: number }>(
            'SELECT read_at FROM issue_notification_marks WHERE account_id = $1',
            [accountId],
          )
        )?.read_at ?? null;
      if (projectIds.length === 0) return { notifications: [], unread: 0, readAt };
      const args: unknown[] = [accountId, projectIds];
      // The account's notifications among activity rows `x`.
      const where = [
        "x.type = 'assigned'",
        'x.project_id = ANY($2::text[])',
        `(x.assignee_account_id = $1 OR
          x.assignee_team_id IN (SELECT team_id FROM team_members WHERE account_id = $1))`,
        'x.actor_id IS NOT NULL AND x.actor_id <> $1',
      ];
      const countArgs = [...args];
      const countWhere = [...where];
      if (readAt !== null) countWhere.push(`x.at > ${param(countArgs, readAt)}`);
      const unread =
        (
          await db.one<{ n: number }>(
            `SELECT COUNT(*) AS n FROM issue_activity x WHERE ${countWhere.join(' AND ')}`,
            countArgs,
          )
        )?.n ?? 0;
      afterCondition(after, 'x.at', 'x.id', where, args);
      const rows = await db.rows<ActivityDbRow & { issue_title: string }>(
        `SELECT ${ACTIVITY_COLUMNS}, o.title AS issue_title FROM issue_activity x
         JOIN issues i ON i.id = x.issue_id
         JOIN issue_occurrences o ON o.seq = i.latest_occurrence_seq
         ${ACTIVITY_JOINS}
         WHERE ${where.join(' AND ')} ORDER BY x.at DESC, x.id DESC LIMIT ${param(args, limit)}`,
        args,
      );
      return {
        notifications: rows.map((r) => ({ ...toActivity(r), issueTitle: r.issue_title })),
        unread,
        readAt,
      };
    },

    async markNotificationsRead(accountId, at) {
      // Never moves the mark back (another instance may have marked later already).
      const row = await db.one<{ read_at: number }>(
        `INSERT INTO issue_notification_marks (account_id, read_at) VALUES ($1, $2)
         ON CONFLICT (account_id) DO UPDATE
           SET read_at = GREATEST(issue_notification_marks.read_at, excluded.read_at)
         RETURNING read_at`,
        [accountId, at],
      );
      return row?.read_at ?? at;
    },
  };
}
