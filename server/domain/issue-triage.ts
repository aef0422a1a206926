import { invalid } from './read-rules/read-rule-error';
import { isUuid } from './read-rules/uuid';
import type { Severity } from './severity';

/**
 * Pure rules of issue triage (spec "Issue (grouped issue)", "Issue status", "Issue changes"):
 * statuses and their old name, derived priority, assignee values and response versions.
 */

export const ISSUE_STATUSES = ['unresolved', 'resolved', 'archived'] as const;
export type IssueStatus = (typeof ISSUE_STATUSES)[number];
/** Accepted in filters and changes: `ignored` is the older name of `archived`. */
export const ISSUE_STATUS_INPUTS = [...ISSUE_STATUSES, 'ignored'] as const;
export type IssueStatusInput = (typeof ISSUE_STATUS_INPUTS)[number];

export const normalizeIssueStatus = (s: IssueStatusInput): IssueStatus =>
  s === 'ignored' ? 'archived' : s;

export const PRIORITIES = ['high', 'medium', 'low'] as const;
export type Priority = (typeof PRIORITIES)[number];

/** Derived priority: from effective severity, until a person sets one. */
export const PRIORITY_BY_SEVERITY: Readonly<Record<Severity, Priority>> = {
  critical: 'high',
  error: 'high',
  warning: 'medium',
  info: 'low',
};

export const derivedPriority = (effectiveSeverity: Severity): Priority =>
  PRIORITY_BY_SEVERITY[effectiveSeverity];

/** An issue's priority and where it comes from. */
export function priorityOf(
  manual: Priority | null,
  effectiveSeverity: Severity,
): { priority: Priority; priority_source: 'manual' | 'derived' } {
  return manual === null
    ? { priority: derivedPriority(effectiveSeverity), priority_source: 'derived' }
    : { priority: manual, priority_source: 'manual' };
}

/** An `assignee` value of a change: `me`, `none`, a user id or `team:<team_id>`. */
export type AssigneeInput =
  | { kind: 'me' }
  | { kind: 'none' }
  | { kind: 'user'; accountId: string }
  | { kind: 'team'; teamId: string };

/** The `assignee` list filter: what a change accepts, plus `my_teams`. */
export type AssigneeFilterInput = AssigneeInput | { kind: 'my_teams' };

export const TEAM_PREFIX = 'team:';

/** An assignee value of a change, or null when it is none of the accepted forms. */
export function parseAssigneeInput(value: string): AssigneeInput | null {
  if (value === 'me' || value === 'none') return { kind: value };
  if (value.startsWith(TEAM_PREFIX)) {
    const id = value.slice(TEAM_PREFIX.length);
    return isUuid(id) ? { kind: 'team', teamId: id.toLowerCase() } : null;
  }
  return isUuid(value) ? { kind: 'user', accountId: value.toLowerCase() } : null;
}

/** The list's `assignee` filter; anything else is a 422. */
export function parseAssigneeFilter(value: string | undefined): AssigneeFilterInput | null {
  if (value === undefined) return null;
  if (value === 'my_teams') return { kind: 'my_teams' };
  const parsed = parseAssigneeInput(value);
  if (parsed === null)
    throw invalid('assignee must be me, none, my_teams, a user id or team:<team_id>');
  return parsed;
}

/**
 * `response_version`: one of the route's accepted integers, written plainly (`2`, not `02`);
 * the fallback when absent; anything else is a 422 (spec "Versioning" 3).
 */
export function parseResponseVersion<V extends number>(
  value: string | undefined,
  accepted: readonly V[],
  fallback: V,
): V {
  if (value === undefined) return fallback;
  const version = accepted.find((v) => String(v) === value);
  if (version === undefined)
    throw invalid(`response_version must be one of ${accepted.join(', ')}`);
  return version;
}

export type IssueVersion = 1 | 2 | 3 | 4;
export const ISSUE_VERSIONS: readonly IssueVersion[] = [1, 2, 3, 4];
