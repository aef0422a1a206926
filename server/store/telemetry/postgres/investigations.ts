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
import type { PgDb } from '../../postgres/pg-database';
import { param, releaseContextWhere } from '../../postgres/where';

export function pgInvestigations(db: PgDb): InvestigationsStore {
  return {
    async occurrence(issueId, occurrenceId) {
      const row = await db.one<OccurrenceDbRow>(
        `SELECT ${OCCURRENCE_COLUMNS} FROM issue_occurrences WHERE issue_id = $1 AND id = $2
         LIMIT 1`,
        [issueId, occurrenceId],
      );
      return row ? toOccurrence(row) : null;
    },

    async pickOccurrence(issueId, pick) {
      const { where, order } = OCCURRENCE_PICKS[pick];
      const row = await db.one<OccurrenceDbRow>(
        `SELECT ${OCCURRENCE_COLUMNS} FROM issue_occurrences WHERE issue_id = $1 ${where}
         ORDER BY ${order} LIMIT 1`,
        [issueId],
      );
      return row ? toOccurrence(row) : null;
    },

    async occurrenceWindow(q) {
      const where = `issue_id = $1 AND environment = $2 AND service_name = $3
        AND occurred_at >= $4 AND occurred_at < $5`;
      const args = [q.issueId, q.environment, q.serviceName, q.from, q.to];
      const [first, releases] = await Promise.all([
        db.one<OccurrenceDbRow>(
          `SELECT ${OCCURRENCE_COLUMNS} FROM issue_occurrences WHERE ${where}
           ORDER BY occurred_at ASC, id ASC LIMIT 1`,
          args,
        ),
        db.rows<{ release: string; occurrences: number }>(
          `SELECT release, COUNT(*) AS occurrences FROM issue_occurrences WHERE ${where}
           GROUP BY release ORDER BY occurrences DESC, release ASC`,
          args,
        ),
      ]);
      return {
        count: releases.reduce((n, r) => n + r.occurrences, 0),
        first: first ? toOccurrence(first) : null,
        releases,
      };
    },

    async span(scope, spanId) {
      if (scope.projectIds.length === 0) return null;
      const args: unknown[] = [scope.traceId, scope.projectIds, spanId];
      const where = ['trace_id = $1', 'project_id = ANY($2::text[])', 'span_id = $3'];
      if (scope.release !== null) where.push(`release = ${param(args, scope.release)}`);
      if (scope.environment !== null) where.push(`environment = ${param(args, scope.environment)}`);
      const r = await db.one<SpanRow>(
        `SELECT ${SPAN_COLUMNS} FROM spans WHERE ${where.join(' AND ')}
         ORDER BY started_at, seq LIMIT 1`,
        args,
      );
      return r ? toSpanRecord(r) : null;
    },

    async action(projectIds, actionId) {
      if (projectIds.length === 0) return null;
      const r = await db.one<ActionDbRow>(
        `SELECT ${ACTION_COLUMNS} FROM actions
         WHERE project_id = ANY($1::text[]) AND id = $2 LIMIT 1`,
        [projectIds, actionId],
      );
      return r ? toAction(r) : null;
    },

    async sessionNeighbours(action, windowMs, limit) {
      if (action.sessionId === null) return { before: [], after: [] };
      // Walks the (project_id, session_id, occurred_at) index within the window only.
      const base = `SELECT ${ACTION_COLUMNS} FROM actions WHERE project_id = $1 AND session_id = $2`;
      const [before, after] = await Promise.all([
        db.rows<ActionDbRow>(
          `${base} AND occurred_at >= $3 AND (occurred_at < $4 OR (occurred_at = $4 AND id < $5))
           ORDER BY occurred_at DESC, id DESC LIMIT $6`,
          [
            action.projectId,
            action.sessionId,
            action.occurredAt - windowMs,
            action.occurredAt,
            action.id,
            limit,
          ],
        ),
        db.rows<ActionDbRow>(
          `${base} AND occurred_at <= $3 AND (occurred_at > $4 OR (occurred_at = $4 AND id > $5))
           ORDER BY occurred_at ASC, id ASC LIMIT $6`,
          [
            action.projectId,
            action.sessionId,
            action.occurredAt + windowMs,
            action.occurredAt,
            action.id,
            limit,
          ],
        ),
      ]);
      return { before: before.map(toAction).reverse(), after: after.map(toAction) };
    },

    async releaseIssues(q, limit) {
      const args: unknown[] = [q.projectId, q.release];
      const where = ['o.project_id = $1', 'o.release = $2'];
      if (q.environment !== null) where.push(`o.environment = ${param(args, q.environment)}`);
      if (q.serviceName !== null) where.push(`o.service_name = ${param(args, q.serviceName)}`);
      // The window count is taken before LIMIT: how many issues there are in all. At least
      // one row is read so the total is known even for a limit of 0.
      const rows = await db.rows<{
        issue_id: string;
        title: string;
        status: string;
        occurrences: number;
        last_at: number;
        total: number;
      }>(
        `SELECT i.id AS issue_id, i.status, COUNT(*) AS occurrences,
           MAX(o.occurred_at) AS last_at, COUNT(*) OVER () AS total,
           (SELECT title FROM issue_occurrences lo WHERE lo.seq = i.latest_occurrence_seq
             LIMIT 1) AS title
         FROM issue_occurrences o JOIN issues i ON i.id = o.issue_id
         WHERE ${where.join(' AND ')}
         GROUP BY i.id ORDER BY occurrences DESC, i.id ASC
         LIMIT ${param(args, Math.max(limit, 1))}`,
        args,
      );
      const issues: ReleaseIssueCount[] = rows.slice(0, limit).map((r) => ({
        issueId: r.issue_id,
        title: r.title,
        status: r.status,
        occurrences: r.occurrences,
        lastSeenAt: r.last_at,
      }));
      return { issues, total: rows[0]?.total ?? 0 };
    },

    async releaseRows(q) {
      const args: unknown[] = [];
      const where = releaseContextWhere(q, args);
      if (q.from !== null) where.push(`last_seen_at >= ${param(args, q.from)}`);
      if (q.to !== null) where.push(`first_seen_at < ${param(args, q.to)}`);
      const total =
        (
          await db.one<{ n: number }>(
            `SELECT COUNT(*) AS n FROM release_rows WHERE ${where.join(' AND ')}`,
            args,
          )
        )?.n ?? 0;
      const rows = await db.rows<ReleaseDbRow>(
        `SELECT * FROM release_rows WHERE ${where.join(' AND ')}
         ORDER BY last_seen_at DESC, release DESC, environment DESC, service_name DESC
         LIMIT ${param(args, q.limit)}`,
        args,
      );
      return { rows: rows.map(toReleaseRow), total };
    },
  };
}
