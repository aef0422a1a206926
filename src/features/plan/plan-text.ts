import type { SubscriptionReadiness } from '../../api/queries/account';

/**
 * Words for the subscription readiness identifiers. The service's `next` is display text and is
 * shown as it is; these sentences come from the typed identifiers only, never from `next`.
 */

type Blocker = NonNullable<SubscriptionReadiness['organization_creation_blocker']>;
type LimitKey = keyof SubscriptionReadiness['limits'];

export const STATE_WORDS: Record<SubscriptionReadiness['state'], string> = {
  free: 'Free plan, no subscription',
  trialing: 'Trial',
  active: 'Active',
  past_due: 'Payment past due',
  paused: 'Paused',
  canceled: 'Canceled',
};

export const ACCESS_WORDS: Record<SubscriptionReadiness['access_state'], string> = {
  active: 'Active',
  paused: 'Paused (telemetry is still received)',
};

export const INTERVAL_WORDS: Record<SubscriptionReadiness['billing_interval'], string> = {
  none: 'None (not billed)',
  monthly: 'Monthly',
  yearly: 'Yearly',
};

export const LIMIT_LABELS: Record<LimitKey, string> = {
  organizations: 'Organizations owned',
  members_per_organization: 'Members per organization',
  projects_per_organization: 'Projects per organization',
  invitations_per_day: 'Invitations per day',
};

export const LIMIT_ORDER: readonly LimitKey[] = [
  'organizations',
  'members_per_organization',
  'projects_per_organization',
  'invitations_per_day',
];

/** A limit of 0 means the plan allows none; it never means unlimited. */
export function limitText(value: number): string {
  return value === 0 ? 'none on this plan' : value.toLocaleString('en-US');
}

/** Why organization creation is blocked, in words, from the blocker identifier alone. */
export function blockerSentence(
  blocker: Blocker,
  readiness: Pick<SubscriptionReadiness, 'state' | 'limits'>,
): string {
  switch (blocker) {
    case 'subscription_required':
      return 'Creating an organization needs a paid plan, and this account is on the free plan.';
    case 'subscription_inactive':
      return `The paid subscription is not active (${STATE_WORDS[readiness.state].toLowerCase()}), so no new organization can be created until it is resumed.`;
    case 'organization_limit_exceeded': {
      const n = readiness.limits.organizations;
      return `This account already owns as many organizations as its plan allows (${n === 1 ? '1 organization' : `${limitText(n)} organizations`}).`;
    }
  }
}

/** The blocker's typed action (`next_action.code`) as a button label; null when not ours. */
export function blockerActionLabel(
  code: SubscriptionReadiness['next_action']['code'],
): string | null {
  switch (code) {
    case 'choose_plan':
      return 'Choose a plan';
    case 'resume_subscription':
      return 'Resume subscription';
    case 'manage_organization_limit':
      return 'Manage organizations';
    case 'create_or_manage_organization':
      return null;
  }
}

/**
 * The operator command that makes the change this deployment has instead of a checkout
 * (`npm run account -- set-plan`). Tier identifiers are the service's, not display names.
 */
export function setPlanCommand(
  email: string,
  code: SubscriptionReadiness['next_action']['code'],
  tier: SubscriptionReadiness['tier'],
): string {
  const base = `npm run account -- set-plan ${email}`;
  switch (code) {
    case 'choose_plan':
      return `${base} <pro|scale>`;
    case 'resume_subscription':
      return `${base} ${tier} --state active`;
    case 'manage_organization_limit':
    case 'create_or_manage_organization':
      return `${base} <pro|scale>`;
  }
}

/** How many organizations the account owns against the plan's limit, in words. */
export function ownedText(owned: number, limit: number): string {
  const orgs = `${owned} organization${owned === 1 ? '' : 's'}`;
  return limit === 0
    ? `This account owns ${orgs}; its plan allows none.`
    : `This account owns ${orgs} of the ${limitText(limit)} its plan allows.`;
}
