import type { PlanTier } from './plans';

/**
 * Subscription readiness rules (spec: Subscription readiness, Subscription and plan states).
 * Transitions are not given by the spec; the states are set by `npm run account`.
 */
export const SUBSCRIPTION_STATES = [
  'free',
  'trialing',
  'active',
  'past_due',
  'paused',
  'canceled',
] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];

export const BILLING_INTERVALS = ['none', 'monthly', 'yearly'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

export type AccessState = 'active' | 'paused';

/** Plan `status` of account usage (spec: Account usage `plan.status`). */
export type PlanStatus = 'free' | 'trial' | 'active' | 'past_due' | 'disabled';

export const ORGANIZATION_BLOCKERS = [
  'subscription_required',
  'subscription_inactive',
  'organization_limit_exceeded',
] as const;
export type OrganizationBlocker = (typeof ORGANIZATION_BLOCKERS)[number];

/** What the store keeps per account. Paid plans have an interval and a period; free has none. */
export type Subscription = {
  tier: PlanTier;
  billingInterval: BillingInterval;
  state: SubscriptionState;
  /** The period the plan was last set in (epoch ms); null on the free plan. */
  periodStart: number | null;
  periodEnd: number | null;
};

export const accessStateOf = (state: SubscriptionState): AccessState =>
  state === 'past_due' || state === 'paused' || state === 'canceled' ? 'paused' : 'active';

/** One stored state, two views: the usage `plan.status` follows the subscription state. */
export function planStatusOf(state: SubscriptionState): PlanStatus {
  switch (state) {
    case 'free':
      return 'free';
    case 'trialing':
      return 'trial';
    case 'active':
      return 'active';
    case 'past_due':
      return 'past_due';
    case 'paused':
    case 'canceled':
      return 'disabled';
  }
}

export type SubscriptionLimits = {
  organizations: number;
  members_per_organization: number;
  projects_per_organization: number;
  invitations_per_day: number;
};

/**
 * The spec fixes 0 for a free account; the paid values are ours. Projects per organization is
 * generous on purpose: a team's services each get a project, and a limit that bites early
 * pushes people to mix applications in one project.
 */
export const subscriptionLimits: Record<PlanTier, SubscriptionLimits> = {
  free: {
    organizations: 0,
    members_per_organization: 0,
    projects_per_organization: 0,
    invitations_per_day: 0,
  },
  pro: {
    organizations: 3,
    members_per_organization: 10,
    projects_per_organization: 50,
    invitations_per_day: 20,
  },
  scale: {
    organizations: 10,
    members_per_organization: 50,
    projects_per_organization: 200,
    invitations_per_day: 100,
  },
};

/** `months` calendar months after `ms`, the day clamped to the month's end (31 Jan → 28/29 Feb). */
export function addMonths(ms: number, months: number): number {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return Date.UTC(
    y,
    m,
    Math.min(d.getUTCDate(), lastDay),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
    d.getUTCMilliseconds(),
  );
}

const monthsOf = (interval: BillingInterval): number =>
  interval === 'yearly' ? 12 : interval === 'monthly' ? 1 : 0;

/**
 * The current billing period. Trialing and active subscriptions renew: past the stored end
 * the period rolls forward in whole intervals from the stored start. Other states keep the
 * stored period (nothing renews while payment is due, paused or canceled).
 */
export function currentPeriod(s: Subscription, now: number): { start: number; end: number } | null {
  if (s.periodStart === null || s.periodEnd === null) return null;
  const months = monthsOf(s.billingInterval);
  const renews = s.state === 'trialing' || s.state === 'active';
  if (!renews || months === 0 || now < s.periodEnd)
    return { start: s.periodStart, end: s.periodEnd };
  let k = 1;
  while (addMonths(s.periodStart, (k + 1) * months) <= now) k++;
  return {
    start: addMonths(s.periodStart, k * months),
    end: addMonths(s.periodStart, (k + 1) * months),
  };
}

export type PlanChange = { tier: PlanTier; state?: SubscriptionState; interval?: BillingInterval };

/**
 * The subscription a plan change stores, or the reason it is refused. A paid plan starts a
 * period at the start of today (UTC); the free plan has no interval, period or paid state.
 */
export function subscriptionFor(
  change: PlanChange,
  now: number,
): { ok: true; subscription: Subscription } | { ok: false; error: string } {
  if (change.tier === 'free') {
    if (change.state !== undefined && change.state !== 'free')
      return { ok: false, error: `the free plan has no ${change.state} state` };
    if (change.interval !== undefined && change.interval !== 'none')
      return { ok: false, error: 'the free plan has no billing interval' };
    return {
      ok: true,
      subscription: {
        tier: 'free',
        billingInterval: 'none',
        state: 'free',
        periodStart: null,
        periodEnd: null,
      },
    };
  }
  if (change.state === 'free')
    return { ok: false, error: `the ${change.tier} plan cannot be in the free state` };
  if (change.interval === 'none')
    return { ok: false, error: `the ${change.tier} plan needs a billing interval` };
  const interval = change.interval ?? 'monthly';
  const d = new Date(now);
  const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  return {
    ok: true,
    subscription: {
      tier: change.tier,
      billingInterval: interval,
      state: change.state ?? 'active',
      periodStart: start,
      periodEnd: addMonths(start, monthsOf(interval)),
    },
  };
}

/** Why the account may not create an organization, or null when it may. */
export function organizationBlocker(
  s: Subscription,
  ownedOrganizations: number,
): OrganizationBlocker | null {
  if (s.tier === 'free') return 'subscription_required';
  if (accessStateOf(s.state) === 'paused') return 'subscription_inactive';
  if (ownedOrganizations >= subscriptionLimits[s.tier].organizations)
    return 'organization_limit_exceeded';
  return null;
}

/** The spec's blocker → `next_action` table. */
export const blockerAction = {
  none: { code: 'create_or_manage_organization', target: 'organization' },
  subscription_required: { code: 'choose_plan', target: 'pricing' },
  subscription_inactive: { code: 'resume_subscription', target: 'billing' },
  organization_limit_exceeded: { code: 'manage_organization_limit', target: 'organization' },
} as const satisfies Record<OrganizationBlocker | 'none', { code: string; target: string }>;
