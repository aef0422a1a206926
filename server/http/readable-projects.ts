import { resolveProjectScope, type ProjectScope } from '../domain/read-rules/project-scope';
import type { Deps } from '../core/deps';

/** Ids of every project the account can read (membership of the project's organization). */
export async function readableProjectIds(deps: Deps, accountId: string): Promise<Set<string>> {
  return new Set((await deps.store.projects.readableBy(accountId)).map((p) => p.id));
}

/**
 * The projects a read covers: the requested scope checked against what the account can read
 * (spec "Common read rules" 2: one unreadable `project_id` reads nothing, an unreadable id in
 * `project_ids` is a 404 for the whole request).
 */
export async function projectsInScope(
  deps: Deps,
  accountId: string,
  scope: ProjectScope,
): Promise<string[]> {
  return resolveProjectScope(scope, await readableProjectIds(deps, accountId));
}
