import { ToggleGroup } from 'radix-ui';
import { useId, useState } from 'react';
import { Button } from '../../ui/button';
import { FilterInput } from '../../ui/filter-input';
import { AlertIcon } from '../../ui/icons';
import { MinDurationFilter } from './min-duration-filter';
import styles from './trace-filter-bar.module.css';
import {
  clearedTraceFilters,
  narrowingCount,
  type TraceStatus,
  type TracesPageSearch,
} from './traces-search';
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
      <ToggleGroup.Root
        type="single"
        aria-label="Status"
        className={styles.segmented}
        value={search.status ?? 'all'}
        onValueChange={(value) => {
          // A single toggle group allows "none"; the status always has one value.
          if (value === '') return;
          setSearch({ status: value === 'all' ? undefined : (value as TraceStatus) });
        }}
      >
        {STATUS_OPTIONS.map((o) => (
          <ToggleGroup.Item key={o.value} value={o.value} className={styles.segment}>
            {o.label}
          </ToggleGroup.Item>
        ))}
      </ToggleGroup.Root>
      <FilterInput
        label="Service"
        trim
        value={search.service}
        onCommit={(service) => setSearch({ service }, { replace: true })}
      />
      <FilterInput
        label="Release"
        trim
        value={search.release}
        onCommit={(release) => setSearch({ release }, { replace: true })}
      />
      <FilterInput
        label="Environment"
        trim
        value={search.environment}
        onCommit={(environment) => setSearch({ environment }, { replace: true })}
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
