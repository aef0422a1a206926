import { ReadRuleError, invalid } from './read-rule-error';
import { isUuid } from './uuid';

export const PROJECT_IDS_MIN = 2;
export const PROJECT_IDS_MAX = 50;

/** Which projects a read asks for, before access is checked. */
export type ProjectScope =
  { kind: 'all' } | { kind: 'one'; projectId: string } | { kind: 'set'; projectIds: string[] };

/**
 * Spec "Common read rules" 2: `project_id` (one UUID) or `project_ids` (2 to 50 distinct UUIDs,
 * comma-separated), never both; neither means every readable project.
 */
export function parseProjectScope(q: { project_id?: string; project_ids?: string }): ProjectScope {
  if (q.project_id !== undefined && q.project_ids !== undefined)
    throw invalid('send either project_id or project_ids, not both');
  if (q.project_id !== undefined) {
    if (!isUuid(q.project_id)) throw invalid('project_id must be a UUID');
    return { kind: 'one', projectId: q.project_id.toLowerCase() };
  }
  if (q.project_ids === undefined) return { kind: 'all' };
  const ids = q.project_ids.split(',');
  if (ids.length < PROJECT_IDS_MIN || ids.length > PROJECT_IDS_MAX)
    throw invalid(
      `project_ids must hold ${PROJECT_IDS_MIN} to ${PROJECT_IDS_MAX} comma-separated UUIDs`,
    );
  const bad = ids.find((id) => !isUuid(id));
  if (bad !== undefined) throw invalid('every project_ids value must be a UUID');
  const lower = ids.map((id) => id.toLowerCase());
  if (new Set(lower).size !== lower.length) throw invalid('project_ids must not repeat an id');
  return { kind: 'set', projectIds: lower };
}

/**
 * The project ids a list reads, given the ids the account can read. An unreadable id in a
 * set fails the whole request (no partial result); one unreadable `project_id` reads nothing,
 * so a list answers `[]`.
 */
export function resolveProjectScope(scope: ProjectScope, readable: ReadonlySet<string>): string[] {
  switch (scope.kind) {
    case 'all':
      return [...readable];
    case 'one':
      return readable.has(scope.projectId) ? [scope.projectId] : [];
    case 'set':
      if (scope.projectIds.some((id) => !readable.has(id)))
        throw new ReadRuleError('not_found', 'project not found');
      return scope.projectIds;
  }
}
