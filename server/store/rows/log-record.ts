import type { Severity } from '../../domain/severity';
import type { LogRecord, LogStatus } from '../../core/store/telemetry/logs';

/** A `logs` row joined with its triage rule, as both stores read it. */
export type LogDbRow = {
  id: string;
  project_id: string;
  occurred_at: number;
  severity: Severity;
  source: string;
  message: string;
  attributes: string;
  environment: string;
  release: string;
  service_name: string;
  trace_id: string | null;
  span_id: string | null;
  sdk_name: string;
  sdk_version: string;
  rule_severity: Severity | null;
  rule_ignored: number | null;
};

export const toLog = (r: LogDbRow): LogRecord => ({
  id: r.id,
  projectId: r.project_id,
  occurredAt: r.occurred_at,
  severity: r.severity,
  source: r.source,
  message: r.message,
  attributes: JSON.parse(r.attributes) as Record<string, unknown>,
  environment: r.environment,
  release: r.release,
  service_name: r.service_name,
  traceId: r.trace_id,
  spanId: r.span_id,
  sdk: { name: r.sdk_name, version: r.sdk_version },
  rule:
    r.rule_ignored === null ? null : { severity: r.rule_severity, ignored: r.rule_ignored === 1 },
});

export const LOG_COLUMNS = `l.id, l.project_id, l.occurred_at, l.severity, l.source, l.message, l.attributes,
  l.environment, l.release, l.service_name, l.trace_id, l.span_id, l.sdk_name, l.sdk_version,
  r.severity_override AS rule_severity, r.ignored AS rule_ignored`;

/** Each log with the rule of its project and triage key (the primary key of the rules). */
export const LOG_FROM = `logs l LEFT JOIN log_triage_rules r
  ON r.project_id = l.project_id AND r.triage_key = l.triage_key`;

/** Severity after log rules: the rule's override, else the captured one. */
export const EFFECTIVE_SEVERITY = 'COALESCE(r.severity_override, l.severity)';

/** Triage status as SQL on the joined rule `r`; a log without a rule is active. */
export function logStatusCondition(status: LogStatus): string | null {
  switch (status) {
    case 'active':
      return 'COALESCE(r.ignored, 0) = 0';
    case 'all':
      return null;
    case 'ignored':
      return 'r.ignored = 1';
  }
}

/** A log's position in the list: its row, then newest first by (occurred_at, id). */
export type LogHead = { seq: number; occurred_at: number; id: string };
