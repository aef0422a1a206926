import type {
  AlertCondition,
  AlertKind,
  AlertOp,
  AlertRule,
  AlertRuleInput,
  IssueEvent,
  PreviewInput,
  TraceMeasure,
} from '../../api/queries/alerts';

/**
 * The rule editor's form as the person types it: every number is the field's text, so a
 * half-typed value stays on screen; `checkDraft` turns it into the service's body or names
 * the field that is wrong.
 */
export type RuleDraft = {
  projectId: string;
  name: string;
  kind: AlertKind;
  issueEvent: IssueEvent;
  /** Issue filters (exact values; empty = any; assignee `user:<id>`, `team:<id>` or `none`). */
  issueFilters: {
    environment: string;
    release: string;
    service: string;
    severity: string;
    assignee: string;
  };
  /** The logs explorer's service query keys (`level`, `search`, `service_name`, …). */
  logQuery: Record<string, string>;
  metricName: string;
  metricAggregation: MetricAggregation;
  metricFilters: { service_name: string; release: string; environment: string };
  traceService: string;
  traceMeasure: TraceMeasure;
  op: AlertOp;
  threshold: string;
  windowMinutes: string;
  resolveThreshold: string;
  /** `user:<id>`, `team:<id>` or empty (no inbox). */
  inbox: string;
  webhookIds: string[];
  enabled: boolean;
};

export const METRIC_AGGREGATIONS = ['avg', 'sum', 'max'] as const;
export type MetricAggregation = (typeof METRIC_AGGREGATIONS)[number];

export const KIND_LABELS: Record<AlertKind, string> = {
  issue: 'Issue',
  log: 'Log',
  metric: 'Metric',
  trace: 'Trace',
};

export const ISSUE_EVENT_LABELS: Record<IssueEvent, string> = {
  new_issue: 'A new issue appears',
  regression: 'A resolved issue regresses',
  event_count: 'An issue passes N events in a window',
  user_count: 'An issue passes N users in a window',
};

export const TRACE_MEASURE_LABELS: Record<TraceMeasure, string> = {
  error_share: 'Share of traces with an error span (0 to 1)',
  p50: 'p50 duration of root spans (ms)',
  p95: 'p95 duration of root spans (ms)',
  p99: 'p99 duration of root spans (ms)',
};

/** Windows offered by the editor (minutes); the service decides what it accepts. */
export const WINDOW_CHOICES = [1, 5, 10, 15, 30, 60, 120, 360, 1440] as const;

export function emptyDraft(projectId: string, kind: AlertKind = 'log'): RuleDraft {
  return {
    projectId,
    name: '',
    kind,
    issueEvent: 'new_issue',
    issueFilters: { environment: '', release: '', service: '', severity: '', assignee: '' },
    logQuery: {},
    metricName: '',
    metricAggregation: 'avg',
    metricFilters: { service_name: '', release: '', environment: '' },
    traceService: '',
    traceMeasure: 'error_share',
    op: 'above',
    threshold: kind === 'issue' ? '' : '10',
    windowMinutes: '15',
    resolveThreshold: '',
    inbox: '',
    webhookIds: [],
    enabled: true,
  };
}

/** Whether the issue event counts something against a threshold (the others fire on sight). */
export function issueEventCounts(event: IssueEvent): boolean {
  return event === 'event_count' || event === 'user_count';
}

/** Whether the rule compares a value with a threshold (every kind but new issue and regression). */
export function draftHasThreshold(draft: Pick<RuleDraft, 'kind' | 'issueEvent'>): boolean {
  return draft.kind !== 'issue' || issueEventCounts(draft.issueEvent);
}

export type DraftProblem = { field: DraftField; message: string };
export type DraftField =
  'project' | 'name' | 'threshold' | 'window' | 'resolve' | 'metric' | 'service' | 'log';

type Checked<T> = { ok: true; value: T } | { ok: false; problem: DraftProblem };

function numberOf(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : null;
}

