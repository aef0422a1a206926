import { describe, expect, it } from 'vitest';
import {
  ISSUE_VERSIONS,
  derivedPriority,
  normalizeIssueStatus,
  parseAssigneeFilter,
  parseAssigneeInput,
  parseResponseVersion,
  priorityOf,
} from './issue-triage';

const ID = '11111111-1111-4111-8111-111111111111';

describe('issue triage rules', () => {
  it('ignored is the old name of archived', () => {
    expect(normalizeIssueStatus('ignored')).toBe('archived');
    expect(normalizeIssueStatus('resolved')).toBe('resolved');
  });

  it('derives priority from effective severity until a person sets it', () => {
    expect(derivedPriority('critical')).toBe('high');
    expect(derivedPriority('error')).toBe('high');
    expect(derivedPriority('warning')).toBe('medium');
    expect(derivedPriority('info')).toBe('low');
    expect(priorityOf(null, 'info')).toEqual({ priority: 'low', priority_source: 'derived' });
    expect(priorityOf('high', 'info')).toEqual({ priority: 'high', priority_source: 'manual' });
  });

  it('reads assignee values of a change', () => {
    expect(parseAssigneeInput('me')).toEqual({ kind: 'me' });
    expect(parseAssigneeInput('none')).toEqual({ kind: 'none' });
    expect(parseAssigneeInput(ID.toUpperCase())).toEqual({ kind: 'user', accountId: ID });
    expect(parseAssigneeInput(`team:${ID}`)).toEqual({ kind: 'team', teamId: ID });
    for (const bad of ['', 'my_teams', 'team:', 'team:x', 'user:' + ID, 'ME', `${ID} `])
      expect(parseAssigneeInput(bad), bad).toBeNull();
  });

  it('the list filter adds my_teams and refuses anything else', () => {
    expect(parseAssigneeFilter(undefined)).toBeNull();
    expect(parseAssigneeFilter('my_teams')).toEqual({ kind: 'my_teams' });
    expect(parseAssigneeFilter('none')).toEqual({ kind: 'none' });
    expect(() => parseAssigneeFilter('nobody')).toThrow('assignee must be');
  });

  it('response_version is one of the accepted integers, written plainly', () => {
    expect(parseResponseVersion(undefined, ISSUE_VERSIONS, 1)).toBe(1);
    expect(parseResponseVersion('4', ISSUE_VERSIONS, 1)).toBe(4);
    for (const bad of ['0', '5', '02', '2.0', '', 'two', ' 2'])
      expect(() => parseResponseVersion(bad, ISSUE_VERSIONS, 1), bad).toThrow('response_version');
  });
});
