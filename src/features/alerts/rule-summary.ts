import type { AlertRule } from '../../api/queries/alerts';
import { draftOfRule, ISSUE_EVENT_LABELS, TRACE_MEASURE_LABELS, unitOf } from './rule-draft';

const LOG_KEY_LABELS: Record<string, string> = {
  severity: 'severity',
  search: 'message contains',
  service_name: 'service',
  release: 'release',
  environment: 'environment',
  status: 'status',
  trace_id: 'trace',
};

function windowText(minutes: string): string {
  const m = Number(minutes);
  if (m % 60 === 0) return m === 60 ? '1 h' : `${m / 60} h`;
  return `${m} min`;
}

/**
 * One line saying what a rule watches and when it fires, e.g.
 * `Logs (severity error, service checkout) above 10 logs in 15 min`.
 */
export function ruleSummary(rule: AlertRule): string {
  const draft = draftOfRule(rule);
  const comparison = `${draft.op} ${draft.threshold} ${unitOf(draft)} in ${windowText(draft.windowMinutes)}`;
  switch (draft.kind) {
    case 'issue': {
      const filters = Object.entries(draft.issueFilters)
        .filter(([, v]) => v !== '')
        .map(([k, v]) => `${k} ${v}`);
      const what = ISSUE_EVENT_LABELS[draft.issueEvent];
      const count =
        draft.issueEvent === 'event_count' || draft.issueEvent === 'user_count'
          ? `: ${draft.threshold} ${unitOf(draft)} in ${windowText(draft.windowMinutes)}`
          : '';
      return `${what}${count}${filters.length > 0 ? ` (${filters.join(', ')})` : ''}`;
    }
    case 'log': {
      const parts = Object.entries(draft.logQuery).map(([k, v]) =>
        k === 'attribute_filters' ? 'attribute filters' : `${LOG_KEY_LABELS[k] ?? k} ${v}`,
      );
      return `Logs${parts.length > 0 ? ` (${parts.join(', ')})` : ''} ${comparison}`;
    }
    case 'metric':
      return `${unitOf(draft)} ${draft.op} ${draft.threshold} in ${windowText(draft.windowMinutes)}`;
    case 'trace':
      return `${draft.traceService}: ${TRACE_MEASURE_LABELS[draft.traceMeasure].replace(/ \(.*\)$/, '')} ${draft.op} ${draft.threshold} ${unitOf(draft)} in ${windowText(draft.windowMinutes)}`;
  }
}
