import { z } from '@hono/zod-openapi';
import { fail } from '../core/api-error';
import {
  parseAttributeFilters,
  type AttributeFilter,
} from '../domain/read-rules/attribute-filters';
import { ReadRuleError } from '../domain/read-rules/read-rule-error';
import { SEVERITIES, SEVERITY_INPUTS, normalizeSeverity, type Severity } from '../domain/severity';
import { ALERT_OPS, type AlertKind } from '../core/store/state/alerts';

/** A window is 1 minute to 1 day; the preview's 24 hours hold at least one. */
export const WINDOW_MINUTES_MAX = 1440;

const threshold = z.number().finite().openapi({ description: 'The value compared with `op`.' });
const op = z
  .enum(ALERT_OPS)
  .openapi({ description: '`above`: value > threshold; `below`: value < threshold.' });
const windowMinutes = z
  .number()
  .int()
  .min(1)
  .max(WINDOW_MINUTES_MAX)
  .openapi({
    description: `The window the value is computed over, 1 to ${WINDOW_MINUTES_MAX} minutes.`,
  });
const exact = z.string().trim().min(1).max(200);

export const ISSUE_EVENTS = ['new_issue', 'regression', 'event_count', 'user_count'] as const;

export const IssueConditionSchema = z
  .object({
    event: z.enum(ISSUE_EVENTS),
    threshold: z.number().int().min(1).optional().openapi({
      description:
        'Required for `event_count` and `user_count`: fires when one issue has more than this many in the window.',
    }),
    window_minutes: windowMinutes.optional().openapi({
      description: 'Default 60 for counts; new issues and regressions use the evaluation interval.',
    }),
    filters: z
      .object({
        environment: exact.optional(),
        release: exact.optional(),
        service: exact.optional(),
        severity: z.enum(SEVERITIES).optional(),
        assignee: z
          .union([
            z.object({ user_id: z.uuid() }).strict(),
            z.object({ team_id: z.uuid() }).strict(),
            z.literal('none'),
          ])
          .optional(),
      })
      .strict()
      .default({}),
  })
  .strict()
  .openapi('AlertIssueCondition');

/** The logs explorer's URL keys (`GET /api/logs`), with the same names and values. */
export const LogQuerySchema = z
  .object({
    severity: z
      .string()
      .optional()
      .openapi({ description: `One of ${SEVERITY_INPUTS.join(', ')}.` }),
    search: z
      .string()
      .min(1)
      .max(500)
      .optional()
      .openapi({ description: 'Case-insensitive substring of the message.' }),
    service_name: exact.optional(),
    release: exact.optional(),
    environment: exact.optional(),
    attribute_filters: z
      .string()
      .optional()
      .openapi({ description: 'The JSON text the logs URL carries.' }),
  })
  .strict()
  .openapi('AlertLogQuery');

export const LogConditionSchema = z
  .object({ query: LogQuerySchema, op, threshold, window_minutes: windowMinutes })
  .strict()
  .openapi('AlertLogCondition');

export const METRIC_AGGREGATIONS = ['avg', 'sum', 'max'] as const;

/** The metrics explorer's series keys. */
export const MetricQuerySchema = z
  .object({
    name: exact,
    aggregation: z.enum(METRIC_AGGREGATIONS).default('avg'),
    service_name: exact.optional(),
    release: exact.optional(),
    environment: exact.optional(),
  })
  .strict()
  .openapi('AlertMetricQuery');

export const MetricConditionSchema = z
  .object({ query: MetricQuerySchema, op, threshold, window_minutes: windowMinutes })
  .strict()
  .openapi('AlertMetricCondition');

export const TRACE_MEASURES = ['error_share', 'p50', 'p95', 'p99'] as const;

export const TraceConditionSchema = z
  .object({
    service: exact.openapi({ description: "The root span's service." }),
    measure: z.enum(TRACE_MEASURES).openapi({
      description:
        '`error_share`: share (0 to 1) of traces with an error span; `pNN`: percentile of root-span durations in ms.',
    }),
    op,
    threshold,
    window_minutes: windowMinutes,
  })
  .strict()
  .openapi('AlertTraceCondition');

