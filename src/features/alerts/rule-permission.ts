import type { Project } from '../../api/queries/projects';

/** Whether the person may create or change a project's alert rules, and if not, why. */
export type ChangePermission = { allowed: true } | { allowed: false; reason: string };

/**
 * Members of an organization read its rules; owners and admins change them (the service
 * refuses the others with `403 role_forbidden`, so the controls say so before).
 */
export function rulePermission(
  project: Pick<Project, 'role' | 'name'> | undefined,
): ChangePermission {
  if (project === undefined) {
    return { allowed: false, reason: 'Choose a project you can read first.' };
  }
  if (project.role === 'owner' || project.role === 'admin') return { allowed: true };
  return {
    allowed: false,
    reason: `You are a member of ${project.name}'s organization: members see alert rules, and an owner or admin creates and changes them. Ask one of them, or to be made an admin.`,
  };
}

/** The same for an organization's webhooks. */
export function webhookPermission(role: Project['role'] | undefined): ChangePermission {
  if (role === 'owner' || role === 'admin') return { allowed: true };
  return {
    allowed: false,
    reason:
      'Members see the webhooks of their organization; an owner or admin adds, tests and deletes them.',
  };
}

/**
 * Whether a new rule can be started with several projects in scope and none picked: the rule
 * editor asks for the project, so it can when any of them lets the account create rules.
 */
export function newRulePermission(
  inScope: readonly Pick<Project, 'role' | 'name'>[],
): ChangePermission {
  const allowed = inScope.find((p) => rulePermission(p).allowed);
  return allowed ? { allowed: true } : rulePermission(inScope[0]);
}
