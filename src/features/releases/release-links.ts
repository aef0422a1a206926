import type { ReleaseRow } from '../../api/queries/releases';

/**
 * The searches of the console's list pages showing exactly this row's signals: its project,
 * release, environment and service, from its first event on (absolute `since`, no `until`).
 * Issues of every status are listed.
 */
export function releaseListSearches(row: ReleaseRow) {
  const common = {
    project: row.project_id,
    projects: undefined,
    since: row.first_seen_at,
    until: undefined,
    release: row.release,
    environment: row.environment,
    service: row.service_name,
  };
  return {
    issues: { ...common, status: 'all' as const },
    traces: common,
    logs: common,
  };
}

/** The exact filters of this row's in-page reads (the same the list pages send). */
export function releaseReadFilters(row: ReleaseRow) {
  return {
    project_id: row.project_id,
    since: row.first_seen_at,
    release: row.release,
    environment: row.environment,
    service_name: row.service_name,
  };
}
