import { useId, useState } from 'react';
import { Button } from '../../ui/button';
import { ContextFilterInputs } from '../../ui/context-filter-inputs';
import { SegmentedChoice } from '../../ui/segmented-choice';
import { AlertIcon } from '../../ui/icons';
import { MinDurationFilter } from './min-duration-filter';
import styles from './trace-filter-bar.module.css';
import { clearedTraceFilters, narrowingCount, type TracesPageSearch } from './traces-search';
import { useSetTracesSearch } from './use-traces-search';

const STATUS_OPTIONS = [
  { value: 'all', label: 'All' },
  { value: 'error', label: 'Errors' },
  { value: 'ok', label: 'OK' },
] as const;

/** Status, exact service / release / environment, and the minimum duration. */
export function TraceFilterBar({ search }: { search: TracesPageSearch }) {
  const setSearch = useSetTracesSearch();
  const count = narrowingCount(search);
  const errorId = useId();
  const [durationProblem, setDurationProblem] = useState<string | null>(null);

  return (
    <div className={styles.bar} role="search" aria-label="Trace filters">
      <SegmentedChoice
        label="Status"
        value={search.status ?? 'all'}
        options={STATUS_OPTIONS}
        onChange={(value) => setSearch({ status: value === 'all' ? undefined : value })}
      />
      <ContextFilterInputs
        values={search}
        onCommit={(patch) => setSearch(patch, { replace: true })}
      />
      <MinDurationFilter
        value={search.min_ms}
        onCommit={(min_ms) => setSearch({ min_ms }, { replace: true })}
        onProblem={setDurationProblem}
        errorId={errorId}
      />
      {count > 0 && (
        <Button size="sm" variant="ghost" onClick={() => setSearch((p) => clearedTraceFilters(p))}>
          Clear filters
        </Button>
      )}
      {durationProblem !== null && (
        <p id={errorId} className={styles.fieldError} role="alert">
          <AlertIcon size={14} className={styles.fieldErrorIcon} />
          <span>
            <strong>Minimum duration not applied.</strong> {durationProblem}
          </span>
        </p>
      )}
    </div>
  );
}
