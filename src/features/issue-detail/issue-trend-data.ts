import type { IssueDetail } from '../../api/queries/issue-detail';
import type { IssueHistograms } from '../../api/queries/issues';
import { formatShortUtc } from '../../lib/format-short-time';
import { utcTimeTicks } from '../../lib/time-ticks';
import type { DeploymentScope } from '../../widgets/deployment-marks/deployment-markers';
import { bucketUnit } from '../../ui/sparkline';

/** One bar: its bucket (epoch ms, end exclusive), where it is drawn and what it counts. */
export type TrendBar = { x: number; start: number; end: number; count: number };

export type IssueTrend = {
  bars: TrendBar[];
  /** The time axis: the answer's range, widened to whole buckets so every bar is whole. */
  domain: [number, number];
  ticks: number[];
  span: number;
  total: number;
  peak: number;
  bucketSeconds: number;
  /** The answer's range as the service widened it (RFC3339), for the deployments read. */
  since: string;
  until: string;
};

/**
 * The histogram answer → the bars of one issue: one per bucket, oldest first, drawn at the
 * middle of a whole bucket so a deployment at a bucket's time falls on that bucket's bar. The
 * last bucket may be shorter (it ends at the answer's `until`); its bar keeps the common width
 * and its words say its real end. An issue absent from the answer has no events to draw.
 */
export function issueTrend(answer: IssueHistograms, issueId: string): IssueTrend {
  const counts = answer.issues.find((h) => h.issue_id === issueId)?.counts ?? [];
  const since = Date.parse(answer.since);
  const until = Date.parse(answer.until);
  const size = Math.max(1, answer.bucket_seconds) * 1000;
  const bars = counts.map((count, i) => {
    const start = since + i * size;
    return { x: start + size / 2, start, end: Math.min(start + size, until), count };
  });
  const end = Math.max(until, since + bars.length * size);
  return {
    bars,
    domain: [since, end],
    ticks: utcTimeTicks(since, end, 6),
    span: end - since,
    total: counts.reduce((sum, n) => sum + n, 0),
    peak: counts.reduce((max, n) => Math.max(max, n), 0),
    bucketSeconds: answer.bucket_seconds,
    since: answer.since,
    until: answer.until,
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A bucket in words: `26 Nov 10:00–11:00 UTC`, or both dates when it crosses midnight. */
export function bucketRangeText(start: number, end: number): string {
  const from = formatShortUtc(new Date(start).toISOString());
  const a = new Date(start);
  const b = new Date(end);
  const sameDay =
    a.getUTCFullYear() === b.getUTCFullYear() &&
    a.getUTCMonth() === b.getUTCMonth() &&
    a.getUTCDate() === b.getUTCDate();
  const to = sameDay
    ? `${pad(b.getUTCHours())}:${pad(b.getUTCMinutes())}`
    : formatShortUtc(b.toISOString());
  return `${from}–${to} UTC`;
}

/** `1 event`, `1,204 events`. */
export const eventCount = (n: number) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? 'event' : 'events'}`;

/** What one bar counts: `bars per hour`, `bars per 7 hours`. */
export const barWords = (bucketSeconds: number) => `bars per ${bucketUnit(bucketSeconds)}`;

/**
 * The chart's accessible name: what it counts over which range, the total and the busiest
 * bar (the list of deployments is reachable through its own button).
 */
export function trendLabel(trend: IssueTrend, rangeWords: string): string {
  const what = `Events of this issue, ${rangeWords}, ${barWords(trend.bucketSeconds)}`;
  if (trend.total === 0) return `${what}: none`;
  return `${what}: ${eventCount(trend.total)}, at most ${trend.peak.toLocaleString('en-US')} per ${bucketUnit(trend.bucketSeconds)}`;
}

/**
 * The deployments an issue's chart marks: those of the service that threw, to the environment
 * it threw in (any release), in its project. A deployment elsewhere does not explain it.
 */
export function issueDeploymentScope(
  issue: Pick<IssueDetail, 'project_id' | 'service_name' | 'environment'>,
): DeploymentScope {
  return {
    projectIds: [issue.project_id],
    serviceName: issue.service_name,
    environment: issue.environment,
  };
}
