import {
  accessStateOf,
  blockerAction,
  currentPeriod,
  organizationBlocker,
  subscriptionLimits,
  type OrganizationBlocker,
  type Subscription,
} from '../domain/subscription';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * Display text only (clients never parse it). Plans are changed by an operator
 * (`npm run account`), there is no checkout, so the text names no plan.
 */
function nextText(blocker: OrganizationBlocker | null, s: Subscription, owned: number): string {
  switch (blocker) {
    case null:
      return 'You can create an organization or manage the ones you own.';
    case 'subscription_required':
      return 'Creating organizations needs a paid plan. Choose a plan to continue.';
    case 'subscription_inactive':
      return `The subscription is ${s.state.replace('_', ' ')}; resume it to create organizations again.`;
    case 'organization_limit_exceeded':
      return `The plan allows ${subscriptionLimits[s.tier].organizations} organizations and this account owns ${owned}. Manage your organizations or change the plan.`;
  }
}

/** Subscription readiness (spec: Subscription readiness). */
export function subscriptionView(
  accountId: string,
  s: Subscription,
  ownedOrganizations: number,
  now: number,
) {
  const period = currentPeriod(s, now);
  const end = period?.end ?? null;
  const blocker = organizationBlocker(s, ownedOrganizations);
  return {
    account_id: accountId,
    tier: s.tier,
    billing_interval: s.billingInterval,
    state: s.state,
    access_state: accessStateOf(s.state),
    current_period_start: iso(period?.start ?? null),
    current_period_end: iso(end),
    // Renewal is due while the subscription runs (also while payment is retried);
    // a canceled one ends with its period.
    renews_at:
      s.state === 'trialing' || s.state === 'active' || s.state === 'past_due' ? iso(end) : null,
    cancels_at: s.state === 'canceled' ? iso(end) : null,
    organization_creation_allowed: blocker === null,
    organization_creation_blocker: blocker,
    limits: { ...subscriptionLimits[s.tier] },
    next: nextText(blocker, s, ownedOrganizations),
    next_action: { ...blockerAction[blocker ?? 'none'] },
  };
}
