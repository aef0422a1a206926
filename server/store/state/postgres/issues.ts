import type { Severity } from '../../../domain/severity';
import { severityRuleActivity, toActivity, type ActivityDbRow } from '../../rows/issue-activity';
import {
  ISSUE_FROM,
  ISSUE_RECORD_SELECT,
  inIdOrder,
  toIssueRecord,
  type IssueDbRow,
} from '../../rows/issue-record';
import { changesOf, type StoredTriage } from '../../rows/issue-triage-change';
import type {
  ChangeOutcome,
  IssueRecord,
  IssuesStore,
  TeamRef,
} from '../../../core/store/state/issues';
import { activityWriter } from '../../postgres/issue-activity-writer';
import type { PgDb, Sql } from '../../postgres/pg-database';
import { pgDialect } from '../../postgres/pg-sql';
import {
  activityStatement,
  issueListConditions,
  notificationsStatement,
  unreadNotificationsStatement,
} from '../../rows/issue-reads';
import { and, raw, sql } from '../../rows/sql';

/** Issue records by id, in the order of `ids` (unknown ids are left out). */
export async function issueRecordsByIds(db: Sql, ids: readonly string[]): Promise<IssueRecord[]> {
  if (ids.length === 0) return [];
  const rows = await db.rows<IssueDbRow>(
    sql`${raw(ISSUE_RECORD_SELECT)} WHERE i.id = ANY(${ids}::text[])`,
  );
  return inIdOrder(ids, rows).map(toIssueRecord);
}

type TriageRow = StoredTriage & { id: string };

