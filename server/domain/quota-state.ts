import { LIMIT_NAMES, limitAmount, type LimitName, type UsageByStream } from './usage';

/**
 * Quota state of account usage (spec: Quota state). It reads the same allowances and the
 * same amounts (`limitAmount`) that ingestion checks with `exceededLimit`, so the state shown
 * and the `429` given never disagree.
 */
export const QUOTA_STATES = ['ok', 'warning', 'blocked'] as const;
export type QuotaState = (typeof QUOTA_STATES)[number];

/** The groups account usage names in `limit`. */
export const QUOTA_GROUPS = ['events', 'bytes'] as const;
export type QuotaGroup = (typeof QUOTA_GROUPS)[number];

export const groupOf: Record<LimitName, QuotaGroup> = {
  issue_events: 'events',
  trace_spans: 'events',
  log_bytes: 'bytes',
  metric_bytes: 'bytes',
};

/** The spec leaves the threshold to us: warning starts at 80% of a limit. */
export const WARNING_THRESHOLD = 0.8;

/** Share of one allowance in use; an allowance of 0 is full from the start. */
export function shareUsed(amount: number, quota: number): number {
  return quota <= 0 ? 1 : amount / quota;
}

/**
 * Blocked once a limit is used up: ingestion refuses any batch that adds to a limit past its
 * allowance (`exceededLimit`), so at `amount >= quota` nothing more of that type gets in.
 */
function stateOf(share: number, threshold: number): QuotaState {
  if (share >= 1) return 'blocked';
  if (share >= threshold) return 'warning';
  return 'ok';
}

const rank: Record<QuotaState, number> = { ok: 0, warning: 1, blocked: 2 };

export type QuotaReading = {
  state: QuotaState;
  /** `null` only when `ok`; a blocked limit is named before a warning one. */
  limit: QuotaGroup | null;
  /** Highest share of any limit, in percent, rounded down (so 100 only when used up). */
  percentUsed: number;
};

export function readQuota(
  usage: UsageByStream,
  quotas: Record<LimitName, number>,
  threshold = WARNING_THRESHOLD,
): QuotaReading {
  let state: QuotaState = 'ok';
  let limit: QuotaGroup | null = null;
  let worstShare = 0;
  let highest = 0;
  for (const name of LIMIT_NAMES) {
    const share = shareUsed(limitAmount(name, usage), quotas[name]);
    highest = Math.max(highest, share);
    const s = stateOf(share, threshold);
    // The worse state wins; within one state the fuller limit; a tie keeps the first group.
    if (s !== 'ok' && (rank[s] > rank[state] || (s === state && share > worstShare))) {
      state = s;
      limit = groupOf[name];
      worstShare = share;
    }
  }
  return { state, limit, percentUsed: Math.floor(highest * 100 + 1e-9) };
}
