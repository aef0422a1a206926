import type { Account } from '../../api/queries/account';

/**
 * An organization's plan and gates in words, from the typed fields `GET /api/account` gives
 * each organization (the plan it follows is its owner's). The service's `next` is shown beside
 * these as it is; nothing here is parsed from it.
 */

export type OrganizationWithPlan = Account['organizations'][number];
export type OrganizationPlan = NonNullable<OrganizationWithPlan['plan']>;

const STATE_WORDS: Record<OrganizationPlan['state'], string> = {
  free: 'free',
  trialing: 'trial',
  active: 'active',
  past_due: 'past due',
  paused: 'paused',
  canceled: 'canceled',
};

const whosePlan = (o: OrganizationWithPlan) => (o.role === 'owner' ? 'your' : "its owner's");
const count = (n: number, noun: string) =>
  `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;

/** `pro plan (active), 3 of 50 projects`: the plan the organization follows, and its room. */
export function organizationPlanSummary(plan: OrganizationPlan): string {
  const room =
    plan.projects_per_organization === 0
      ? `${count(plan.projects, 'project')}, none may be added`
      : `${plan.projects.toLocaleString('en-US')} of ${count(plan.projects_per_organization, 'project')}`;
  return `${plan.tier} plan (${STATE_WORDS[plan.state]}), ${room}`;
}

/** Why no project may be added to the organization now, or null when one may. */
export function projectGateSentence(o: OrganizationWithPlan): string | null {
  const plan = o.plan;
  if (plan === null) return `${o.name} has no owner, so no plan pays for a new project.`;
  switch (plan.project_creation_blocker) {
    case null:
      return null;
    case 'subscription_required':
      return `${o.name} follows ${whosePlan(o)} free plan, which allows no projects per organization.`;
    case 'organization_paused':
      return pausedSentence(o, plan);
    case 'organization_limit_exceeded':
      return `${o.name} has ${plan.projects.toLocaleString('en-US')} of the ${count(plan.projects_per_organization, 'project')} ${whosePlan(o)} ${plan.tier} plan allows.`;
  }
}

/** Why no ingest key may be made for the organization's projects now, or null. */
export function ingestKeyGateSentence(o: OrganizationWithPlan): string | null {
  const plan = o.plan;
  if (plan === null || plan.ingest_key_creation_blocker === null) return null;
  return pausedSentence(o, plan);
}

function pausedSentence(o: OrganizationWithPlan, plan: OrganizationPlan): string {
  return `${o.name} is paused: ${whosePlan(o)} subscription is ${STATE_WORDS[plan.state]}, so new projects and ingest keys wait until it is resumed. Telemetry is still received.`;
}
