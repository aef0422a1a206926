import type { StreamKind, UsageHistory, UsageInterval } from '../../api/queries/account';
import type { HistorySplit } from './usage-search';

/** At most this many series per chart; the rest of the projects are added up as one. */
export const MAX_SERIES = 8;
export const OTHER_KEY = 'other';

export const STREAM_LABELS: Record<StreamKind, string> = {
  issues: 'Issues',
  logs: 'Logs',
  traces: 'Traces',
  actions: 'Actions',
  metrics: 'Metrics',
};

export type HistorySeries = { key: string; label: string };

export type HistoryRow = {
  /** Bucket start, epoch ms. */
  x: number;
  start: string;
  end: string;
  label: string;
  /** The current calendar period: still counting. */
  current: boolean;
  events: Record<string, number>;
  bytes: Record<string, number>;
  totalEvents: number;
  totalBytes: number;
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A bucket's name on the axis, in UTC: `3 Nov`, `wk of 2 Nov`, `Nov 2026`, `2026`. */
export function bucketLabel(startIso: string, interval: UsageInterval): string {
  const d = new Date(startIso);
  const day = d.getUTCDate();
  const month = MONTHS[d.getUTCMonth()] ?? '';
  switch (interval) {
    case 'daily':
      return `${day} ${month}`;
    case 'weekly':
      return `wk of ${day} ${month}`;
    case 'monthly':
      return `${month} ${d.getUTCFullYear()}`;
    case 'yearly':
      return String(d.getUTCFullYear());
  }
}

/**
 * The history as chart rows, oldest first as the service sends them. A bucket without usage
 * stays a row of zeros (drawn as zero, never left out); the last bucket is the current,
 * unfinished period. Split by stream, every stream is a series; split by project, the projects
 * with the most events over the window are series (names from `projectName`, matched by id)
 * and any beyond `MAX_SERIES - 1` are added up as "Other projects".
 */
export function historyChartData(
  history: UsageHistory,
  split: HistorySplit,
  projectName: (id: string) => string,
): { rows: HistoryRow[]; series: HistorySeries[] } {
  let series: HistorySeries[];
  let keyOf: (id: string) => string = (id) => id;
  if (split === 'total') {
    series = [{ key: 'total', label: 'All streams' }];
  } else if (split === 'stream') {
    series = (Object.keys(STREAM_LABELS) as StreamKind[]).map((k) => ({
      key: k,
      label: STREAM_LABELS[k],
    }));
  } else {
    const totals = new Map<string, number>();
    for (const b of history.buckets)
      for (const p of b.by_project)
        totals.set(p.project_id, (totals.get(p.project_id) ?? 0) + p.events + p.bytes);
    for (const p of history.current.by_project)
      if (!totals.has(p.project_id)) totals.set(p.project_id, 0);
    const ranked = [...totals.entries()]
      .sort((a, b) => b[1] - a[1] || projectName(a[0]).localeCompare(projectName(b[0])))
      .map(([id]) => id);
    const shown = ranked.length > MAX_SERIES ? ranked.slice(0, MAX_SERIES - 1) : ranked;
    const shownSet = new Set(shown);
    series = shown.map((id) => ({ key: id, label: projectName(id) }));
    if (shown.length < ranked.length) {
      series.push({ key: OTHER_KEY, label: `Other projects (${ranked.length - shown.length})` });
      keyOf = (id) => (shownSet.has(id) ? id : OTHER_KEY);
    }
  }
  const last = history.buckets.length - 1;
  const rows = history.buckets.map((b, i): HistoryRow => {
    const events: Record<string, number> = {};
    const bytes: Record<string, number> = {};
    for (const s of series) {
      events[s.key] = 0;
      bytes[s.key] = 0;
    }
    const add = (key: string, e: number, by: number) => {
      events[key] = (events[key] ?? 0) + e;
      bytes[key] = (bytes[key] ?? 0) + by;
    };
    if (split === 'total') add('total', b.usage.events, b.usage.bytes);
    else if (split === 'stream') for (const s of b.by_stream) add(s.kind, s.events, s.bytes);
    else for (const p of b.by_project) add(keyOf(p.project_id), p.events, p.bytes);
    return {
      x: Date.parse(b.period_start),
      start: b.period_start,
      end: b.period_end,
      label: bucketLabel(b.period_start, history.interval),
      current: i === last,
      events,
      bytes,
      totalEvents: b.usage.events,
      totalBytes: b.usage.bytes,
    };
  });
  return { rows, series };
}

/**
 * What deployment marks fit the history: the projects with usage in it, from its first bucket
 * on. Only day and week bars: on a month or year bar a mark says little and crowds it.
 */
export function historyDeploymentScope(history: UsageHistory): {
  marked: boolean;
  since: string;
  projectIds: string[];
} {
  const ids = new Set<string>();
  for (const b of history.buckets) for (const p of b.by_project) ids.add(p.project_id);
  return {
    marked: history.interval === 'daily' || history.interval === 'weekly',
    since: history.buckets[0]?.period_start ?? new Date(0).toISOString(),
    projectIds: [...ids].sort(),
  };
}
