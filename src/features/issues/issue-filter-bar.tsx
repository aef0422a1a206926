import { useQuery } from '@tanstack/react-query';
import { useEffect, useEffectEvent, useId, useState } from 'react';
import { issuesQueries, ISSUE_PRIORITIES } from '../../api/queries/issues';
import { Button } from '../../ui/button';
import { severityLabels, type SeverityName } from '../../ui/severity-badge';
import styles from './issues-page.module.css';
import {
  clearedIssueFilters,
  narrowingCount,
  ISSUE_SORTS,
  type IssueSort,
  type IssuesPageSearch,
} from './issues-search';
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
      <select
        aria-label="Status"
        className={styles.select}
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
      </select>
      <select
        aria-label="Severity"
        className={styles.select}
        data-empty={search.severity === undefined || undefined}
        value={search.severity ?? ''}
        onChange={(e) =>
          setSearch({
            severity: e.target.value === '' ? undefined : (e.target.value as SeverityName),
          })
        }
      >
        <option value="">Any severity</option>
        {SEVERITIES.map((s) => (
          <option key={s} value={s}>
            {severityLabels[s]}
          </option>
        ))}
      </select>
      <select
        aria-label="Priority"
        className={styles.select}
        data-empty={search.priority === undefined || undefined}
        value={search.priority ?? ''}
        onChange={(e) =>
          setSearch({
            priority:
              e.target.value === '' ? undefined : (e.target.value as IssuesPageSearch['priority']),
          })
        }
      >
        <option value="">Any priority</option>
        {ISSUE_PRIORITIES.map((p) => (
          <option key={p} value={p}>
            {p[0]?.toUpperCase()}
            {p.slice(1)}
          </option>
        ))}
      </select>
      <select
        aria-label="Assignee"
        className={styles.select}
        data-empty={search.assignee === undefined || undefined}
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
      </select>
      <TextFilter
        label="Service"
        value={search.service}
        onCommit={(service) => setSearch({ service }, { replace: true })}
      />
      <TextFilter
        label="Release"
        value={search.release}
        onCommit={(release) => setSearch({ release }, { replace: true })}
      />
      <TextFilter
        label="Environment"
        value={search.environment}
        onCommit={(environment) => setSearch({ environment }, { replace: true })}
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
      <select
        className={styles.select}
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
      </select>
    </label>
  );
}

/** An exact-match text filter that updates the URL once typing pauses (or on Enter). */
function TextFilter({
  label,
  value,
  onCommit,
}: {
  label: string;
  value: string | undefined;
  onCommit: (value: string | undefined) => void;
}) {
  const id = useId();
  const [text, setText] = useState(value ?? '');
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    setText(value ?? '');
  }
  const normalized = text.trim() === '' ? undefined : text.trim();
  const commit = useEffectEvent((next: string | undefined) => onCommit(next));
  useEffect(() => {
    if (normalized === value) return;
    const timer = setTimeout(() => commit(normalized), 400);
    return () => clearTimeout(timer);
  }, [normalized, value]);
  return (
    <span className={styles.inputWrap}>
      <label htmlFor={id} className={styles.visuallyHidden}>
        {label}
      </label>
      <input
        id={id}
        type="search"
        className={styles.input}
        placeholder={label}
        value={text}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && normalized !== value) onCommit(normalized);
        }}
      />
    </span>
  );
}
