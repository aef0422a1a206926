import type { IssueSummaries } from '../../../core/store/state/issue-summaries';
import type {
  InvestigationsStore,
  ReleaseIssueCount,
} from '../../../core/store/telemetry/investigations';
import type { OccurrencesStore } from '../../../core/store/telemetry/occurrences';
import type { TraceIssueRef, TraceScope } from '../../../core/store/telemetry/traces';
import { OCCURRENCE_PICKS, toOccurrence, type OccurrenceDbRow } from '../../rows/occurrence-record';
import { traceIssueRefs, type TraceOccurrenceRow } from '../../rows/trace-discovery';
import { and, raw, sql, type SqlFragment } from '../../rows/sql';
import type { ChDb } from './clickhouse-db';
import { time } from './ch-time';

/**
 * An occurrence as the reads return it, its time as epoch milliseconds under another name (an
 * alias is visible to WHERE and ORDER BY: named `occurred_at`, it would hide the column).
 */
const OCCURRENCES = raw(`SELECT id, issue_id, project_id,
  toUnixTimestamp64Milli(occurred_at) AS occurred_ms, severity, title, message, exception,
  stack_trace, attributes, environment, release, service_name, trace_id, span_id, breadcrumbs,
  breadcrumbs_truncated, sdk_name, sdk_version FROM issue_occurrences`);

type OccurrenceRow = Omit<OccurrenceDbRow, 'occurred_at'> & { occurred_ms: number };

const fromRow = ({ occurred_ms, ...r }: OccurrenceRow) =>
  toOccurrence({ ...r, occurred_at: occurred_ms });

/**
 * Conditions on times given in epoch ms: the shared builders compare the column with a
 * number, which ClickHouse's DateTime64 takes as seconds, so times are converted here.
 */
const after = (a: { time: number; id: string } | null): SqlFragment[] =>
  a === null
    ? []
    : [sql`(occurred_at < ${time(a.time)} OR (occurred_at = ${time(a.time)} AND id < ${a.id}))`];

/**
 * Issue occurrences in ClickHouse, ordered by (project_id, issue_id, occurred_at, id): the
 * reads of one issue find its range through the key's second column. The group itself (its
 * status, counts, first and latest occurrence) and the per-hour counts stay in the state
 * store, counted once when each batch commits.
 */
export function clickhouseOccurrences(
  db: ChDb,
  state: Pick<OccurrencesStore, 'hours'>,
): OccurrencesStore {
  return {
    hours: (q) => state.hours(q),
    async list(issueId, afterPosition, limit) {
      const rows = await db.rows<OccurrenceRow>(
        sql`${OCCURRENCES} WHERE ${and([sql`issue_id = ${issueId}`, ...after(afterPosition)])}
          ORDER BY occurred_at DESC, id DESC LIMIT ${limit}`,
      );
      return rows.map(fromRow);
    },
  };
}

/** The investigation reads of occurrences in ClickHouse; issue titles and status from state. */
export function clickhouseOccurrenceInvestigations(
  db: ChDb,
  summaries: IssueSummaries,
): Pick<
  InvestigationsStore,
  'occurrence' | 'pickOccurrence' | 'occurrenceWindow' | 'releaseIssues'
> {
  return {
    async occurrence(issueId, occurrenceId) {
      const row = await db.one<OccurrenceRow>(
        sql`${OCCURRENCES} WHERE issue_id = ${issueId} AND id = ${occurrenceId} LIMIT 1`,
      );
      return row ? fromRow(row) : null;
    },

    async pickOccurrence(issueId, pick) {
      const { where, order } = OCCURRENCE_PICKS[pick];
      const row = await db.one<OccurrenceRow>(
        sql`${OCCURRENCES} WHERE issue_id = ${issueId} ${raw(where)} ORDER BY ${raw(order)} LIMIT 1`,
      );
      return row ? fromRow(row) : null;
    },

    async occurrenceWindow(q) {
      const where = sql`issue_id = ${q.issueId} AND environment = ${q.environment}
        AND service_name = ${q.serviceName} AND occurred_at >= ${time(q.from)}
        AND occurred_at < ${time(q.to)}`;
      const [first, releases] = await Promise.all([
        db.one<OccurrenceRow>(
          sql`${OCCURRENCES} WHERE ${where} ORDER BY occurred_at ASC, id ASC LIMIT 1`,
        ),
        db.rows<{ release: string; occurrences: number }>(
          sql`SELECT release, toInt64(count()) AS occurrences FROM issue_occurrences
            WHERE ${where} GROUP BY release ORDER BY occurrences DESC, release ASC`,
        ),
      ]);
      return {
        count: releases.reduce((n, r) => n + r.occurrences, 0),
        first: first ? fromRow(first) : null,
        releases,
      };
    },

    async releaseIssues(q, limit) {
      const where = [
        sql`project_id = ${q.projectId}`,
        sql`release = ${q.release}`,
        ...(q.environment === null ? [] : [sql`environment = ${q.environment}`]),
        ...(q.serviceName === null ? [] : [sql`service_name = ${q.serviceName}`]),
      ];
      // The window count is taken before LIMIT: how many issues there are in all. At least
      // one row is read so the total is known even for a limit of 0.
      const rows = await db.rows<{
        issue_id: string;
        occurrences: number;
        last_at: number;
        total: number;
      }>(sql`SELECT issue_id, toInt64(count()) AS occurrences,
          toUnixTimestamp64Milli(max(occurred_at)) AS last_at,
          toInt64(count() OVER ()) AS total
        FROM issue_occurrences WHERE ${and(where)}
        GROUP BY issue_id ORDER BY occurrences DESC, issue_id ASC
        LIMIT ${Math.max(limit, 1)}`);
      const shown = rows.slice(0, limit);
      const known = await summaries(shown.map((r) => r.issue_id));
      const issues: ReleaseIssueCount[] = shown.map((r) => ({
        issueId: r.issue_id,
        title: known.get(r.issue_id)?.title ?? '',
        status: known.get(r.issue_id)?.status ?? 'unresolved',
        occurrences: r.occurrences,
        lastSeenAt: r.last_at,
      }));
      return { issues, total: rows[0]?.total ?? 0 };
    },
  };
}

/** The issues whose occurrences name a trace in scope, newest occurrence first. */
export function clickhouseTraceIssues(db: ChDb): (scope: TraceScope) => Promise<TraceIssueRef[]> {
  return async (scope) => {
    if (scope.projectIds.length === 0) return [];
    const where: SqlFragment[] = [
      sql`trace_id = ${scope.traceId}`,
      sql`project_id IN ${scope.projectIds}`,
    ];
    if (scope.release !== null) where.push(sql`release = ${scope.release}`);
    if (scope.environment !== null) where.push(sql`environment = ${scope.environment}`);
    const rows = await db.rows<Omit<TraceOccurrenceRow, 'occurred_at'> & { occurred_ms: number }>(
      sql`SELECT issue_id, project_id, title, id, span_id,
          toUnixTimestamp64Milli(occurred_at) AS occurred_ms
        FROM issue_occurrences WHERE ${and(where)} ORDER BY occurred_at DESC, id DESC`,
    );
    return traceIssueRefs(
      rows.map(({ occurred_ms, ...r }) => ({ ...r, occurred_at: occurred_ms })),
    );
  };
}
