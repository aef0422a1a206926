import { describe, expect, it } from 'vitest';
import type { TraceSummary } from './traces';
import { combineTraceSummaries } from './trace-summaries';

const span = (span_id: string, started_at: string) => ({
  span_id,
  parent_span_id: null,
  name: span_id,
  service_name: 'web',
  operation: null,
  kind: null,
  started_at,
  duration_ms: 1,
  status: null,
  status_message: null,
});

const summary = (over: Partial<TraceSummary>): TraceSummary => ({
  schema_version: 1,
  trace_id: 'a'.repeat(32),
  project_ids: [],
  started_at: '2026-01-01T00:00:00.000Z',
  ended_at: '2026-01-01T00:00:01.000Z',
  duration_ms: 1000,
  span_count: 1,
  error_span_count: 0,
  service_count: 1,
  root_span: null,
  root_span_missing: false,
  orphan_span_count: 0,
  error_spans: [],
  slowest_path: [],
  services: [],
  releases: [],
  environments: [],
  issues: [],
  ...over,
});

describe('combineTraceSummaries', () => {
  it('returns a single summary unchanged', () => {
    const one = summary({ slowest_path: [span('r', '2026-01-01T00:00:00.000Z')] });
    expect(combineTraceSummaries([one])).toBe(one);
  });

  it('adds up the parts of several projects and leaves the slowest path to the spans', () => {
    const a = summary({
      project_ids: ['p1'],
      root_span: span('root', '2026-01-01T00:00:00.000Z'),
      span_count: 3,
      error_span_count: 1,
      services: [{ service_name: 'web', span_count: 3, error_span_count: 1 }],
      releases: ['r2'],
      issues: [
        {
          issue_id: 'i1',
          project_id: 'p1',
          title: 'older',
          occurrence_id: 'o1',
          span_id: null,
          occurred_at: '2026-01-01T00:00:00.500Z',
        },
      ],
      slowest_path: [span('root', '2026-01-01T00:00:00.000Z')],
    });
    const b = summary({
      project_ids: ['p2'],
      started_at: '2026-01-01T00:00:00.200Z',
      ended_at: '2026-01-01T00:00:03.000Z',
      root_span: span('child', '2026-01-01T00:00:00.200Z'),
      root_span_missing: true,
      span_count: 2,
      services: [
        { service_name: 'web', span_count: 1, error_span_count: 0 },
        { service_name: 'db', span_count: 1, error_span_count: 0 },
      ],
      releases: ['r1'],
      issues: [
        {
          issue_id: 'i2',
          project_id: 'p2',
          title: 'newer',
          occurred_at: '2026-01-01T00:00:00.900Z',
          occurrence_id: 'o2',
          span_id: null,
        },
      ],
    });
    const out = combineTraceSummaries([a, b]);
    expect(out.project_ids).toEqual(['p1', 'p2']);
    expect(out.span_count).toBe(5);
    expect(out.error_span_count).toBe(1);
    expect(out.duration_ms).toBe(3000);
    expect(out.root_span?.span_id).toBe('root');
    expect(out.root_span_missing).toBe(false);
    expect(out.service_count).toBe(2);
    expect(out.services).toContainEqual({
      service_name: 'web',
      span_count: 4,
      error_span_count: 1,
    });
    expect(out.releases).toEqual(['r1', 'r2']);
    expect(out.issues.map((i) => i.title)).toEqual(['newer', 'older']);
    expect(out.slowest_path).toEqual([]);
  });
});
