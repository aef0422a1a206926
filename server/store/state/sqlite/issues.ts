import type { Severity } from '../../../domain/severity';
import type { Db } from '../../sqlite/database';
import { activityWriter } from '../../sqlite/issue-activity-writer';
import { allRows, firstRow, placeholders, sqliteDialect } from '../../sqlite/sqlite-sql';
import {
  activityStatement,
  issueListConditions,
  notificationsStatement,
  unreadNotificationsStatement,
} from '../../rows/issue-reads';
import { and, raw, sql } from '../../rows/sql';
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
  IssueListQuery,
  IssueRecord,
  IssuesStore,
  TeamRef,
} from '../../../core/store/state/issues';

/** Issue records by id, in the order of `ids` (unknown ids are left out). */
export function issueRecordsByIds(db: Db, ids: readonly string[]): IssueRecord[] {
  if (ids.length === 0) return [];
  const rows = db
    .prepare<unknown[], IssueDbRow>(
      `${ISSUE_RECORD_SELECT} WHERE i.id IN (${placeholders(ids.length)})`,
    )
    .all(...ids);
  return inIdOrder(ids, rows).map(toIssueRecord);
}

type Head = { id: string; last_seen_at: number };

const newestFirst = (a: Head, b: Head) =>
  b.last_seen_at - a.last_seen_at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

