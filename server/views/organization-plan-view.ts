import {
  gateAction,
  ingestKeyBlocker,
  organizationNext,
  projectBlocker,
  type OrganizationPlan,
} from '../domain/plan-gates';
import { accessStateOf, blockerAction, subscriptionLimits } from '../domain/subscription';

/** An organization's plan and gates as `GET /api/account` shows them (ours). */
export function organizationPlanView(plan: OrganizationPlan | null) {
  if (plan === null) return null;
  const s = plan.subscription;
  const blocker = projectBlocker(plan);
  return {
    tier: s.tier,
    state: s.state,
    access_state: accessStateOf(s.state),
    projects: plan.projects,
    projects_per_organization: subscriptionLimits[s.tier].projects_per_organization,
    project_creation_blocker: blocker,
    ingest_key_creation_blocker: ingestKeyBlocker(plan),
    next: organizationNext(plan),
    next_action: { ...(blocker === null ? blockerAction.none : gateAction[blocker]) },
  };
}