export type IssueCondition = z.output<typeof IssueConditionSchema>;
export type LogCondition = z.output<typeof LogConditionSchema>;
export type MetricCondition = z.output<typeof MetricConditionSchema>;
export type TraceCondition = z.output<typeof TraceConditionSchema>;

export type RuleCondition =
  | { kind: 'issue'; condition: IssueCondition }
  | { kind: 'log'; condition: LogCondition }
  | { kind: 'metric'; condition: MetricCondition }
  | { kind: 'trace'; condition: TraceCondition };

/** The log filters of a log condition, as the logs store takes them. */
export type LogFilters = {
  severity: Severity | null;
  search: string | null;
  serviceName: string | null;
  release: string | null;
  environment: string | null;
  attributeFilters: AttributeFilter[];
};

/** The read rules of the logs explorer applied to a log condition's query (422 names the key). */
export function logFiltersOf(query: LogCondition['query']): LogFilters {
  let severity: Severity | null = null;
  if (query.severity !== undefined) {
    severity = normalizeSeverity(query.severity);
    if (severity === null)
      throw fail.validation(
        `condition.query.severity must be one of ${SEVERITY_INPUTS.join(', ')}`,
      );
  }
  let attributeFilters: AttributeFilter[] = [];
  if (query.attribute_filters !== undefined) {
    try {
      attributeFilters = parseAttributeFilters(query.attribute_filters);
    } catch (err) {
      if (err instanceof ReadRuleError) throw fail.validation(`condition.query.${err.message}`);
      throw err;
    }
  }
  return {
    severity,
    search: query.search ?? null,
    serviceName: query.service_name ?? null,
    release: query.release ?? null,
    environment: query.environment ?? null,
    attributeFilters,
  };
}

/**
 * The condition of a rule of `kind`, checked: `422 validation_failed` naming the field.
 * The routes check what a client sends; the evaluator reads stored conditions back with it.
 */
export function parseCondition(kind: AlertKind, raw: unknown): RuleCondition {
  const schema = {
    issue: IssueConditionSchema,
    log: LogConditionSchema,
    metric: MetricConditionSchema,
    trace: TraceConditionSchema,
  }[kind];
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = ['condition', ...(issue?.path ?? []).map(String)].join('.');
    throw fail.validation(
      `${where}: ${issue?.message ?? 'invalid'}`,
      `Send a ${kind} condition as docs/alerts.md describes it.`,
    );
  }
  const rule = { kind, condition: parsed.data } as RuleCondition;
  if (rule.kind === 'log') logFiltersOf(rule.condition.query);
  if (
    rule.kind === 'issue' &&
    (rule.condition.event === 'event_count' || rule.condition.event === 'user_count') &&
    rule.condition.threshold === undefined
  )
    throw fail.validation(
      `condition.threshold is required for ${rule.condition.event}`,
      'Send a threshold: the count one issue must pass in the window.',
    );
  return rule;
}

/** The threshold and comparison of a rule (issue rules: a count above the threshold, or any). */
export function comparisonOf(rule: RuleCondition): { op: 'above' | 'below'; threshold: number } {
  if (rule.kind === 'issue') return { op: 'above', threshold: rule.condition.threshold ?? 0 };
  return { op: rule.condition.op, threshold: rule.condition.threshold };
}

/** The window of a rule in minutes; new-issue and regression rules use `everyMinutes`. */
export function windowMinutesOf(rule: RuleCondition, everyMinutes: number): number {
  if (rule.kind !== 'issue') return rule.condition.window_minutes;
  if (rule.condition.event === 'new_issue' || rule.condition.event === 'regression')
    return rule.condition.window_minutes ?? everyMinutes;
  return rule.condition.window_minutes ?? 60;
}
