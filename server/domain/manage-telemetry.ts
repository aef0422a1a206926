import type { OrgRole } from './org-role';

/**
 * Who may manage issues in a project: change status, priority and assignee, and set issue
 * and log triage rules (spec "Issue changes": one permission covers all of them). It follows
 * the account's role in the project's organization.
 */
export const MANAGING_ROLES: readonly OrgRole[] = ['owner', 'admin'];

/** Whether an account with this role (undefined: not a member) may manage issues and rules. */
export const canManageTelemetry = (role: OrgRole | undefined): boolean =>
  role !== undefined && MANAGING_ROLES.includes(role);

/**
 * Who may record deployments of a project: only an owner of its organization (spec
 * "Deployments": the account must own the project). Every member may read them.
 */
export const canRecordDeployments = (role: OrgRole | undefined): boolean => role === 'owner';
