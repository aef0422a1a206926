import { invalid } from './read-rule-error';
import { parseRfc3339 } from './time-range';
import { isUuid } from './uuid';
import { isDeploymentId } from '../deployment-id';

export const DEPLOYMENT_CURSOR_FIELDS = [
  'cursor_time',
  'cursor_project_id',
  'cursor_deployment_id',
] as const;
export const DEPLOYMENT_CURSOR_INCOMPLETE = `all deployment cursor fields must be sent together: ${DEPLOYMENT_CURSOR_FIELDS.join(', ')}`;

export type DeploymentRange = { since: number | null; until: number | null };
export type DeploymentPosition = { time: number; projectId: string; deploymentId: string };

/**
 * Spec "Common read rules" 3, deployment list: `since` and `until` are RFC3339 only and both
 * inclusive (compared with the finish time), so `until` may equal `since` but not precede it.
 */
export function parseDeploymentRange(q: { since?: string; until?: string }): DeploymentRange {
  const read = (key: 'since' | 'until') => {
    const value = q[key];
    if (value === undefined) return null;
    const ms = parseRfc3339(value);
    if (ms === null) throw invalid(`${key} must be an RFC3339 timestamp`);
    return ms;
  };
  const since = read('since');
  const until = read('until');
  if (since !== null && until !== null && until < since)
    throw invalid('until must not be earlier than since');
  return { since, until };
}

/** The list's cursor: the three fields of its `next_cursor`, all together or none. */
export function parseDeploymentCursor(
  q: Partial<Record<string, string>>,
): DeploymentPosition | null {
  const sent = DEPLOYMENT_CURSOR_FIELDS.filter((k) => q[k] !== undefined);
  if (sent.length === 0) return null;
  if (sent.length !== DEPLOYMENT_CURSOR_FIELDS.length) throw invalid(DEPLOYMENT_CURSOR_INCOMPLETE);
  const time = parseRfc3339(q.cursor_time ?? '');
  if (time === null) throw invalid('cursor_time must be an RFC3339 timestamp');
  const projectId = q.cursor_project_id ?? '';
  if (!isUuid(projectId)) throw invalid('cursor_project_id must be a UUID');
  const deploymentId = q.cursor_deployment_id ?? '';
  if (!isDeploymentId(deploymentId)) throw invalid('cursor_deployment_id must be a deployment id');
  return { time, projectId: projectId.toLowerCase(), deploymentId };
}
