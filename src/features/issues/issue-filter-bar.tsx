import { useQuery } from '@tanstack/react-query';
import { issuesQueries, ISSUE_PRIORITIES } from '../../api/queries/issues';
import { Button } from '../../ui/button';
import { ChoiceFilter } from '../../ui/choice-filter';
import { ContextFilterInputs } from '../../ui/context-filter-inputs';
import { FilterSelect } from '../../ui/filter-select';
import { severityLabels, type SeverityName } from '../../ui/severity-badge';
import styles from './issues-page.module.css';
import {
  clearedIssueFilters,
  narrowingCount,
  ISSUE_SORTS,
  type IssueSort,
  type IssuesPageSearch,
} from './issues-search';
import { priorityLabels } from './board';
import { useSetIssuesSearch } from './use-issues-search';

const SEVERITIES: readonly SeverityName[] = ['critical', 'error', 'warning', 'info'];

export const sortLabels: Record<IssueSort, string> = {
  last_seen: 'Last seen',
  occurrences: 'Events (loaded rows)',
  first_seen: 'First seen (loaded rows)',
};

/** Status, severity, priority, assignee, service, release, environment and sort. */
export function IssueFilterBar({
  search,
  assigneeProjectId,
}: {
  search: IssuesPageSearch;
  /** The project whose members and teams the assignee filter offers. */
  assigneeProjectId: string | null;
}) {
  const setSearch = useSetIssuesSearch();
  const assignees = useQuery({
    ...issuesQueries.assignees(assigneeProjectId ?? ''),
    enabled: assigneeProjectId !== null,
  });
  const count = narrowingCount(search);

  return (
    <div className={styles.filterBar} role="search" aria-label="Issue filters">
      <FilterSelect
        aria-label="Status"
        className={styles.select}
        empty={false}
        value={search.status ?? 'unresolved'}
        onChange={(e) => {
          const v = e.target.value as NonNullable<IssuesPageSearch['status']>;
          setSearch({ status: v === 'unresolved' ? undefined : v });
        }}
      >
        <option value="unresolved">Unresolved</option>
        <option value="resolved">Resolved</option>
        <option value="archived">Archived</option>
        <option value="all">Any status</option>
      </FilterSelect>
      <ChoiceFilter
        label="Severity"
        anyLabel="Any severity"
        className={styles.select}
        value={search.severity}
        options={SEVERITIES}
        labels={severityLabels}
        onChange={(severity) => setSearch({ severity })}
      />
      <ChoiceFilter
        label="Priority"
        anyLabel="Any priority"
        className={styles.select}
        value={search.priority}
        options={ISSUE_PRIORITIES}
        labels={priorityLabels}
        onChange={(priority) => setSearch({ priority })}
      />
      <FilterSelect
        aria-label="Assignee"
        className={styles.select}
        empty={search.assignee === undefined}
        value={search.assignee ?? ''}
        onChange={(e) =>
          setSearch({ assignee: e.target.value === '' ? undefined : e.target.value })
        }
      >
        <option value="">Anyone</option>
        <option value="me">Assigned to me</option>
        <option value="my_teams">My teams</option>
        <option value="none">Unassigned</option>
        {assignees.data && (
          <optgroup label="Teams">
            {(assignees.data.teams ?? []).map((t) => (
              <option key={t.team_id} value={`team:${t.team_id}`}>
                #{t.slug} ({t.name})
              </option>
            ))}
          </optgroup>
        )}
        {assignees.data && (
          <optgroup label="People">
            {assignees.data.assignees.map((u) => (
              <option key={u.user_id} value={u.user_id}>
                {u.name ?? u.email}
              </option>
            ))}
          </optgroup>
        )}
        {search.assignee !== undefined &&
          !['me', 'my_teams', 'none'].includes(search.assignee) &&
          !assignees.data && <option value={search.assignee}>{search.assignee}</option>}
      </FilterSelect>
      <ContextFilterInputs
        values={search}
        onCommit={(patch) => setSearch(patch, { replace: true })}
      />
      {count > 0 && (
        <Button size="sm" variant="ghost" onClick={() => setSearch((p) => clearedIssueFilters(p))}>
          Clear filters
        </Button>
      )}
    </div>
  );
}

/** The order of the rows: the service's (last seen) or a client-side sort of the loaded rows. */
export function SortControl({ sort }: { sort: IssueSort }) {
  const setSearch = useSetIssuesSearch();
  return (
    <label className={styles.sortLabel}>
      <span>Sort</span>
      <FilterSelect
        className={styles.select}
        empty
        value={sort}
        onChange={(e) => {
          const v = e.target.value as IssueSort;
          setSearch({ sort: v === 'last_seen' ? undefined : v }, { replace: true });
        }}
      >
        {ISSUE_SORTS.map((s) => (
          <option key={s} value={s}>
            {sortLabels[s]}
          </option>
        ))}
      </FilterSelect>
    </label>
  );
}
