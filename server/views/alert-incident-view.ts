import type { AlertIncidentRecord } from '../core/store/state/alerts';
import { iso } from './telemetry-views';

/** An incident as the incidents route shows it and as a webhook delivery carries it. */
export const incidentView = (i: AlertIncidentRecord) => ({
  id: i.id,
  rule_id: i.ruleId,
  rule_name: i.ruleName,
  project_id: i.projectId,
  kind: i.kind,
  state: i.state,
  started_at: iso(i.startedAt),
  resolved_at: i.resolvedAt === null ? null : iso(i.resolvedAt),
  value: i.value,
  threshold: i.threshold,
  op: i.op,
  window_start: iso(i.windowStart),
  window_end: iso(i.windowEnd),
  view_url: i.viewUrl,
});
