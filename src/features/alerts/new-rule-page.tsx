import { useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { accountQueries } from '../../api/queries/account';
import { projectsQueries } from '../../api/queries/projects';
import { oneProjectOf } from '../../lib/one-project';
import { useDocumentTitle } from '../../ui/use-document-title';
import { AlertsFrame } from './alerts-frame';
import { viewOnlyKeys } from './alerts-search';
import { draftOfNewRuleSearch } from './new-rule-draft';
import { RuleEditor } from './rule-editor';

const route = getRouteApi('/_app/alerts/new');

/**
 * `/alerts/new`: a new rule. "Create alert from this view" on the logs explorer opens it with
 * the explorer's own URL keys, so the rule counts exactly the logs that were on screen.
 */
export function NewRulePage() {
  useDocumentTitle('New alert rule');
  const search = route.useSearch();
  const navigate = useNavigate();
  const { data: projects } = useSuspenseQuery(projectsQueries.list());
  const { data: account } = useSuspenseQuery(accountQueries.me());
  const projectId = oneProjectOf(
    search,
    undefined,
    projects.map((p) => p.id),
  );
  // The link is read once: later changes are the form's own.
  const [initial] = useState(() => draftOfNewRuleSearch(search, projectId, account.account_id));
  const fromLogs = Object.keys(initial.logQuery).length > 0;
  const dropped = viewOnlyKeys(search);
  return (
    <AlertsFrame
      title="New alert rule"
      tabs={false}
      subtitle={
        fromLogs
          ? `From the logs explorer’s view: the rule counts the logs its filters match${dropped.length > 0 ? ` (active logs of every trace: ${dropped.join(' and ')} of the view are not part of a rule)` : ''}. Change anything below; the chart shows where it would have fired.`
          : 'Choose what to watch and when it fires; the chart shows where it would have fired over the last 24 hours.'
      }
    >
      <RuleEditor
        initial={initial}
        projects={projects}
        onSaved={(rule) =>
          void navigate({ to: '/alerts/rules/$ruleId', params: { ruleId: rule.id } })
        }
      />
    </AlertsFrame>
  );
}
