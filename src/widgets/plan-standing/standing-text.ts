import type { AccountUsage, SubscriptionReadiness } from '../../api/queries/account';
import { formatPercentUsed } from '../../lib/format-share';

/**
 * What the account can do now and which period is which, worded from the typed fields of the
 * two account reads (subscription readiness and account usage), never from their `next`. Usage
 * and Plan both show this, so the two pages tell one story for every plan state.
 */

export type StandingTone = 'allowed' | 'limited' | 'refused';

export type StandingRow = {
  /** What the row is about, e.g. "New projects". */
  action: string;
  /** One or two words, e.g. "Allowed", "Paused". */
  status: string;
  tone: StandingTone;
  detail: string;
};

type Readiness = Pick<
  SubscriptionReadiness,
  | 'tier'
  | 'state'
  | 'access_state'
  | 'organization_creation_allowed'
  | 'organization_creation_blocker'
  | 'limits'
>;
type Usage = Pick<
  AccountUsage,
  'state' | 'limit' | 'percent_used' | 'warning_threshold' | 'reset_at' | 'period_start' | 'usage'
>;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `26 Nov 2026` (UTC): period boundaries are whole days. Unreadable input is shown as is. */
export function formatUtcDay(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()] ?? ''} ${d.getUTCFullYear()}`;
}

const STATE_NAMES: Record<SubscriptionReadiness['state'], string> = {
  free: 'free',
  trialing: 'trialing',
  active: 'active',
  past_due: 'past due',
  paused: 'paused',
  canceled: 'canceled',
};

const GROUP_WORDS: Record<NonNullable<AccountUsage['limit']>, string> = {
  events: 'issue events and trace spans',
  bytes: 'log bytes and metric bytes',
};

const paused = (r: Readiness) => r.access_state === 'paused';
const pausedRow = (action: string, r: Readiness): StandingRow => ({
  action,
  status: 'Paused',
  tone: 'refused',
  detail: `The subscription is ${STATE_NAMES[r.state]}; refused until it is resumed.`,
});
const notOnFree = (action: string, detail: string): StandingRow => ({
  action,
  status: 'Not on this plan',
  tone: 'refused',
  detail,
});

function telemetryRow(r: Readiness, u: Usage): StandingRow {
  const action = 'Sending telemetry';
  const reset = formatUtcDay(u.reset_at);
  const notStopped = paused(r) ? ' A paused subscription does not stop it.' : '';
  const used = formatPercentUsed(u.percent_used, u.usage);
  switch (u.state) {
    case 'ok':
      return {
        action,
        status: 'Accepted',
        tone: 'allowed',
        detail: `Every allowance is below ${Math.round(u.warning_threshold * 100)}%; the fullest is at ${used}.${notStopped}`,
      };
    case 'warning':
      return {
        action,
        status: 'Accepted',
        tone: 'limited',
        detail: `${used} of the ${u.limit ? GROUP_WORDS[u.limit] : ''} allowance is used; at 100% it is refused until ${reset}.${notStopped}`,
      };
    case 'blocked':
      return {
        action,
        status: 'Partly refused',
        tone: 'refused',
        detail: `${u.limit ? `New ${GROUP_WORDS[u.limit]}` : 'The exceeded type'} refused (429 usage_limit_exceeded) until ${reset}; other types are accepted.${notStopped}`,
      };
  }
}

function organizationsRow(r: Readiness): StandingRow {
  const action = 'New organizations';
  const limit = r.limits.organizations;
  if (r.organization_creation_allowed)
    return {
      action,
      status: 'Allowed',
      tone: 'allowed',
      detail: `This account may own up to ${limit}.`,
    };
  switch (r.organization_creation_blocker) {
    case 'subscription_inactive':
      return pausedRow(action, r);
    case 'organization_limit_exceeded':
      return {
        action,
        status: 'At the limit',
        tone: 'refused',
        detail: `This account owns the ${limit} the plan allows.`,
      };
    case 'subscription_required':
    case null:
      return notOnFree(action, 'The free plan allows no organizations of your own.');
  }
}

function projectsRow(r: Readiness): StandingRow {
  const action = 'New projects';
  const limit = r.limits.projects_per_organization;
  if (paused(r)) return pausedRow(action, r);
  if (limit === 0)
    return notOnFree(
      action,
      'The free plan allows none in organizations you own; existing projects keep receiving telemetry.',
    );
  return {
    action,
    status: 'Allowed',
    tone: 'allowed',
    detail: `Up to ${limit} in each organization you own.`,
  };
}

function ingestKeysRow(r: Readiness): StandingRow {
  const action = 'New ingest keys';
  if (paused(r)) return pausedRow(action, r);
  return {
    action,
    status: 'Allowed',
    tone: 'allowed',
    detail: 'For the projects of organizations you own; keys count toward no limit.',
  };
}

/** The account's standing, row by row: telemetry first, then each gated write. */
export function standingRows(r: Readiness, u: Usage): StandingRow[] {
  return [telemetryRow(r, u), organizationsRow(r), projectsRow(r), ingestKeysRow(r)];
}

export type PeriodText = { label: string; range: string | null; detail: string };

type PeriodReadiness = Pick<
  SubscriptionReadiness,
  | 'state'
  | 'billing_interval'
  | 'current_period_start'
  | 'current_period_end'
  | 'renews_at'
  | 'cancels_at'
>;

const range = (start: string, end: string) => `${formatUtcDay(start)} – ${formatUtcDay(end)}`;

/**
 * The two periods, which differ on purpose: allowances count per calendar month for every plan,
 * while a paid plan's billing period starts on the day the plan started.
 */
export function periodTexts(
  r: PeriodReadiness,
  u: Pick<AccountUsage, 'period_start' | 'period_end'>,
): { usage: PeriodText; billing: PeriodText } {
  const usage: PeriodText = {
    label: 'Usage period',
    range: range(u.period_start, u.period_end),
    detail: `The calendar month (UTC). Allowances are counted in it and reset on ${formatUtcDay(u.period_end)}, on every plan; Usage shows this period.`,
  };
  const start = r.current_period_start;
  const end = r.current_period_end;
  if (start === null || end === null)
    return {
      usage,
      billing: {
        label: 'Billing period',
        range: null,
        detail: 'None: the free plan is not billed, so only the usage period applies.',
      },
    };
  const every = r.billing_interval === 'yearly' ? 'every year' : 'every month';
  const notReset = 'It does not reset allowances.';
  const detail = ((): string => {
    switch (r.state) {
      case 'trialing':
      case 'active':
        return `Starts on the day the plan started and renews ${every}${r.renews_at ? `, next on ${formatUtcDay(r.renews_at)}` : ''}. ${notReset}`;
      case 'past_due':
        return `Starts on the day the plan started; payment for renewal on ${formatUtcDay(end)} is past due. ${notReset}`;
      case 'paused':
        return `Kept as it was while the subscription is paused; it does not renew. ${notReset}`;
      case 'canceled':
        return `Ends on ${formatUtcDay(r.cancels_at ?? end)} and does not renew. ${notReset}`;
      case 'free':
        return notReset;
    }
  })();
  return { usage, billing: { label: 'Billing period', range: range(start, end), detail } };
}