export function pgIssues(db: PgDb): IssuesStore {
  return {
    async list(q) {
      if (q.projectIds.length === 0) return [];
      // Each project is read along its own (project_id, last_seen_at, id) index, up to a page
      // each, then the pages are merged: one sort of every match would read them all.
      const heads = await db.rows<{ id: string }>(
        sql`SELECT h.id FROM unnest(${q.projectIds}::text[]) AS p(id), LATERAL (
           SELECT i.id, i.last_seen_at FROM ${raw(ISSUE_FROM)}
           WHERE ${and([sql`i.project_id = p.id`, ...issueListConditions(q)])}
           ORDER BY i.last_seen_at DESC, i.id DESC LIMIT ${q.limit}
         ) h
         ORDER BY h.last_seen_at DESC, h.id DESC LIMIT ${q.limit}`,
      );
      return issueRecordsByIds(
        db,
        heads.map((h) => h.id),
      );
    },

    async byId(projectIds, id) {
      if (projectIds.length === 0) return null;
      const row = await db.one<IssueDbRow>(
        sql`${raw(ISSUE_RECORD_SELECT)} WHERE i.id = ${id} AND i.project_id = ANY(${projectIds}::text[])`,
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
      return db.tx(async (tx) => {
        // Rows locked in id order: two bulk changes (on any instances) over overlapping issues
        // wait for each other instead of deadlocking, and each reads what the other wrote.
        const locked =
          await tx.rows<TriageRow>(sql`SELECT id, status, priority, assignee_account_id, assignee_team_id FROM issues
           WHERE id = ANY(${c.issueIds}::text[]) AND project_id = ${c.projectId} ORDER BY id FOR UPDATE`);
        const current = new Map<string, StoredTriage>(locked.map((r) => [r.id, r]));
        const changed = new Map<string, StoredTriage>();
        const writeActivity = activityWriter(tx);
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
          await tx.run(sql`UPDATE issues SET status = n.status, priority = n.priority,
               assignee_account_id = n.assignee_account_id, assignee_team_id = n.assignee_team_id
             FROM unnest(${rows.map(([id]) => id)}::text[],
             ${rows.map(([, t]) => t.status)}::text[], ${rows.map(([, t]) => t.priority)}::text[],
             ${rows.map(([, t]) => t.assignee_account_id)}::text[],
             ${rows.map(([, t]) => t.assignee_team_id)}::text[])
               AS n(id, status, priority, assignee_account_id, assignee_team_id)
             WHERE issues.id = n.id`);
        }
        return outcomes;
      });
    },

    async setRule(c) {
      return db.tx(async (tx) => {
        // The issue row is locked so two rule changes of one grouping key take turns: only
        // the one that really changes the rule records activity.
        const fingerprint = (
          await tx.one<{ fingerprint: string }>(
            sql`SELECT fingerprint FROM issues WHERE id = ${c.issueId} AND project_id = ${c.projectId} FOR UPDATE`,
          )
        )?.fingerprint;
        if (fingerprint === undefined) return false;
        const current =
          (
            await tx.one<{ severity_override: Severity }>(
              sql`SELECT severity_override FROM issue_rules WHERE project_id = ${c.projectId} AND fingerprint = ${fingerprint}`,
            )
          )?.severity_override ?? null;
        if (current === c.severity) return false;
        if (c.severity === null)
          await tx.run(
            sql`DELETE FROM issue_rules WHERE project_id = ${c.projectId} AND fingerprint = ${fingerprint}`,
          );
        else
          await tx.run(sql`INSERT INTO issue_rules
               (project_id, fingerprint, severity_override, updated_at, updated_by)
             VALUES (${c.projectId}, ${fingerprint}, ${c.severity}, ${c.at}, ${c.actorId})
             ON CONFLICT (project_id, fingerprint) DO UPDATE SET
               severity_override = excluded.severity_override, updated_at = excluded.updated_at,
               updated_by = excluded.updated_by`);
        await activityWriter(tx)(
          c.issueId,
          c.projectId,
          severityRuleActivity(c.severity),
          c.actorId,
          c.at,
        );
        return true;
      });
    },

    async readersOf(projectId) {
      // lower() under the C collation folds ASCII only, as SQLite's NOCASE does.
      return db.rows<{
        id: string;
        name: string | null;
        email: string;
      }>(sql`SELECT a.id, a.name, a.email FROM projects p
         JOIN memberships m ON m.organization_id = p.organization_id
         JOIN accounts a ON a.id = m.account_id
         WHERE p.id = ${projectId} ORDER BY a.name IS NULL, lower(a.name), lower(a.email)`);
    },

    async teamsOf(organizationId) {
      return db.rows<TeamRef>(
        sql`SELECT id, slug,
        name FROM teams WHERE organization_id = ${organizationId} ORDER BY lower(name), slug`,
      );
    },

    async team(teamId) {
      const t = await db.one<TeamRef & { organization_id: string }>(
        sql`SELECT id, slug, name, organization_id FROM teams WHERE id = ${teamId}`,
      );
      return t ? { id: t.id, slug: t.slug, name: t.name, organizationId: t.organization_id } : null;
    },

    async activity(issueId, after, limit) {
      return (await db.rows<ActivityDbRow>(activityStatement(issueId, after, limit))).map(
        toActivity,
      );
    },

    async notifications({ accountId, projectIds, after, limit }) {
      const readAt =
        (
          await db.one<{ read_at: number }>(
            sql`SELECT read_at FROM issue_notification_marks WHERE account_id = ${accountId}`,
          )
        )?.read_at ?? null;
      if (projectIds.length === 0) return { notifications: [], unread: 0, readAt };
      const inProjects = pgDialect.anyOf('x.project_id', projectIds);
      const unread =
        (await db.one<{ n: number }>(unreadNotificationsStatement(accountId, inProjects, readAt)))
          ?.n ?? 0;
      const rows = await db.rows<ActivityDbRow & { issue_title: string }>(
        notificationsStatement({ accountId, inProjects, after, limit }),
      );
      return {
        notifications: rows.map((r) => ({ ...toActivity(r), issueTitle: r.issue_title })),
        unread,
        readAt,
      };
    },

    async markNotificationsRead(accountId, at) {
      // Never moves the mark back (another instance may have marked later already).
      const row = await db.one<{
        read_at: number;
      }>(sql`INSERT INTO issue_notification_marks (account_id, read_at) VALUES (${accountId}, ${at})
         ON CONFLICT (account_id) DO UPDATE
           SET read_at = GREATEST(issue_notification_marks.read_at, excluded.read_at)
         RETURNING read_at`);
      return row?.read_at ?? at;
    },
  };
}
