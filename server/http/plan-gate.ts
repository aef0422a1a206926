import {
  GATE_STATUS,
  gateAction,
  type GateCode,
  type OrganizationPlan,
} from '../domain/plan-gates';
import { ApiError } from '../core/api-error';
import type { Deps } from '../core/deps';

const ERROR_TEXT: Record<GateCode, string> = {
  subscription_required: 'this action needs a paid plan in force',
  organization_paused: 'the organization is paused because its paid subscription is inactive',
  organization_limit_exceeded: 'the organization reached a limit of its plan',
};

/** A refused write of the subscription gates, in the spec's envelope with its code and action. */
export function gateRefusal(
  code: GateCode,
  next: string,
  extra: Record<string, unknown> = {},
  nextAction: { code: string; target: string } = gateAction[code],
): ApiError {
  return new ApiError({
    status: GATE_STATUS[code],
    code,
    error: ERROR_TEXT[code],
    next,
    nextAction: { ...nextAction },
    extra,
  });
}

/** The plan the organization follows (its owner's subscription and project count). */
export async function organizationPlanOf(
  deps: Deps,
  organizationId: string,
): Promise<OrganizationPlan | null> {
  const plan = await deps.store.usage.organizationPlan(organizationId);
  return plan && { subscription: plan.subscription, projects: plan.projects };
}
