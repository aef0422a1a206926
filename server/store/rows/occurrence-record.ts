import type { Severity } from '../../domain/severity';
import type { OccurrencePick } from '../../core/store/telemetry/investigations';
import { afterConditions } from './conditions';
import { and, raw, sql, type SqlFragment } from './sql';
import type { OccurrenceRecord } from '../../core/store/telemetry/occurrences';

/** The columns every occurrence read selects from `issue_occurrences`, in `OccurrenceDbRow` order. */
export const OCCURRENCE_COLUMNS = `id, issue_id, project_id, occurred_at, severity, title, message,
  exception, stack_trace, attributes, environment, release, service_name, trace_id, span_id,
  breadcrumbs, breadcrumbs_truncated, sdk_name, sdk_version`;

export type OccurrenceDbRow = {
  id: string;
  issue_id: string;
  project_id: string;
  occurred_at: number;
  severity: Severity;
  title: string;
  message: string;
  exception: string | null;
  stack_trace: string | null;
  attributes: string;
  environment: string;
  release: string;
  service_name: string;
  trace_id: string | null;
  span_id: string | null;
  breadcrumbs: string | null;
  breadcrumbs_truncated: number;
  sdk_name: string;
  sdk_version: string;
};

export const toOccurrence = (r: OccurrenceDbRow): OccurrenceRecord => ({
  id: r.id,
  issueId: r.issue_id,
  projectId: r.project_id,
  occurredAt: r.occurred_at,
  severity: r.severity,
  title: r.title,
  message: r.message,
  exception: r.exception ? (JSON.parse(r.exception) as OccurrenceRecord['exception']) : null,
  stackTrace: r.stack_trace,
  attributes: JSON.parse(r.attributes) as Record<string, unknown>,
  environment: r.environment,
  release: r.release,
  serviceName: r.service_name,
  traceId: r.trace_id,
  spanId: r.span_id,
  breadcrumbs: r.breadcrumbs ? (JSON.parse(r.breadcrumbs) as unknown[]) : null,
  breadcrumbsTruncated: r.breadcrumbs_truncated === 1,
  sdk: { name: r.sdk_name, version: r.sdk_version },
});

/**
 * The conditions and order of each investigation pick (same SQL in both stores); every pick
 * walks the issue's (issue_id, occurred_at, id) index from one end.
 */
export const OCCURRENCE_PICKS: Record<OccurrencePick, { where: string; order: string }> = {
  first: { where: '', order: 'occurred_at ASC, id ASC' },
  latest: { where: '', order: 'occurred_at DESC, id DESC' },
  latest_with_trace_and_stack: {
    where: 'AND trace_id IS NOT NULL AND stack_trace IS NOT NULL',
    order: 'occurred_at DESC, id DESC',
  },
  latest_with_stack: { where: 'AND stack_trace IS NOT NULL', order: 'occurred_at DESC, id DESC' },
};

/** Occurrences of an issue, newest first by (occurred_at, id), strictly after `after`. */
export const occurrencesStatement = (
  issueId: string,
  after: { time: number; id: string } | null,
  limit: number,
): SqlFragment => sql`SELECT ${raw(OCCURRENCE_COLUMNS)} FROM issue_occurrences
  WHERE ${and([sql`issue_id = ${issueId}`, ...afterConditions(after, 'occurred_at', 'id')])}
  ORDER BY occurred_at DESC, id DESC LIMIT ${limit}`;
