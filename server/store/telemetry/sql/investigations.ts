import type {
  InvestigationsStore,
  ReleaseIssueCount,
} from '../../../core/store/telemetry/investigations';
import { ACTION_COLUMNS, toAction, type ActionDbRow } from '../../rows/action-record';
import { exactConditions, releaseContextConditions } from '../../rows/conditions';
import {
  OCCURRENCE_COLUMNS,
  OCCURRENCE_PICKS,
  toOccurrence,
  type OccurrenceDbRow,
} from '../../rows/occurrence-record';
import { toReleaseRow, type ReleaseDbRow } from '../../rows/release-row';
import { SPAN_COLUMNS, toSpanRecord, type SpanRow } from '../../rows/span-record';
import { and, raw, sql, type SqlDialect, type SqlRunner } from '../../rows/sql';

/** The bounded reads of investigation bundles: the same SQL on both engines. */
export function sqlInvestigations(db: SqlRunner, d: SqlDialect): InvestigationsStore {
  const OCCURRENCES = raw(`SELECT ${OCCURRENCE_COLUMNS} FROM issue_occurrences`);
  return {
    async occurrence(issueId, occurrenceId) {
      const row = await db.one<OccurrenceDbRow>(
        sql`${OCCURRENCES} WHERE issue_id = ${issueId} AND id = ${occurrenceId} LIMIT 1`,
      );
      return row ? toOccurrence(row) : null;
    },

    async pickOccurrence(issueId, pick) {
      const { where, order } = OCCURRENCE_PICKS[pick];
      const row = await db.one<OccurrenceDbRow>(
        sql`${OCCURRENCES} WHERE issue_id = ${issueId} ${raw(where)} ORDER BY ${raw(order)} LIMIT 1`,
      );
      return row ? toOccurrence(row) : null;
    },

    async occurrenceWindow(q) {
      const where = sql`issue_id = ${q.issueId} AND environment = ${q.environment}
        AND service_name = ${q.serviceName} AND occurred_at >= ${q.from} AND occurred_at < ${q.to}`;
      const [first, releases] = await Promise.all([
        db.one<OccurrenceDbRow>(
          sql`${OCCURRENCES} WHERE ${where} ORDER BY occurred_at ASC, id ASC LIMIT 1`,
        ),
        db.rows<{ release: string; occurrences: number }>(
          sql`SELECT release, COUNT(*) AS occurrences FROM issue_occurrences WHERE ${where}
            GROUP BY release ORDER BY occurrences DESC, release ASC`,
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
      const where = [
        sql`trace_id = ${scope.traceId}`,
        d.anyOf('project_id', scope.projectIds),
        sql`span_id = ${spanId}`,
        ...exactConditions([
          ['release', scope.release],
          ['environment', scope.environment],
        ]),
      ];
      const r = await db.one<SpanRow>(
        sql`SELECT ${raw(SPAN_COLUMNS)} FROM spans WHERE ${and(where)}
          ORDER BY started_at, seq LIMIT 1`,
      );
      return r ? toSpanRecord(r) : null;
    },

    async action(projectIds, actionId) {
      if (projectIds.length === 0) return null;
      const r = await db.one<ActionDbRow>(
        sql`SELECT ${raw(ACTION_COLUMNS)} FROM actions
          WHERE ${d.anyOf('project_id', projectIds)} AND id = ${actionId} LIMIT 1`,
      );
      return r ? toAction(r) : null;
    },

    async sessionNeighbours(action, windowMs, limit) {
      if (action.sessionId === null) return { before: [], after: [] };
      // Walks the (project_id, session_id, occurred_at) index within the window only.
      const base = sql`SELECT ${raw(ACTION_COLUMNS)} FROM actions
        WHERE project_id = ${action.projectId} AND session_id = ${action.sessionId}`;
      const at = action.occurredAt;
      const [before, after] = await Promise.all([
        db.rows<ActionDbRow>(sql`${base} AND occurred_at >= ${at - windowMs}
          AND (occurred_at < ${at} OR (occurred_at = ${at} AND id < ${action.id}))
          ORDER BY occurred_at DESC, id DESC LIMIT ${limit}`),
        db.rows<ActionDbRow>(sql`${base} AND occurred_at <= ${at + windowMs}
          AND (occurred_at > ${at} OR (occurred_at = ${at} AND id > ${action.id}))
          ORDER BY occurred_at ASC, id ASC LIMIT ${limit}`),
      ]);
      return { before: before.map(toAction).reverse(), after: after.map(toAction) };
    },

    async releaseIssues(q, limit) {
      const where = [
        sql`o.project_id = ${q.projectId}`,
        sql`o.release = ${q.release}`,
        ...exactConditions([
          ['o.environment', q.environment],
          ['o.service_name', q.serviceName],
        ]),
      ];
      // The window count is taken before LIMIT: how many issues there are in all. At least
      // one row is read so the total is known even for a limit of 0.
      const rows = await db.rows<{
        issue_id: string;
        title: string;
        status: string;
        occurrences: number;
        last_at: number;
        total: number;
      }>(sql`SELECT i.id AS issue_id, i.status, COUNT(*) AS occurrences,
          MAX(o.occurred_at) AS last_at, COUNT(*) OVER () AS total,
          (SELECT title FROM issue_occurrences lo WHERE lo.seq = i.latest_occurrence_seq
            LIMIT 1) AS title
        FROM issue_occurrences o JOIN issues i ON i.id = o.issue_id
        WHERE ${and(where)}
        GROUP BY i.id ORDER BY occurrences DESC, i.id ASC
        LIMIT ${Math.max(limit, 1)}`);
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
      const where = and([
        ...releaseContextConditions(q),
        ...(q.from === null ? [] : [sql`last_seen_at >= ${q.from}`]),
        ...(q.to === null ? [] : [sql`first_seen_at < ${q.to}`]),
      ]);
      const total =
        (await db.one<{ n: number }>(sql`SELECT COUNT(*) AS n FROM release_rows WHERE ${where}`))
          ?.n ?? 0;
      const rows = await db.rows<ReleaseDbRow>(
        sql`SELECT * FROM release_rows WHERE ${where}
          ORDER BY last_seen_at DESC, release DESC, environment DESC, service_name DESC
          LIMIT ${q.limit}`,
      );
      return { rows: rows.map(toReleaseRow), total };
    },
  };
}
