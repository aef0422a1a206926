import { useQuery } from '@tanstack/react-query';
import type { IssueEvent } from '../../api/queries/alerts';
import { issuesQueries } from '../../api/queries/issues';
import { SEVERITIES } from '../../api/queries/logs';
import { ChoiceFilter } from '../../ui/choice-filter';
import { ContextFilterInputs } from '../../ui/context-filter-inputs';
import { FilterSelect } from '../../ui/filter-select';
import { severityLabels } from '../../ui/severity-badge';
import { LabelledSelect } from './labelled-select';
import { ISSUE_EVENT_LABELS, type RuleDraft } from './rule-draft';
import styles from './rule-editor.module.css';

const EVENTS = (Object.keys(ISSUE_EVENT_LABELS) as IssueEvent[]).map((value) => ({
  value,
  label: ISSUE_EVENT_LABELS[value],
}));

type Filters = RuleDraft['issueFilters'];

/**
 * An issue rule: which event fires it, and the issues it looks at (environment, release,
 * service, severity, assignee; empty means any). The assignee is picked from the project's
 * people and teams, as on the issue page.
 */
export function IssueConditionFields({
  projectId,
  event,
  filters,
  onEvent,
  onFilters,
}: {
  projectId: string;
  event: IssueEvent;
  filters: Filters;
  onEvent: (event: IssueEvent) => void;
  onFilters: (filters: Filters) => void;
}) {
  const assignees = useQuery({ ...issuesQueries.assignees(projectId), enabled: projectId !== '' });
  const severity = SEVERITIES.find((s) => s === filters.severity);
  return (
    <div className={styles.stack}>
      <LabelledSelect label="Fire when" value={event} options={EVENTS} onChange={onEvent} />
      <div className={styles.filterRow} role="group" aria-label="Issues it looks at">
        <ContextFilterInputs
          values={{
            service: filters.service || undefined,
            release: filters.release || undefined,
            environment: filters.environment || undefined,
          }}
          onCommit={(patch) =>
            onFilters({
              ...filters,
              ...Object.fromEntries(Object.entries(patch).map(([k, v]) => [k, v ?? ''])),
            })
          }
        />
        <ChoiceFilter
          label="Severity"
          anyLabel="Any severity"
          value={severity}
          options={SEVERITIES}
          labels={severityLabels}
          onChange={(v) => onFilters({ ...filters, severity: v ?? '' })}
        />
        <FilterSelect
          aria-label="Assignee"
          empty={filters.assignee === ''}
          value={filters.assignee}
          onChange={(e) => onFilters({ ...filters, assignee: e.target.value })}
        >
          <option value="">Any assignee</option>
          <option value="none">Unassigned</option>
          {assignees.data?.assignees.map((u) => (
            <option key={u.user_id} value={`user:${u.user_id}`}>
              {u.name ?? u.email}
            </option>
          ))}
          {assignees.data?.teams?.map((t) => (
            <option key={t.team_id} value={`team:${t.team_id}`}>
              Team {t.name}
            </option>
          ))}
        </FilterSelect>
      </div>
      {assignees.isError && (
        <p className={styles.hint} role="status">
          The project’s people could not be read, so no assignee can be chosen now; the other
          filters work. Reload the page to try again.
        </p>
      )}
    </div>
  );
}
