import type { Deployment, ReleaseRow } from '../../api/queries/releases';
import { byFinishDesc, serviceTimeline } from './deployment-match';
import { sameRelease } from './release-view';

const time = (iso: string) => Date.parse(iso);

/**
 * The release this one is compared with, and how it was chosen:
 * - `deployment`: the release of the last succeeded deployment of the same project,
 *   environment and service that finished before the first succeeded deployment of this
 *   release (and is of another release);
 * - `activity`: without such deployments, the release row of the same project, environment
 *   and service with the latest `last_seen_at` before this row's `first_seen_at`.
 */
export type PreviousRelease =
  | { basis: 'deployment'; release: string; deployment: Deployment; row: ReleaseRow | null }
  | { basis: 'activity'; release: string; row: ReleaseRow };

export function previousRelease(
  row: ReleaseRow,
  siblings: readonly ReleaseRow[],
  deployments: readonly Deployment[],
): PreviousRelease | null {
  const rowOf = (release: string) =>
    siblings.find((s) => sameRelease(s, { ...row, release })) ?? null;

  const succeeded = serviceTimeline(row, deployments).filter((d) => d.status === 'succeeded');
  // Newest first: the last of this release's is the one that first put it out.
  const own = succeeded.filter((d) => d.release === row.release);
  const introduced = own[own.length - 1];
  if (introduced !== undefined) {
    const before = succeeded
      .filter(
        (d) => d.release !== row.release && time(d.finished_at) < time(introduced.finished_at),
      )
      .sort(byFinishDesc)[0];
    if (before !== undefined) {
      return {
        basis: 'deployment',
        release: before.release,
        deployment: before,
        row: rowOf(before.release),
      };
    }
  }

  let best: ReleaseRow | null = null;
  for (const s of siblings) {
    if (
      s.project_id !== row.project_id ||
      s.environment !== row.environment ||
      s.service_name !== row.service_name ||
      s.release === row.release
    )
      continue;
    if (time(s.last_seen_at) >= time(row.first_seen_at)) continue;
    if (best === null || time(s.last_seen_at) > time(best.last_seen_at)) best = s;
  }
  return best === null ? null : { basis: 'activity', release: best.release, row: best };
}

/**
 * The change of the share of traces with an error span, in percentage points (this minus
 * the previous), or why there is none.
 */
export type ErrorShareChange =
  | { kind: 'change'; points: number; current: number; previous: number }
  | { kind: 'no-traces'; which: 'current' | 'previous' | 'both' };

export function errorShareChange(
  current: Pick<ReleaseRow, 'trace_health'>,
  previous: Pick<ReleaseRow, 'trace_health'>,
): ErrorShareChange {
  const cur = current.trace_health;
  const prev = previous.trace_health;
  const curNone = cur.status === 'unknown' || cur.trace_count === 0;
  const prevNone = prev.status === 'unknown' || prev.trace_count === 0;
  if (curNone || prevNone) {
    return {
      kind: 'no-traces',
      which: curNone && prevNone ? 'both' : curNone ? 'current' : 'previous',
    };
  }
  return {
    kind: 'change',
    points: (cur.error_rate_basis_points - prev.error_rate_basis_points) / 100,
    current: cur.error_rate_basis_points,
    previous: prev.error_rate_basis_points,
  };
}

type IssueLike = { id: string; first_seen_at: string };

/**
 * When a release of a service first sent anything, in any environment of its project: the
 * earliest `first_seen_at` of its rows (an issue group spans environments, so one first seen
 * in staging is not new in production).
 */
export function releaseStart(row: ReleaseRow, releaseRows: readonly ReleaseRow[]): string {
  let start = row.first_seen_at;
  for (const r of releaseRows) {
    if (
      r.project_id === row.project_id &&
      r.release === row.release &&
      r.service_name === row.service_name &&
      time(r.first_seen_at) < time(start)
    )
      start = r.first_seen_at;
  }
  return start;
}

/**
 * New issues of a release, from what the issue lists give: an issue the list of this
 * release shows (its latest occurrence is in it), first seen at or after the release's
 * start (`releaseStart`), and not shown by the previous release's list.
 */
export function newIssues<T extends IssueLike>(
  start: string,
  current: readonly T[],
  previous: readonly IssueLike[],
): T[] {
  const before = new Set(previous.map((i) => i.id));
  const from = time(start);
  return current.filter((i) => !before.has(i.id) && time(i.first_seen_at) >= from);
}
