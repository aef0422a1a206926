import type { ActionListQuery, ActionRecord } from '../../core/store/telemetry/actions';
import { timeListPageStatement } from './conditions';
import type { SqlFragment } from './sql';

/**
 * An action as both stores read it: the column list is the same SQL in SQLite and
 * PostgreSQL, the mapper turns a row into the record every action read returns.
 */
export const ACTION_COLUMNS = `id, project_id, occurred_at, name, kind, distinct_id, session_id,
  properties, environment, release, service_name, trace_id, span_id, sdk_name, sdk_version`;

export type ActionDbRow = {
  id: string;
  project_id: string;
  occurred_at: number;
  name: string;
  kind: ActionRecord['actionKind'];
  distinct_id: string;
  session_id: string | null;
  properties: string;
  environment: string;
  release: string;
  service_name: string;
  trace_id: string | null;
  span_id: string | null;
  sdk_name: string;
  sdk_version: string;
};

export const toAction = (r: ActionDbRow): ActionRecord => ({
  id: r.id,
  projectId: r.project_id,
  occurredAt: r.occurred_at,
  name: r.name,
  actionKind: r.kind,
  distinctId: r.distinct_id,
  sessionId: r.session_id,
  properties: JSON.parse(r.properties) as Record<string, unknown>,
  environment: r.environment,
  release: r.release,
  service_name: r.service_name,
  traceId: r.trace_id,
  spanId: r.span_id,
  sdk: { name: r.sdk_name, version: r.sdk_version },
});

/** One project's page of the action list (see `timeListPageStatement`). */
export const actionPageStatement = (projectId: string, q: ActionListQuery): SqlFragment =>
  timeListPageStatement('actions', ACTION_COLUMNS, projectId, q, [
    ['name', q.name],
    ['distinct_id', q.distinctId],
    ['service_name', q.serviceName],
    ['release', q.release],
    ['environment', q.environment],
  ]);
