import {
  accessStateOf,
  blockerAction,
  subscriptionLimits,
  type OrganizationBlocker,
  type Subscription,
  type SubscriptionState,
} from './subscription';

/**
 * The subscription gates of the writes inside an organization (spec: Subscription readiness,
 * Errors, Limits). An organization follows its owner's plan: the owner's account pays its usage
 * (ingestion counts against it), so the owner's subscription also decides what may be added to
 * it, whoever asks. An admin on the free plan may add a project to a paid organization; an
 * owner on the free plan may not add one to their own.
 */

/** The spec's codes of a refused write, with their HTTP status. */
export const GATE_STATUS = {
  subscription_required: 402,
  organization_paused: 423,
  organization_limit_exceeded: 422,
} as const;
export type GateCode = keyof typeof GATE_STATUS;
export const GATE_CODES = Object.keys(GATE_STATUS) as GateCode[];

/** The spec's `next_action` of each code, the same pairs subscription readiness uses. */
export const gateAction = {
  subscription_required: blockerAction.subscription_required,
  organization_paused: blockerAction.subscription_inactive,
  organization_limit_exceeded: blockerAction.organization_limit_exceeded,
} as const satisfies Record<GateCode, { code: string; target: string }>;

/** What decides an organization's gates: its owner's subscription and how many projects it has. */
export type OrganizationPlan = { subscription: Subscription; projects: number };

/** Why no project may be added to the organization now, or null when one may. */
export function projectBlocker(plan: OrganizationPlan | null): GateCode | null {
  if (plan === null || plan.subscription.tier === 'free') return 'subscription_required';
  if (accessStateOf(plan.subscription.state) === 'paused') return 'organization_paused';
  const limit = subscriptionLimits[plan.subscription.tier].projects_per_organization;
  if (plan.projects >= limit) return 'organization_limit_exceeded';
  return null;
}

/**
 * Why no ingest key may be made for the organization's projects now, or null. Keys count
 * toward no limit, so only a paused organization refuses them: a free organization's existing
 * projects keep their telemetry flowing within the free allowances.
 */
export function ingestKeyBlocker(plan: OrganizationPlan | null): 'organization_paused' | null {
  if (plan === null) return null;
  return accessStateOf(plan.subscription.state) === 'paused' ? 'organization_paused' : null;
}

/**
 * Creating an organization is the account's own gate (readiness `organization_creation_blocker`).
 * No organization exists yet to be paused, so an inactive subscription is `402
 * subscription_required` ("the action needs a paid plan" that is in force), with the blocker's
 * `resume_subscription` action.
 */
export const organizationCreationCode: Record<OrganizationBlocker, GateCode> = {
  subscription_required: 'subscription_required',
  subscription_inactive: 'subscription_required',
  organization_limit_exceeded: 'organization_limit_exceeded',
};

const STATE_TEXT: Record<SubscriptionState, string> = {
  free: 'free',
  trialing: 'trialing',
  active: 'active',
  past_due: 'past due',
  paused: 'paused',
  canceled: 'canceled',
};

/** Display text for the organization's gates (clients never parse it). */
export function organizationNext(plan: OrganizationPlan | null): string {
  if (plan === null)
    return 'This organization has no owner, so no plan pays for it: projects cannot be added.';
  const s = plan.subscription;
  const limit = subscriptionLimits[s.tier].projects_per_organization;
  switch (projectBlocker(plan)) {
    case 'subscription_required':
      return "The organization follows its owner's plan, the free plan, which allows no projects per organization. Existing projects keep receiving telemetry and can get ingest keys; the owner chooses a paid plan to add projects.";
    case 'organization_paused':
      return `The organization is paused: its owner's subscription is ${STATE_TEXT[s.state]}. New projects and ingest keys are refused until the subscription is resumed; telemetry is still received.`;
    case 'organization_limit_exceeded':
      return `The organization has ${plan.projects} projects and its owner's ${s.tier} plan allows ${limit}. Change the plan to add more.`;
    case null:
      return `Projects and ingest keys can be added: ${plan.projects} of the ${limit} projects the owner's ${s.tier} plan allows.`;
  }
}
