import { z } from '@hono/zod-openapi';
import { fail } from '../../core/api-error';
import type { Deps } from '../../core/deps';
import type { AlertNotify } from '../../core/store/state/alerts';
import type { ReadableProject } from '../../core/store/state/projects';
import type { OrgRole } from '../../domain/org-role';

/** Alert routes take the account bearer or the browser session, like the console's reads. */
export const ALERT_AUTH = { session: true } as const;

export const IdempotencyHeader = z.object({
  'idempotency-key': z.string().optional().openapi({
    description:
      'Optional retry key: 1 to 128 visible ASCII characters. The same key and body replay the first answer.',
  }),
});

const ROLE_NEXT =
  'Ask an owner or admin of the organization to make this change, or to make you an admin.';

/** Owners and admins change alerting, as they change projects; members read it. */
export function requireChangeRole(role: OrgRole, what: string): void {
  if (role === 'member')
    throw fail.roleForbidden(`only owners and admins can change ${what}`, ROLE_NEXT);
}

/** The project if the account reads it (else `404`), checked for the change role when `change`. */
export async function projectFor(
  deps: Deps,
  accountId: string,
  projectId: string,
  change: boolean,
): Promise<ReadableProject> {
  const project = await deps.store.projects.readable(accountId, projectId.toLowerCase());
  if (!project) throw fail.notFound('project not found');
  if (change) requireChangeRole(project.role, 'alert rules');
  return project;
}

/** The account's role in the organization; `404` when it is not a member. */
export async function organizationRole(
  deps: Deps,
  accountId: string,
  organizationId: string,
): Promise<OrgRole> {
  const memberships = await deps.store.accounts.membershipsOf(accountId);
  const m = memberships.find((x) => x.organizationId === organizationId.toLowerCase());
  if (!m) throw fail.notFound('organization not found');
  return m.role;
}

/**
 * Checks that the notify targets belong to the project's organization: the inbox user is a
 * member, the team is one of its teams, each webhook is one of its webhooks (`422` naming it).
 */
export async function checkNotify(deps: Deps, project: ReadableProject, notify: AlertNotify) {
  const inbox = notify.inbox;
  if (inbox !== null && 'user_id' in inbox) {
    const readers = await deps.store.issues.readersOf(project.id);
    if (!readers.some((r) => r.id === inbox.user_id.toLowerCase()))
      throw fail.validation(
        'notify.inbox.user_id is not a member of the project’s organization',
        'Choose a member of the organization, or a team.',
      );
  }
  if (inbox !== null && 'team_id' in inbox) {
    const team = await deps.store.issues.team(inbox.team_id.toLowerCase());
    if (team === null || team.organizationId !== project.organizationId)
      throw fail.validation(
        'notify.inbox.team_id is not a team of the project’s organization',
        'Choose a team of the organization, or a member.',
      );
  }
  const ids = new Set((await deps.store.alerts.webhooks(project.organizationId)).map((w) => w.id));
  for (const [i, id] of notify.webhook_ids.entries())
    if (!ids.has(id.toLowerCase()))
      throw fail.validation(
        `notify.webhook_ids[${i}] is not a webhook of the project’s organization`,
        'Create the webhook first (POST /api/alerts/webhooks), then use its id.',
      );
}

/** Notify targets as stored: ids in lower case, each webhook once. */
export const normalizeNotify = (n: AlertNotify): AlertNotify => ({
  inbox:
    n.inbox === null
      ? null
      : 'user_id' in n.inbox
        ? { user_id: n.inbox.user_id.toLowerCase() }
        : { team_id: n.inbox.team_id.toLowerCase() },
  webhook_ids: [...new Set(n.webhook_ids.map((id) => id.toLowerCase()))],
});
