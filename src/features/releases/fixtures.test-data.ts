import type { Deployment, ReleaseRow } from '../../api/queries/releases';

export const P1 = '0f8fad5b-d9cb-469f-a165-70867728950e';
export const P2 = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

export function row(overrides: Partial<ReleaseRow> = {}): ReleaseRow {
  return {
    project_id: P1,
    release: 'api@1.0.0',
    environment: 'production',
    service_name: 'api',
    issue_count: 0,
    log_count: 0,
    trace_span_count: 0,
    action_count: 0,
    metric_count: 0,
    first_seen_at: '2026-11-01T00:00:00.000Z',
    last_seen_at: '2026-11-02T00:00:00.000Z',
    trace_health: {
      status: 'unknown',
      trace_count: 0,
      error_trace_count: 0,
      error_rate_basis_points: 0,
    },
    next_action: { code: 'review_release_telemetry', target: 'telemetry_reads' },
    ...overrides,
  };
}

export function deployment(overrides: Partial<Deployment> = {}): Deployment {
  return {
    deployment_id: 'd1',
    project_id: P1,
    release: 'api@1.0.0',
    environment: 'production',
    service_name: 'api',
    status: 'succeeded',
    started_at: '2026-11-01T00:00:00.000Z',
    finished_at: '2026-11-01T00:05:00.000Z',
    commit_sha: '0123456789abcdef0123456789abcdef01234567',
    created_at: '2026-11-01T00:05:01.000Z',
    ...overrides,
  };
}