function compact(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values)
      .map(([k, v]) => [k, v.trim()] as const)
      .filter(([, v]) => v !== ''),
  );
}

/** The rule's condition as the service takes it, or the first field that is wrong. */
export function conditionOf(draft: RuleDraft): Checked<AlertCondition> {
  const fail = (field: DraftField, message: string): Checked<AlertCondition> => ({
    ok: false,
    problem: { field, message },
  });
  const hasThreshold = draftHasThreshold(draft);
  const threshold = numberOf(draft.threshold);
  const window = numberOf(draft.windowMinutes);
  if (hasThreshold) {
    if (threshold === null) return fail('threshold', 'Enter a threshold (a number).');
    if (threshold < 0) return fail('threshold', 'The threshold cannot be negative.');
    if (window === null || !Number.isInteger(window) || window < 1) {
      return fail('window', 'Choose a window of whole minutes.');
    }
  }
  const resolveText = draft.resolveThreshold.trim();
  const resolve = numberOf(resolveText);
  if (resolveText !== '' && resolve === null) {
    return fail('resolve', 'The resolve threshold must be a number, or empty.');
  }
  if (hasThreshold && resolve !== null && threshold !== null) {
    const wrongSide = draft.op === 'above' ? resolve > threshold : resolve < threshold;
    if (wrongSide) {
      return fail(
        'resolve',
        draft.op === 'above'
          ? 'An alert above a threshold resolves at or below it: the resolve threshold must not be higher.'
          : 'An alert below a threshold resolves at or above it: the resolve threshold must not be lower.',
      );
    }
  }
  const w = window ?? 0;
  const t = threshold ?? 0;
  switch (draft.kind) {
    case 'issue': {
      const { assignee, ...exact } = draft.issueFilters;
      const filters: Record<string, unknown> = compact(exact);
      const [whom, id] = assignee.split(':');
      if (assignee === 'none') filters.assignee = 'none';
      else if (whom === 'user' && id) filters.assignee = { user_id: id };
      else if (whom === 'team' && id) filters.assignee = { team_id: id };
      if (issueEventCounts(draft.issueEvent) && !Number.isInteger(t)) {
        return fail('threshold', 'An issue count is a whole number.');
      }
      if (!issueEventCounts(draft.issueEvent)) {
        return { ok: true, value: { event: draft.issueEvent, filters } };
      }
      return {
        ok: true,
        value: { event: draft.issueEvent, threshold: t, window_minutes: w, filters },
      };
    }
    case 'log':
      return {
        ok: true,
        value: { query: compact(draft.logQuery), op: draft.op, threshold: t, window_minutes: w },
      };
    case 'metric': {
      if (draft.metricName.trim() === '') return fail('metric', 'Choose the metric to watch.');
      return {
        ok: true,
        value: {
          query: {
            name: draft.metricName.trim(),
            aggregation: draft.metricAggregation,
            ...compact(draft.metricFilters),
          },
          op: draft.op,
          threshold: t,
          window_minutes: w,
        },
      };
    }
    case 'trace': {
      if (draft.traceService.trim() === '') {
        return fail('service', 'Choose the service whose root spans are measured.');
      }
      return {
        ok: true,
        value: {
          service: draft.traceService.trim(),
          measure: draft.traceMeasure,
          op: draft.op,
          threshold: t,
          window_minutes: w,
        },
      };
    }
  }
}

/** The preview's body: the rule without name and notify, or the first field that is wrong. */
export function previewInputOf(draft: RuleDraft): Checked<PreviewInput> {
  if (draft.projectId === '')
    return { ok: false, problem: { field: 'project', message: 'Choose a project.' } };
  const condition = conditionOf(draft);
  if (!condition.ok) return condition;
  const resolve = numberOf(draft.resolveThreshold);
  return {
    ok: true,
    value: {
      project_id: draft.projectId,
      kind: draft.kind,
      condition: condition.value,
      ...(resolve !== null && draftHasThreshold(draft) ? { resolve_threshold: resolve } : {}),
    },
  };
}

