import { z } from 'zod/mini';
import { checkAttributeFilter, type AttributeFilter } from '../../lib/attribute-filter';
import { logQueryOfView, logViewKeys, type LogViewKeys } from '../../lib/log-view-keys';
import { lenient, searchEnum, searchText, searchUuid } from '../../lib/search-fields';

export const KINDS = ['issue', 'log', 'metric', 'trace'] as const;

/**
 * `/alerts/new`: the kind to start with and, for a log rule made from the logs explorer
 * ("Create alert from this view"), the explorer's own URL keys, exactly as `/logs` holds them,
 * so a view's link becomes a rule's query without translation by the person.
 */
export const newRuleSearchSchema = z.object({
  kind: searchEnum(KINDS),
  ...logViewKeys,
  metric: lenient(z.string().check(z.minLength(1), z.maxLength(512))),
  /** An issue rule's filters, from an issue's page: its environment and service. */
  issue_environment: searchText(256),
  issue_service: searchText(256),
});
export type NewRuleSearch = z.infer<typeof newRuleSearchSchema>;

/** `/alerts/history`: which incidents. */
export const incidentsSearchSchema = z.object({
  alert_project: searchUuid(),
  state: searchEnum(['firing', 'resolved']),
  rule: searchUuid(),
});
export type IncidentsSearch = z.infer<typeof incidentsSearchSchema>;

/** `/alerts/webhooks`: the organization and the webhook whose deliveries are open. */
export const webhooksSearchSchema = z.object({
  organization: searchUuid(),
  webhook: searchUuid(),
});
export type WebhooksSearch = z.infer<typeof webhooksSearchSchema>;

/** The logs explorer's URL keys, which `/alerts/new` takes as they are. */
export type ExplorerLogSearch = LogViewKeys;

/**
 * The log rule's query: the explorer's URL keys turned into `GET /api/logs`'s keys, the same
 * way the explorer reads its list. A rule counts active logs of any trace: the view's status
 * and trace (`viewOnlyKeys`) are not part of it.
 */
export function logQueryOfSearch(search: ExplorerLogSearch): Record<string, string> {
  return logQueryOfView(search);
}

function parsedFilters(text: string | undefined): AttributeFilter[] | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return undefined;
    const checked = value.map((f) => checkAttributeFilter(f));
    return checked.every((c) => c.ok)
      ? checked.map((c) => (c.ok ? c.filter : null)).filter((f) => f !== null)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The view's filters a log rule cannot hold (said on the new rule's page), in words. */
export function viewOnlyKeys(search: ExplorerLogSearch): string[] {
  const keys: string[] = [];
  if (search.status && search.status !== 'active') keys.push('the triage status');
  if (search.trace_id) keys.push('the trace');
  return keys;
}

/** The explorer's URL keys of a log rule's query (to open it in `/logs`). */
export function explorerSearchOfLogQuery(
  query: Readonly<Record<string, string>>,
): ExplorerLogSearch {
  const severity = (['info', 'warning', 'error', 'critical'] as const).find(
    (s) => s === query.severity,
  );
  const filters = parsedFilters(query.attribute_filters);
  return {
    ...(severity ? { severity } : {}),
    ...(query.search ? { q: query.search } : {}),
    ...(query.service_name ? { service: query.service_name } : {}),
    ...(query.release ? { release: query.release } : {}),
    ...(query.environment ? { environment: query.environment } : {}),
    ...(filters && filters.length > 0 ? { filters } : {}),
  };
}

/** `/alerts`: the project whose rules are listed when the header's scope is not one project. */
export const rulesSearchSchema = z.object({
  alert_project: searchUuid(),
});
export type RulesSearch = z.infer<typeof rulesSearchSchema>;
