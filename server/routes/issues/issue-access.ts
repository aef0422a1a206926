import { refuseOutsideScope } from '../../auth/delegated-scope';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { canManageTelemetry } from '../../domain/manage-telemetry';
import { TIME_ID_CURSOR, parseListMode } from '../../domain/read-rules/list-mode';
import type { AssigneeInput } from '../../domain/issue-triage';
import { fail } from '../../core/api-error';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { readPathUuid } from '../../http/path-params';
import type { ReadableProject } from '../../core/store/state/projects';
import type { AssigneeTarget, IssueRecord } from '../../core/store/state/issues';

/** Who may read and change which issue, shared by the issue routes. */

export const ISSUE_NOT_FOUND = 'issue not found';

/** The issue of the path, if the account can read its project; unknown and unreadable look alike. */
export async function readableIssue(
  deps: Deps,
  accountId: string,
  rawIssueId: string | undefined,
): Promise<{ issue: IssueRecord; project: ReadableProject }> {
  const issueId = readPathUuid(rawIssueId, 'issue_id');
  const readable = await deps.store.projects.readableBy(accountId);
  const issue = await deps.store.issues.byId(
    readable.map((p) => p.id),
    issueId,
  );
  const project = issue && readable.find((p) => p.id === issue.projectId);
  if (!issue || !project) {
    await refuseOutsideScope(deps.store.projects, accountId, (ids) =>
      deps.store.issues.byId(ids, issueId),
    );
    throw fail.notFound(ISSUE_NOT_FOUND);
  }
  return { issue, project };
}

/** Changes need permission to manage issues in the project (`403 forbidden` otherwise). */
export function requireManage(project: ReadableProject): void {
  if (!canManageTelemetry(project.role))
    throw fail.forbidden('managing issues in this project needs the owner or admin role');
}

/**
 * The stored assignee a change asks for. A user must be able to read the project and a team
 * must belong to its organization; otherwise `422` before anything changes.
 */
export async function assigneeTarget(
  deps: Deps,
  input: AssigneeInput,
  project: ReadableProject,
  callerId: string,
): Promise<AssigneeTarget | null> {
  switch (input.kind) {
    case 'none':
      return null;
    case 'me':
      return { type: 'user', accountId: callerId };
    case 'user':
      if ((await deps.store.projects.readable(input.accountId, project.id)) === null)
        throw fail.validation(
          'assignee cannot read this project',
          'Assign a member of the project organization (see GET /api/telemetry/issues/assignees).',
        );
      return { type: 'user', accountId: input.accountId };
    case 'team': {
      const team = await deps.store.issues.team(input.teamId);
      if (team === null || team.organizationId !== project.organizationId)
        throw fail.validation(
          'assignee team does not belong to the project organization',
          'Assign a team of the project organization (GET /api/telemetry/issues/assignees?response_version=2).',
        );
      return { type: 'team', teamId: team.id };
    }
  }
}

/**
 * Routes that always answer a page (activity, notifications) take `cursor_time` and
 * `cursor_id` without `pagination`: the same rules as a list in cursor mode.
 */
export function parsePageCursor(q: {
  cursor_time?: string | undefined;
  cursor_id?: string | undefined;
}): { time: number; id: string } | null {
  const mode = parseListMode({ ...q, pagination: 'cursor' }, TIME_ID_CURSOR);
  if (mode.mode !== 'cursor' || mode.after === null) return null;
  return { time: mode.after.time, id: mode.after.cursor_id.toLowerCase() };
}

/**
 * A fixed path beside `/api/telemetry/issues/{issue_id}` (`bulk`, `assignees`, …) called with
 * a method it does not support would otherwise reach the `{issue_id}` route and be read as
 * an (invalid) issue id: it answers `405` naming its methods instead. Registered after the
 * fixed path's own routes and before the `{issue_id}` ones.
 */
export function fixedPathMethods(app: OpenAPIHono<AppEnv>, path: string, methods: string[]) {
  app.all(path, (c) => {
    throw fail.methodNotAllowed(c.req.method, methods, path);
  });
}
