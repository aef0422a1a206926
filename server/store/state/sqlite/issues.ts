import type { Severity } from '../../../domain/severity';
import type { Db } from '../../sqlite/database';
import { activityWriter } from '../../sqlite/issue-activity-writer';
import { afterCondition, placeholders } from '../../sqlite/where';
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
    const where = ['i.project_id = ?'];
    const args: unknown[] = [projectId];
    if (q.since !== null) {
      where.push('i.last_seen_at >= ?');
      args.push(q.since);
    }
    afterCondition(q.after, 'i.last_seen_at', 'i.id', where, args);
    if (q.status !== null) {
      where.push('i.status = ?');
      args.push(q.status);
    }
    if (q.severity !== null) {
      where.push(`${EFFECTIVE_SEVERITY} = ?`);
      args.push(q.severity);
    }
    if (q.priority !== null) {
      where.push(`${EFFECTIVE_PRIORITY} = ?`);
      args.push(q.priority);
    }
    const exact: [string, string | null][] = [
      ['service_name', q.serviceName],
      ['release', q.release],
      ['environment', q.environment],
    ];
    for (const [column, value] of exact) {
      if (value === null) continue;
      where.push(`o.${column} = ?`);
      args.push(value);
    }
    const a = q.assignee;
    if (a !== null) {
      switch (a.kind) {
        case 'none':
          // What reads show as no assignee: none stored, or an account that cannot read the project.
          where.push(
            `i.assignee_team_id IS NULL AND (i.assignee_account_id IS NULL OR NOT ${ASSIGNEE_CAN_READ})`,
          );
          break;
        case 'user':
          where.push(`i.assignee_account_id = ? AND ${ASSIGNEE_CAN_READ}`);
          args.push(a.accountId);
          break;
        case 'team':
          where.push('i.assignee_team_id = ?');
          args.push(a.teamId);
          break;
        case 'teams_of':
          where.push(
            'i.assignee_team_id IN (SELECT team_id FROM team_members WHERE account_id = ?)',
          );
          args.push(a.accountId);
          break;
      }
    }
    args.push(q.limit);
    return db
      .prepare<unknown[], Head>(
        `SELECT i.id, i.last_seen_at FROM ${ISSUE_FROM} WHERE ${where.join(' AND ')}
         ORDER BY i.last_seen_at DESC, i.id DESC LIMIT ?`,
      )
      .all(...args);
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
    writeActivity(
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

  /** Conditions selecting the account's notifications among activity rows `x` of issues `i`. */
  function notificationConditions(
    accountId: string,
    projectIds: string[],
    where: string[],
    args: unknown[],
  ): void {
    where.push(
      "x.type = 'assigned'",
      `x.project_id IN (${placeholders(projectIds.length)})`,
      `(x.assignee_account_id = ? OR
        x.assignee_team_id IN (SELECT team_id FROM team_members WHERE account_id = ?))`,
      'x.actor_id IS NOT NULL AND x.actor_id <> ?',
    );
    args.push(...projectIds, accountId, accountId, accountId);
  }

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
      const where: string[] = [];
      const args: unknown[] = [issueId, issueId];
      afterCondition(after, 'x.at', 'x.id', where, args);
      args.push(limit);
      // The first_seen entry is the issue's first occurrence, read from its occurrences.
      return db
        .prepare<unknown[], ActivityDbRow>(
          `SELECT ${ACTIVITY_COLUMNS} FROM (
             SELECT id, issue_id, project_id, type, value, actor_id, assignee_account_id,
               assignee_team_id, at FROM issue_activity WHERE issue_id = ?
             UNION ALL
             SELECT * FROM (SELECT id, issue_id, project_id, 'first_seen', release, NULL, NULL,
               NULL, occurred_at FROM issue_occurrences WHERE issue_id = ?
               ORDER BY occurred_at, id LIMIT 1)
           ) x ${ACTIVITY_JOINS}
           ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
           ORDER BY x.at DESC, x.id DESC LIMIT ?`,
        )
        .all(...args)
        .map(toActivity);
    },
    async notifications({ accountId, projectIds, after, limit }) {
      const readAt = s.readMark.get(accountId)?.read_at ?? null;
      if (projectIds.length === 0) return { notifications: [], unread: 0, readAt };
      const where: string[] = [];
      const args: unknown[] = [];
      notificationConditions(accountId, projectIds, where, args);
      const countWhere = [...where];
      const countArgs = [...args];
      if (readAt !== null) {
        countWhere.push('x.at > ?');
        countArgs.push(readAt);
      }
      const unread = db
        .prepare<unknown[], { n: number }>(
          `SELECT COUNT(*) AS n FROM issue_activity x WHERE ${countWhere.join(' AND ')}`,
        )
        .get(...countArgs)?.n;
      afterCondition(after, 'x.at', 'x.id', where, args);
      args.push(limit);
      const rows = db
        .prepare<unknown[], ActivityDbRow & { issue_title: string }>(
          `SELECT ${ACTIVITY_COLUMNS}, o.title AS issue_title FROM issue_activity x
           JOIN issues i ON i.id = x.issue_id
           JOIN issue_occurrences o ON o.seq = i.latest_occurrence_seq
           ${ACTIVITY_JOINS}
           WHERE ${where.join(' AND ')} ORDER BY x.at DESC, x.id DESC LIMIT ?`,
        )
        .all(...args);
      return {
        notifications: rows.map((r) => ({ ...toActivity(r), issueTitle: r.issue_title })),
        unread: unread ?? 0,
        readAt,
      };
    },
    async markNotificationsRead(accountId, at) {
      s.markRead.run(accountId, at);
      return s.readMark.get(accountId)?.read_at ?? at;
    },
  };
}
