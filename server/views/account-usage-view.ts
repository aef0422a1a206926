import type { PlanQuota } from '../domain/plans';
import { readQuota, WARNING_THRESHOLD, type QuotaReading } from '../domain/quota-state';
import { accessStateOf, planStatusOf, type Subscription } from '../domain/subscription';
import { STREAMS, type UsageByStream } from '../domain/usage';
import type { DailyUsageRow, DroppedEventsRow } from '../core/store/state/usage';

const iso = (ms: number) => new Date(ms).toISOString();

export type UsageRowsView = {
  by_project: { project_id: string; events: number; bytes: number }[];
  by_stream: { kind: (typeof STREAMS)[number]; events: number; bytes: number }[];
};

/** Rows per owned project (zero rows included, in `projectIds` order) and per stream (all five). */
export function usageRows(
  projectIds: readonly string[],
  rows: readonly Omit<DailyUsageRow, 'day'>[],
): UsageRowsView & { projectsWithUsage: number } {
  const byProject = new Map(projectIds.map((id) => [id, { events: 0, bytes: 0 }]));
  const byStream = new Map(STREAMS.map((k) => [k, { events: 0, bytes: 0 }]));
  for (const r of rows) {
    const p = byProject.get(r.projectId);
    // Usage of a project no longer owned is not the account's to show.
    if (!p) continue;
    p.events += r.events;
    p.bytes += r.bytes;
    const s = byStream.get(r.stream);
    if (s) {
      s.events += r.events;
      s.bytes += r.bytes;
    }
  }
  return {
    by_project: [...byProject].map(([project_id, u]) => ({ project_id, ...u })),
    by_stream: [...byStream].map(([kind, u]) => ({ kind, ...u })),
    projectsWithUsage: [...byProject.values()].filter((u) => u.events > 0).length,
  };
}

function quotaNext(q: QuotaReading, reset: string): string {
  switch (q.state) {
    case 'ok':
      return `Usage is below ${WARNING_THRESHOLD * 100}% of every allowance; keep sending telemetry.`;
    case 'warning':
      return `Usage reached ${q.percentUsed}% of an ${q.limit ?? ''} allowance. Reduce what you send or change the plan; the allowance resets at ${reset}.`;
    case 'blocked':
      return `An ${q.limit ?? ''} allowance is used up: telemetry of that type is refused (429 usage_limit_exceeded) until ${reset}. Wait for the reset or change the plan.`;
  }
}

/**
 * The quota's step, and what a paused subscription changes: ingestion goes on within the
 * allowances (the spec's only ingestion refusal is the usage limit), while the writes the
 * subscription gates are refused, as subscription readiness and those routes say.
 */
function nextText(q: QuotaReading, reset: string, s: Subscription): string {
  const quota = quotaNext(q, reset);
  if (accessStateOf(s.state) === 'active') return quota;
  return `${quota} The subscription is ${s.state.replace('_', ' ')}: telemetry is still received within the allowances, but new organizations, projects and ingest keys are refused until it is resumed.`;
}

const actions = {
  ok: { code: 'continue_sending_telemetry', target: 'telemetry_ingest' },
  warning: { code: 'reduce_usage_or_upgrade', target: 'pricing' },
  blocked: { code: 'wait_until_reset_or_upgrade', target: 'pricing' },
} as const;

export type AccountUsageInput = {
  period: { start: number; end: number };
  subscription: Subscription;
  quota: PlanQuota;
  /** Totals per stream in the period: the same read ingestion checks its quota against. */
  usage: UsageByStream;
  ownedProjects: readonly string[];
  /** The owned projects' counters in the period, for `by_project`. */
  daily: readonly DailyUsageRow[];
  /** Version 2 only: dropped-event rows of the period; null leaves the field out. */
  dropped: readonly DroppedEventsRow[] | null;
};

/** The account usage response (spec: Account usage, Quota state). */
export function accountUsageView(input: AccountUsageInput) {
  const { period, subscription, quota, usage } = input;
  const reset = iso(period.end);
  const q = readQuota(usage, quota);
  const rows = usageRows(input.ownedProjects, input.daily);
  const totals = STREAMS.reduce(
    (t, k) => ({ events: t.events + usage[k].events, bytes: t.bytes + usage[k].bytes }),
    { events: 0, bytes: 0 },
  );
  return {
    period_start: iso(period.start),
    period_end: reset,
    reset_at: reset,
    plan: { tier: subscription.tier, status: planStatusOf(subscription.state) },
    limits: { events: null, bytes: null, projects: null, retention_days: quota.retention_days },
    usage: { ...totals, projects: input.ownedProjects.length },
    state: q.state,
    warning_threshold: WARNING_THRESHOLD,
    percent_used: q.percentUsed,
    warning: q.state === 'warning',
    blocked: q.state === 'blocked',
    limit: q.limit,
    next: nextText(q, reset, subscription),
    next_action: { ...actions[q.state], state: q.state, limit: q.limit, reset_at: reset },
    by_project: rows.by_project,
    by_stream: rows.by_stream,
    ...(input.dropped === null
      ? {}
      : {
          sdk_dropped_events: input.dropped.map((d) => ({
            project_id: d.projectId,
            reason: d.reason,
            events: d.events,
          })),
        }),
  };
}
