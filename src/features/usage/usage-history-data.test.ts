import { describe, expect, it } from 'vitest';
import type { UsageHistory } from '../../api/queries/account';
import {
  bucketLabel,
  historyChartData,
  historyDeploymentScope,
  MAX_SERIES,
  OTHER_KEY,
} from './usage-history-data';

const stream = (kind: string, events: number, bytes: number) => ({ kind, events, bytes });
const bucket = (start: string, end: string, byProject: [string, number, number][]) => ({
  period_start: start,
  period_end: end,
  usage: {
    events: byProject.reduce((n, p) => n + p[1], 0),
    bytes: byProject.reduce((n, p) => n + p[2], 0),
    projects: byProject.filter((p) => p[1] + p[2] > 0).length,
  },
  by_project: byProject.map(([project_id, events, bytes]) => ({ project_id, events, bytes })),
  by_stream: [
    stream(
      'issues',
      byProject.reduce((n, p) => n + p[1], 0),
      0,
    ),
    stream(
      'logs',
      0,
      byProject.reduce((n, p) => n + p[2], 0),
    ),
  ],
});

const history = (projects: string[]) =>
  ({
    interval: 'monthly',
    period_start: '2026-10-01T00:00:00.000Z',
    period_end: '2026-12-01T00:00:00.000Z',
    current: { by_project: projects.map((project_id) => ({ project_id, events: 0, bytes: 0 })) },
    buckets: [
      bucket('2026-10-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z', []),
      bucket(
        '2026-11-01T00:00:00.000Z',
        '2026-12-01T00:00:00.000Z',
        projects.map((p, i) => [p, (i + 1) * 10, (i + 1) * 100] as [string, number, number]),
      ),
    ],
  }) as unknown as UsageHistory;

describe('historyChartData', () => {
  it('keeps an empty bucket as zeros and marks only the last bucket current', () => {
    const { rows, series } = historyChartData(history(['a']), 'total', (id) => id);
    expect(series).toEqual([{ key: 'total', label: 'All streams' }]);
    expect(rows.map((r) => [r.label, r.events.total, r.bytes.total, r.current])).toEqual([
      ['Oct 2026', 0, 0, false],
      ['Nov 2026', 10, 100, true],
    ]);
  });

  it('splits by stream with every stream a series, zero ones too', () => {
    const { rows, series } = historyChartData(history(['a']), 'stream', (id) => id);
    expect(series.map((s) => s.key)).toEqual(['issues', 'logs', 'traces', 'actions', 'metrics']);
    expect(rows[1]?.events).toEqual({ issues: 10, logs: 0, traces: 0, actions: 0, metrics: 0 });
    expect(rows[1]?.bytes.logs).toBe(100);
  });

  it('names projects by id, most used first, and adds up the rest as other projects', () => {
    const ids = Array.from({ length: MAX_SERIES + 2 }, (_, i) => `p${i}`);
    const { rows, series } = historyChartData(history(ids), 'project', (id) => `Project ${id}`);
    expect(series).toHaveLength(MAX_SERIES);
    expect(series[0]).toEqual({ key: 'p9', label: 'Project p9' });
    expect(series.at(-1)).toEqual({ key: OTHER_KEY, label: 'Other projects (3)' });
    // p0, p1 and p2 are the smallest: 10 + 20 + 30 events.
    expect(rows[1]?.events[OTHER_KEY]).toBe(60);
    const sum = Object.values(rows[1]?.events ?? {}).reduce((n, v) => n + v, 0);
    expect(sum).toBe(rows[1]?.totalEvents);
  });
});

describe('bucketLabel', () => {
  it('names buckets per interval in UTC', () => {
    expect(bucketLabel('2026-11-02T00:00:00.000Z', 'weekly')).toBe('wk of 2 Nov');
    expect(bucketLabel('2026-01-01T00:00:00.000Z', 'yearly')).toBe('2026');
    expect(bucketLabel('2026-02-28T00:00:00.000Z', 'daily')).toBe('28 Feb');
  });
});

describe('historyDeploymentScope', () => {
  it('marks the deployments of the projects with usage, from the first bucket, on days and weeks', () => {
    const monthly = history(['b', 'a']);
    expect(historyDeploymentScope(monthly)).toEqual({
      marked: false,
      since: '2026-10-01T00:00:00.000Z',
      projectIds: ['a', 'b'],
    });
    const weekly = { ...monthly, interval: 'weekly' } as UsageHistory;
    expect(historyDeploymentScope(weekly).marked).toBe(true);
    expect(historyDeploymentScope({ ...monthly, interval: 'daily' } as UsageHistory).marked).toBe(
      true,
    );
  });
});
