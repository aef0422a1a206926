import { logFiltersOf, type RuleCondition } from './alert-conditions';

/**
 * The console path that shows what a rule measured over a window, with absolute times, so an
 * incident links to the view at that moment (the console's URL keys: `project`, `since`,
 * `until`, and each page's own filters).
 */
export function viewUrlOf(
  rule: RuleCondition,
  projectId: string,
  windowStart: number,
  windowEnd: number,
): string {
  const p = new URLSearchParams({
    project: projectId,
    since: new Date(windowStart).toISOString(),
    until: new Date(windowEnd).toISOString(),
  });
  const set = (key: string, value: string | null | undefined) => {
    if (value !== null && value !== undefined) p.set(key, value);
  };
  switch (rule.kind) {
    case 'log': {
      const q = rule.condition.query;
      set('severity', logFiltersOf(q).severity);
      set('q', q.search);
      set('service', q.service_name);
      set('release', q.release);
      set('environment', q.environment);
      set('filters', q.attribute_filters);
      return `/logs?${p.toString()}`;
    }
    case 'metric':
      set('metric', rule.condition.query.name);
      return `/metrics?${p.toString()}`;
    case 'trace':
      set('service', rule.condition.service);
      if (rule.condition.measure === 'error_share') set('status', 'error');
      return `/traces?${p.toString()}`;
    case 'issue': {
      const f = rule.condition.filters;
      set('environment', f.environment);
      set('release', f.release);
      set('service', f.service);
      set('severity', f.severity);
      return `/issues?${p.toString()}`;
    }
  }
}
