import { describe, expect, it } from 'vitest';
import {
  ingestKeyGateSentence,
  organizationPlanSummary,
  projectGateSentence,
  type OrganizationPlan,
  type OrganizationWithPlan,
} from './organization-gate-text';

const plan = (over: Partial<OrganizationPlan> = {}): OrganizationPlan => ({
  tier: 'pro',
  state: 'active',
  access_state: 'active',
  projects: 3,
  projects_per_organization: 50,
  project_creation_blocker: null,
  ingest_key_creation_blocker: null,
  next: 'ignored',
  next_action: { code: 'create_or_manage_organization', target: 'organization' },
  ...over,
});
const org = (
  over: Partial<OrganizationPlan> = {},
  role: OrganizationWithPlan['role'] = 'owner',
): OrganizationWithPlan => ({ id: 'o', name: 'Acme', role, plan: plan(over) });

describe('organization gate text', () => {
  it('summarises the plan the organization follows and its room', () => {
    expect(organizationPlanSummary(plan())).toBe('pro plan (active), 3 of 50 projects');
    expect(
      organizationPlanSummary(plan({ tier: 'free', state: 'free', projects_per_organization: 0 })),
    ).toBe('free plan (free), 3 projects, none may be added');
  });

  it('an open organization has no gate', () => {
    expect(projectGateSentence(org())).toBeNull();
    expect(ingestKeyGateSentence(org())).toBeNull();
  });

  it("each blocker in words, naming whose plan it is (the owner's)", () => {
    expect(
      projectGateSentence(
        org({
          tier: 'free',
          projects_per_organization: 0,
          project_creation_blocker: 'subscription_required',
        }),
      ),
    ).toBe('Acme follows your free plan, which allows no projects per organization.');
    expect(
      projectGateSentence(
        org({ projects: 50, project_creation_blocker: 'organization_limit_exceeded' }, 'admin'),
      ),
    ).toBe("Acme has 50 of the 50 projects its owner's pro plan allows.");
    const paused = org(
      {
        state: 'past_due',
        access_state: 'paused',
        project_creation_blocker: 'organization_paused',
        ingest_key_creation_blocker: 'organization_paused',
      },
      'admin',
    );
    expect(projectGateSentence(paused)).toMatch(
      /^Acme is paused: its owner's subscription is past due/,
    );
    expect(ingestKeyGateSentence(paused)).toBe(projectGateSentence(paused));
  });

  it('an organization without an owner cannot take a project', () => {
    expect(projectGateSentence({ id: 'o', name: 'Orphan', role: 'admin', plan: null })).toMatch(
      /no owner/,
    );
  });
});
