import type { Db } from '../../sqlite/database';
import { releaseContextWhere } from '../../sqlite/where';
import type {
  InvestigationsStore,
  ReleaseIssueCount,
} from '../../../core/store/telemetry/investigations';
import { ACTION_COLUMNS, toAction, type ActionDbRow } from '../../rows/action-record';
import {
  OCCURRENCE_COLUMNS,
  OCCURRENCE_PICKS,
  toOccurrence,
  type OccurrenceDbRow,
} from '../../rows/occurrence-record';
import { toReleaseRow, type ReleaseDbRow } from '../../rows/release-row';
import { SPAN_COLUMNS, toSpanRecord, type SpanRow } from '../../rows/span-record';

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

export function sqliteInvestigations(db: Db): InvestigationsStore {
  return {
    async occurrence(issueId, occurrenceId) {
      const row = db
        .prepare<[string, string], OccurrenceDbRow>(
          `SELECT ${OCCURRENCE_COLUMNS} FROM issue_occurrences WHERE issue_id = ? AND id = ?`,
        )
        .get(issueId, occurrenceId);
      return row ? toOccurrence(row) : null;
    },

    async pickOccurrence(issueId, pick) {
      const { where, order } = OCCURRENCE_PICKS[pick];
      const row = db
        .prepare<[string], OccurrenceDbRow>(
          `SELECT ${OCCURRENCE_COLUMNS} FROM issue_occurrences WHERE issue_id = ? ${where}
           ORDER BY ${order} LIMIT 1`,
        )
        .get(issueId);
      return row ? toOccurrence(row) : null;
    },

    async occurrenceWindow(q) {
      const where = `issue_id = ? AND environment = ? AND service_name = ?
        AND occurred_at >= ? AND occurred_at < ?`;
      const args = [q.issueId, q.environment, q.serviceName, q.from, q.to] as const;
      const first = db
        .prepare<unknown[], OccurrenceDbRow>(
          `SELECT ${OCCURRENCE_COLUMNS} FROM issue_occurrences WHERE ${where}
           ORDER BY occurred_at ASC, id ASC LIMIT 1`,
        )
        .get(...args);
      const releases = db
        .prepare<unknown[], { release: string; occurrences: number }>(
          `SELECT release, COUNT(*) AS occurrences FROM issue_occurrences WHERE ${where}
           GROUP BY release ORDER BY occurrences DESC, release ASC`,
        )
        .all(...args);
      return {
        count: releases.reduce((n, r) => n + r.occurrences, 0),
        first: first ? toOccurrence(first) : null,
        releases,
      };
    },

    async span(scope, spanId) {
      if (scope.projectIds.length === 0) return null;
      const where = [
        `trace_id = ?`,
        `project_id IN (${marks(scope.projectIds.length)})`,
        'span_id = ?',
      ];
      const args: string[] = [scope.traceId, ...scope.projectIds, spanId];
      if (scope.release !== null) {
        where.push('release = ?');
        args.push(scope.release);
      }
      if (scope.environment !== null) {
        where.push('environment = ?');
        args.push(scope.environment);
      }
      const r = db
        .prepare<string[], SpanRow>(
          `SELECT ${SPAN_COLUMNS} FROM spans WHERE ${where.join(' AND ')} ORDER BY started_at, seq LIMIT 1`,
        )
        .get(...args);
      return r ? toSpanRecord(r) : null;
    },

    async action(projectIds, actionId) {
      if (projectIds.length === 0) return null;
      const r = db
        .prepare<string[], ActionDbRow>(
          `SELECT ${ACTION_COLUMNS} FROM actions
           WHERE project_id IN (${marks(projectIds.length)}) AND id = ? LIMIT 1`,
        )
        .get(...projectIds, actionId);
      return r ? toAction(r) : null;
    },

    async sessionNeighbours(action, windowMs, limit) {
      if (action.sessionId === null) return { before: [], after: [] };
      // Walks the (project_id, occurred_at, id) index within the window only.
      const base = `SELECT ${ACTION_COLUMNS} FROM actions WHERE project_id = ? AND session_id = ?`;
      const before = db
        .prepare<unknown[], ActionDbRow>(
          `${base} AND occurred_at >= ? AND (occurred_at < ? OR (occurred_at = ? AND id < ?))
           ORDER BY occurred_at DESC, id DESC LIMIT ?`,
        )
        .all(
          action.projectId,
          action.sessionId,
          action.occurredAt - windowMs,
          action.occurredAt,
          action.occurredAt,
          action.id,
          limit,
        )
        .map(toAction)
        .reverse();
      const after = db
        .prepare<unknown[], ActionDbRow>(
          `${base} AND occurred_at <= ? AND (occurred_at > ? OR (occurred_at = ? AND id > ?))
           ORDER BY occurred_at ASC, id ASC LIMIT ?`,
        )
        .all(
          action.projectId,
          action.sessionId,
          action.occurredAt + windowMs,
          action.occurredAt,
          action.occurredAt,
          action.id,
          limit,
        )
        .map(toAction);
      return { before, after };
    },

    async releaseIssues(q, limit) {
      const where = ['o.project_id = ?', 'o.release = ?'];
      const args: (string | number)[] = [q.projectId, q.release];
      if (q.environment !== null) {
        where.push('o.environment = ?');
        args.push(q.environment);
      }
      if (q.serviceName !== null) {
        where.push('o.service_name = ?');
        args.push(q.serviceName);
      }
      const rows = db
        .prepare<
          unknown[],
          { issue_id: string; title: string; status: string; occurrences: number; last_at: number }
        >(
          `SELECT o.issue_id, i.status, COUNT(*) AS occurrences, MAX(o.occurred_at) AS last_at,
             (SELECT title FROM issue_occurrences lo WHERE lo.seq = i.latest_occurrence_seq) AS title
           FROM issue_occurrences o JOIN issues i ON i.id = o.issue_id
           WHERE ${where.join(' AND ')}
           GROUP BY o.issue_id ORDER BY occurrences DESC, o.issue_id ASC`,
        )
        .all(...args);
      const issues: ReleaseIssueCount[] = rows.slice(0, limit).map((r) => ({
        issueId: r.issue_id,
        title: r.title,
        status: r.status,
        occurrences: r.occurrences,
        lastSeenAt: r.last_at,
      }));
      return { issues, total: rows.length };
    },

    async releaseRows(q) {
      const { where, args } = releaseContextWhere(q);
      if (q.from !== null) {
        where.push('last_seen_at >= ?');
        args.push(q.from);
      }
      if (q.to !== null) {
        where.push('first_seen_at < ?');
        args.push(q.to);
      }
      const total =
        db
          .prepare<unknown[], { n: number }>(
            `SELECT COUNT(*) AS n FROM release_rows WHERE ${where.join(' AND ')}`,
          )
          .get(...args)?.n ?? 0;
      const rows = db
        .prepare<unknown[], ReleaseDbRow>(
          `SELECT * FROM release_rows WHERE ${where.join(' AND ')}
           ORDER BY last_seen_at DESC, release DESC, environment DESC, service_name DESC LIMIT ?`,
        )
        .all(...args, q.limit)
        .map(toReleaseRow);
      return { rows, total };
    },
  };
}
