import { PRIORITY_BY_SEVERITY, type IssueStatus, type Priority } from '../../domain/issue-triage';
import type { Severity } from '../../domain/severity';
import type { IssueAssignee, IssueRecord } from '../../core/store/state/issues';

/**
 * An issue record as both stores read it: the SQL here is the same in SQLite and PostgreSQL
 * (no parameters), the mapper turns a row into the record every issue read returns.
 */

/** Severity after the issue's rule: the rule's override, else the latest occurrence's. */
export const EFFECTIVE_SEVERITY = 'COALESCE(r.severity_override, o.severity)';

/** Priority as reads show it: the manual one, else derived from effective severity. */
export const EFFECTIVE_PRIORITY = `COALESCE(i.priority, CASE ${EFFECTIVE_SEVERITY} ${Object.entries(
  PRIORITY_BY_SEVERITY,
)
  .map(([severity, priority]) => `WHEN '${severity}' THEN '${priority}'`)
  .join(' ')} END)`;

/** Whether the assigned account can (still) read the issue's project: a member of its organization. */
export const ASSIGNEE_CAN_READ = `EXISTS (SELECT 1 FROM projects ap
  JOIN memberships am ON am.organization_id = ap.organization_id
  WHERE ap.id = i.project_id AND am.account_id = i.assignee_account_id)`;

/** Each issue `i` with its latest occurrence `o` and its severity rule `r`. */
export const ISSUE_FROM = `issues i JOIN issue_occurrences o ON o.seq = i.latest_occurrence_seq
  LEFT JOIN issue_rules r ON r.project_id = i.project_id AND r.fingerprint = i.fingerprint`;

/** Selects `IssueDbRow`s; the caller adds the WHERE clause. */
export const ISSUE_RECORD_SELECT = `SELECT i.id, i.project_id, i.fingerprint, i.status,
  i.occurrence_count, i.first_seen_at, i.last_seen_at, o.severity, o.title, o.message,
  o.stack_trace, o.attributes, o.environment, o.release, o.service_name, o.trace_id, o.span_id,
  o.exception, o.breadcrumbs, o.breadcrumbs_truncated, r.severity_override AS rule_severity,
  i.priority AS manual_priority,
  i.assignee_account_id, ua.name AS assignee_name, ua.email AS assignee_email,
  CASE WHEN ${ASSIGNEE_CAN_READ} THEN 1 ELSE 0 END AS assignee_can_read,
  i.assignee_team_id, ut.slug AS assignee_team_slug, ut.name AS assignee_team_name
  FROM ${ISSUE_FROM}
  LEFT JOIN accounts ua ON ua.id = i.assignee_account_id
  LEFT JOIN teams ut ON ut.id = i.assignee_team_id`;

export type IssueDbRow = {
  id: string;
  project_id: string;
  fingerprint: string;
  status: IssueStatus;
  occurrence_count: number;
  first_seen_at: number;
  last_seen_at: number;
  severity: Severity;
  title: string;
  message: string;
  stack_trace: string | null;
  attributes: string;
  environment: string;
  release: string;
  service_name: string;
  trace_id: string | null;
  span_id: string | null;
  exception: string | null;
  breadcrumbs: string | null;
  breadcrumbs_truncated: number;
  rule_severity: Severity | null;
  manual_priority: Priority | null;
  assignee_account_id: string | null;
  assignee_name: string | null;
  assignee_email: string | null;
  assignee_can_read: number;
  assignee_team_id: string | null;
  assignee_team_slug: string | null;
  assignee_team_name: string | null;
};

function assigneeOf(r: IssueDbRow): IssueAssignee | null {
  if (r.assignee_account_id !== null)
    return {
      type: 'user',
      id: r.assignee_account_id,
      name: r.assignee_name,
      email: r.assignee_email ?? '',
      canRead: r.assignee_can_read === 1,
    };
  if (r.assignee_team_id !== null)
    return {
      type: 'team',
      id: r.assignee_team_id,
      slug: r.assignee_team_slug ?? '',
      name: r.assignee_team_name ?? '',
    };
  return null;
}

export const toIssueRecord = (r: IssueDbRow): IssueRecord => ({
  id: r.id,
  projectId: r.project_id,
  fingerprint: r.fingerprint,
  status: r.status,
  occurrenceCount: r.occurrence_count,
  firstSeenAt: r.first_seen_at,
  lastSeenAt: r.last_seen_at,
  severity: r.severity,
  ruleSeverity: r.rule_severity,
  title: r.title,
  message: r.message,
  stackTrace: r.stack_trace,
  attributes: JSON.parse(r.attributes) as Record<string, unknown>,
  environment: r.environment,
  release: r.release,
  serviceName: r.service_name,
  traceId: r.trace_id,
  spanId: r.span_id,
  exception: r.exception ? (JSON.parse(r.exception) as IssueRecord['exception']) : null,
  breadcrumbs: r.breadcrumbs ? (JSON.parse(r.breadcrumbs) as unknown[]) : null,
  breadcrumbsTruncated: r.breadcrumbs_truncated === 1,
  manualPriority: r.manual_priority,
  assignee: assigneeOf(r),
});

/** `rows` in the order of `ids` (ids without a row are left out). */
export function inIdOrder<R extends { id: string }>(ids: readonly string[], rows: R[]): R[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [r] : [];
  });
}
