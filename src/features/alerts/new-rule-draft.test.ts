import { describe, expect, it } from 'vitest';
import { newRuleSearchSchema } from './alerts-search';
import { draftOfNewRuleSearch } from './new-rule-draft';

describe('draftOfNewRuleSearch', () => {
  it('starts a log rule from the explorer view, heard by its maker', () => {
    const search = newRuleSearchSchema.parse({ kind: 'log', severity: 'error', q: 'declined' });
    expect(draftOfNewRuleSearch(search, 'p1', 'a1')).toMatchObject({
      kind: 'log',
      projectId: 'p1',
      logQuery: { severity: 'error', search: 'declined' },
      inbox: 'user:a1',
    });
  });

  it('starts an issue rule with the issue page’s environment and service', () => {
    const search = newRuleSearchSchema.parse({
      kind: 'issue',
      issue_environment: 'production',
      issue_service: 'checkout-api',
    });
    expect(draftOfNewRuleSearch(search, null, 'a1')).toMatchObject({
      kind: 'issue',
      projectId: '',
      issueFilters: { environment: 'production', service: 'checkout-api' },
    });
  });
});