/** The create or change body, or the first field that is wrong. */
export function ruleInputOf(draft: RuleDraft): Checked<AlertRuleInput> {
  if (draft.name.trim() === '') {
    return {
      ok: false,
      problem: {
        field: 'name',
        message: 'Give the rule a name people will recognise in the inbox.',
      },
    };
  }
  const preview = previewInputOf(draft);
  if (!preview.ok) return preview;
  const [whom, id] = draft.inbox.split(':');
  const inbox =
    whom === 'user' && id ? { user_id: id } : whom === 'team' && id ? { team_id: id } : null;
  return {
    ok: true,
    value: {
      ...preview.value,
      name: draft.name.trim(),
      notify: { inbox, webhook_ids: draft.webhookIds },
      enabled: draft.enabled,
    } as AlertRuleInput,
  };
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

/** The form's assignee of an issue filter: `user:<id>`, `team:<id>`, `none` or empty. */
function assigneeText(value: unknown): string {
  if (value === 'none') return 'none';
  if (typeof value !== 'object' || value === null) return '';
  if ('user_id' in value && typeof value.user_id === 'string') return `user:${value.user_id}`;
  if ('team_id' in value && typeof value.team_id === 'string') return `team:${value.team_id}`;
  return '';
}

/** The form of a saved rule, to edit it. */
export function draftOfRule(rule: AlertRule): RuleDraft {
  const draft = emptyDraft(rule.project_id, rule.kind);
  const c = rule.condition as Record<string, unknown>;
  const inbox = rule.notify.inbox;
  const base: RuleDraft = {
    ...draft,
    name: rule.name,
    enabled: rule.enabled,
    op: c.op === 'below' ? 'below' : 'above',
    threshold: text(c.threshold),
    windowMinutes: text(c.window_minutes) || draft.windowMinutes,
    resolveThreshold:
      rule.resolve_threshold !== null && rule.resolve_threshold !== c.threshold
        ? text(rule.resolve_threshold)
        : '',
    inbox:
      inbox === null ? '' : 'user_id' in inbox ? `user:${inbox.user_id}` : `team:${inbox.team_id}`,
    webhookIds: [...rule.notify.webhook_ids],
  };
  switch (rule.kind) {
    case 'issue': {
      const filters = (c.filters ?? {}) as Record<string, unknown>;
      return {
        ...base,
        issueEvent: (c.event as IssueEvent | undefined) ?? 'new_issue',
        issueFilters: {
          environment: text(filters.environment),
          release: text(filters.release),
          service: text(filters.service),
          severity: text(filters.severity),
          assignee: assigneeText(filters.assignee),
        },
      };
    }
    case 'log': {
      const query = (c.query ?? {}) as Record<string, unknown>;
      return {
        ...base,
        logQuery: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, text(v)])),
      };
    }
    case 'metric': {
      const query = (c.query ?? {}) as Record<string, unknown>;
      const aggregation = METRIC_AGGREGATIONS.find((a) => a === query.aggregation) ?? 'avg';
      return {
        ...base,
        metricName: text(query.name),
        metricAggregation: aggregation,
        metricFilters: {
          service_name: text(query.service_name),
          release: text(query.release),
          environment: text(query.environment),
        },
      };
    }
    case 'trace':
      return {
        ...base,
        traceService: text(c.service),
        traceMeasure: (c.measure as TraceMeasure | undefined) ?? 'error_share',
      };
  }
}

/** The unit of the rule's value, for the threshold's label and the chart's axis. */
export function unitOf(draft: RuleDraft): string {
  switch (draft.kind) {
    case 'log':
      return 'logs';
    case 'metric':
      return draft.metricName.trim() === ''
        ? 'metric value'
        : `${draft.metricAggregation} of ${draft.metricName.trim()}`;
    case 'trace':
      return draft.traceMeasure === 'error_share' ? 'share of traces' : 'ms';
    case 'issue':
      return draft.issueEvent === 'user_count'
        ? 'users'
        : draft.issueEvent === 'event_count'
          ? 'events'
          : 'issues';
  }
}
