import { logQueryOfSearch, type NewRuleSearch } from './alerts-search';
import { emptyDraft, type RuleDraft } from './rule-draft';

/** The draft a new rule starts from: the kind, project and explorer query in the link. */
export function draftOfNewRuleSearch(
  search: NewRuleSearch,
  projectId: string | null,
  accountId: string,
): RuleDraft {
  const kind = search.kind ?? 'log';
  const draft = emptyDraft(projectId ?? '', kind);
  return {
    ...draft,
    // The person making the rule hears it until they choose otherwise.
    inbox: `user:${accountId}`,
    logQuery: logQueryOfSearch(search),
    metricName: search.metric ?? '',
    issueFilters: {
      ...draft.issueFilters,
      environment: search.issue_environment ?? '',
      service: search.issue_service ?? '',
    },
  };
}