export function sqliteIssues(db: Db): IssuesStore {
  const s = {
    triageOf: db.prepare<[string, string], StoredTriage>(
      `SELECT status, priority, assignee_account_id, assignee_team_id FROM issues
       WHERE id = ? AND project_id = ?`,
    ),
    setTriage: db.prepare(`UPDATE issues SET status = @status, priority = @priority,
      assignee_account_id = @assignee_account_id, assignee_team_id = @assignee_team_id
      WHERE id = @id`),
    fingerprintOf: db.prepare<[string, string], { fingerprint: string }>(
      'SELECT fingerprint FROM issues WHERE id = ? AND project_id = ?',
    ),
    ruleOf: db.prepare<[string, string], { severity_override: Severity }>(
      'SELECT severity_override FROM issue_rules WHERE project_id = ? AND fingerprint = ?',
    ),
    upsertRule: db.prepare(`INSERT INTO issue_rules
      (project_id, fingerprint, severity_override, updated_at, updated_by) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (project_id, fingerprint) DO UPDATE SET
        severity_override = excluded.severity_override, updated_at = excluded.updated_at,
        updated_by = excluded.updated_by`),
    deleteRule: db.prepare('DELETE FROM issue_rules WHERE project_id = ? AND fingerprint = ?'),
    readers: db.prepare<[string], { id: string; name: string | null; email: string }>(
      `SELECT a.id, a.name, a.email FROM projects p
       JOIN memberships m ON m.organization_id = p.organization_id
       JOIN accounts a ON a.id = m.account_id
       WHERE p.id = ? ORDER BY a.name IS NULL, a.name COLLATE NOCASE, a.email COLLATE NOCASE`,
    ),
    teams: db.prepare<[string], TeamRef>(
      'SELECT id, slug, name FROM teams WHERE organization_id = ? ORDER BY name COLLATE NOCASE, slug',
    ),
    team: db.prepare<[string], TeamRef & { organization_id: string }>(
      'SELECT id, slug, name, organization_id FROM teams WHERE id = ?',
    ),
    readMark: db.prepare<[string], { read_at: number }>(
      'SELECT read_at FROM issue_notification_marks WHERE account_id = ?',
    ),
    markRead: db.prepare(`INSERT INTO issue_notification_marks (account_id, read_at) VALUES (?, ?)
      ON CONFLICT (account_id) DO UPDATE SET read_at = MAX(read_at, excluded.read_at)`),
  };
  const writeActivity = activityWriter(db);

  /**
   * Up to `limit` matching issues of one project, newest first, along the project's
   * (last_seen_at, id) index: a page stops after `limit` rows instead of sorting every match.
   */
  function headsOf(projectId: string, q: IssueListQuery): Head[] {
    return allRows<Head>(
      db,
      sql`SELECT i.id, i.last_seen_at FROM ${raw(ISSUE_FROM)}
        WHERE ${and([sql`i.project_id = ${projectId}`, ...issueListConditions(q)])}
        ORDER BY i.last_seen_at DESC, i.id DESC LIMIT ${q.limit}`,
    );
  }

  const changeTx = db.transaction((c: Parameters<IssuesStore['change']>[0]): ChangeOutcome[] =>
    c.issueIds.map((id) => {
      const row = s.triageOf.get(id, c.projectId);
      if (!row) return 'not_found';
      const { next, entries } = changesOf(row, c);
      if (entries.length === 0) return 'unchanged';
      s.setTriage.run({ id, ...next });
      for (const e of entries) writeActivity(id, c.projectId, e, c.actorId, c.at);
      return 'updated';
    }),
  );

  const setRuleTx = db.transaction((c: Parameters<IssuesStore['setRule']>[0]): boolean => {
    const fingerprint = s.fingerprintOf.get(c.issueId, c.projectId)?.fingerprint;
    if (fingerprint === undefined) return false;
    const current = s.ruleOf.get(c.projectId, fingerprint)?.severity_override ?? null;
    if (current === c.severity) return false;
    if (c.severity === null) s.deleteRule.run(c.projectId, fingerprint);
    else s.upsertRule.run(c.projectId, fingerprint, c.severity, c.at, c.actorId);
    writeActivity(c.issueId, c.projectId, severityRuleActivity(c.severity), c.actorId, c.at);
    return true;
  });

  return {
    async list(q) {
      // Each project is read on its own along its index, then the pages are merged.
      const heads: Head[] = [];
      for (const projectId of q.projectIds) heads.push(...headsOf(projectId, q));
      heads.sort(newestFirst);
      return issueRecordsByIds(
        db,
        heads.slice(0, q.limit).map((h) => h.id),
      );
    },
    async byId(projectIds, id) {
      if (projectIds.length === 0) return null;
      const row = db
        .prepare<unknown[], IssueDbRow>(
          `${ISSUE_RECORD_SELECT} WHERE i.id = ? AND i.project_id IN (${placeholders(projectIds.length)})`,
        )
        .get(id, ...projectIds);
      return row ? toIssueRecord(row) : null;
    },
    async byIds(projectId, ids) {
      return issueRecordsByIds(db, ids).filter((i) => i.projectId === projectId);
    },
    async records(ids) {
      return issueRecordsByIds(db, ids);
    },
    async change(c) {
      return changeTx(c);
    },
    async setRule(c) {
      return setRuleTx(c);
    },
    async readersOf(projectId) {
      return s.readers.all(projectId);
    },
    async teamsOf(organizationId) {
      return s.teams.all(organizationId);
    },
    async team(teamId) {
      const t = s.team.get(teamId);
      return t ? { id: t.id, slug: t.slug, name: t.name, organizationId: t.organization_id } : null;
    },
    async activity(issueId, after, limit) {
      return allRows<ActivityDbRow>(db, activityStatement(issueId, after, limit)).map(toActivity);
    },
    async notifications({ accountId, projectIds, after, limit }) {
      const readAt = s.readMark.get(accountId)?.read_at ?? null;
      if (projectIds.length === 0) return { notifications: [], unread: 0, readAt };
      const inProjects = sqliteDialect.anyOf('x.project_id', projectIds);
      const unread =
        firstRow<{ n: number }>(db, unreadNotificationsStatement(accountId, inProjects, readAt))
          ?.n ?? 0;
      const rows = allRows<ActivityDbRow & { issue_title: string }>(
        db,
        notificationsStatement({ accountId, inProjects, after, limit }),
      );
      return {
        notifications: rows.map((r) => ({ ...toActivity(r), issueTitle: r.issue_title })),
        unread,
        readAt,
      };
    },
    async markNotificationsRead(accountId, at) {
      s.markRead.run(accountId, at);
      return s.readMark.get(accountId)?.read_at ?? at;
    },
  };
}
