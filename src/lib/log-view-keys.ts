import { z } from 'zod/mini';
import {
  attributeFiltersProblem,
  checkAttributeFilter,
  serializeAttributeFilters,
  type AttributeFilter,
} from './attribute-filter';
import { lenient, searchEnum, searchText } from './search-fields';

const filterSchema = z.custom<AttributeFilter>((value) => checkAttributeFilter(value).ok);

/**
 * The URL keys of a logs view: which logs the explorer lists, and which a log alert rule
 * counts when made from that view (`/alerts/new` takes them as `/logs` holds them).
 * Attribute filters the service would refuse are dropped as a set, never one by one (a
 * partial set would widen the result silently).
 */
export const logViewKeys = {
  severity: searchEnum(['info', 'warning', 'error', 'critical']),
  status: searchEnum(['active', 'ignored', 'all']),
  q: searchText(512),
  service: searchText(256),
  release: searchText(256),
  environment: searchText(256),
  trace_id: searchText(128),
  filters: lenient(
    z.array(filterSchema).check(
      z.minLength(1),
      z.refine((fs) => attributeFiltersProblem(fs) === null),
    ),
  ),
};

export type LogViewKeys = z.infer<z.ZodMiniObject<typeof logViewKeys>>;

/** `GET /api/logs`'s keys for the view's narrowing filters, other than status and trace. */
export function logQueryOfView(view: LogViewKeys): {
  severity?: NonNullable<LogViewKeys['severity']>;
  search?: string;
  service_name?: string;
  release?: string;
  environment?: string;
  attribute_filters?: string;
} {
  return {
    ...(view.severity ? { severity: view.severity } : {}),
    ...(view.q ? { search: view.q } : {}),
    ...(view.service ? { service_name: view.service } : {}),
    ...(view.release ? { release: view.release } : {}),
    ...(view.environment ? { environment: view.environment } : {}),
    ...(view.filters && view.filters.length > 0
      ? { attribute_filters: serializeAttributeFilters(view.filters) }
      : {}),
  };
}
