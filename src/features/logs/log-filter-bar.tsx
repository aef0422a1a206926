import { SEVERITIES } from '../../api/queries/logs';
import { Button } from '../../ui/button';
import { ChoiceFilter } from '../../ui/choice-filter';
import { ContextFilterInputs } from '../../ui/context-filter-inputs';
import { SegmentedChoice } from '../../ui/segmented-choice';
import { FilterInput } from '../../ui/filter-input';
import { CloseIcon } from '../../ui/icons';
import styles from './log-filter-bar.module.css';
import {
  clearedFilters,
  listSearchOf,
  narrowingFilterCount,
  severityLabels,
  type LogsPageSearch,
} from './logs-search';
import { useSetLogsSearch } from './use-logs-search';

const STATUS_OPTIONS = [
  { value: 'active', label: 'Active' },
  { value: 'ignored', label: 'Ignored' },
  { value: 'all', label: 'All' },
] as const;

/** Free-text search, severity, triage status, exact service/release/environment, trace. */
export function LogFilterBar({ search }: { search: LogsPageSearch }) {
  const setSearch = useSetLogsSearch();
  const count = narrowingFilterCount(listSearchOf(search));
  const status = search.status ?? 'active';

  return (
    <div className={styles.bar} role="search" aria-label="Log filters">
      <FilterInput
        label="Search messages"
        placeholder="Search messages"
        value={search.q}
        onCommit={(q) => setSearch({ q }, { replace: true })}
        icon
        wide
      />
      <ChoiceFilter
        label="Severity"
        anyLabel="Any severity"
        value={search.severity}
        options={SEVERITIES}
        labels={severityLabels}
        onChange={(severity) => setSearch({ severity })}
      />
      <SegmentedChoice
        label="Status"
        value={status}
        options={STATUS_OPTIONS}
        onChange={(value) => setSearch({ status: value === 'active' ? undefined : value })}
      />
      <ContextFilterInputs
        values={search}
        onCommit={(patch) => setSearch(patch, { replace: true })}
      />
      {search.trace_id !== undefined && (
        <span className={styles.traceChip}>
          <span className={styles.traceLabel}>Trace</span>
          <code title={search.trace_id}>{search.trace_id}</code>
          <button
            type="button"
            className={styles.chipRemove}
            aria-label="Remove trace filter"
            onClick={() => setSearch({ trace_id: undefined })}
          >
            <CloseIcon size={12} />
          </button>
        </span>
      )}
      {count > 0 && (
        <Button
          size="sm"
          variant="ghost"
          className={styles.clear}
          onClick={() => setSearch((prev) => clearedFilters(prev))}
        >
          Clear filters
        </Button>
      )}
    </div>
  );
}
