import { ToggleGroup } from 'radix-ui';
import { useEffect, useEffectEvent, useId, useState } from 'react';
import { SEVERITIES, type Severity } from '../../api/queries/logs';
import { Button } from '../../ui/button';
import { CloseIcon, SearchIcon } from '../../ui/icons';
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
      <DebouncedInput
        label="Search messages"
        placeholder="Search messages"
        value={search.q}
        onCommit={(q) => setSearch({ q }, { replace: true })}
        icon
        wide
      />
      <select
        aria-label="Severity"
        className={styles.select}
        value={search.severity ?? ''}
        data-empty={search.severity === undefined || undefined}
        onChange={(e) =>
          setSearch({
            severity: e.target.value === '' ? undefined : (e.target.value as Severity),
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
      <ToggleGroup.Root
        type="single"
        aria-label="Status"
        className={styles.segmented}
        value={status}
        onValueChange={(value) => {
          // A single toggle group allows "none"; the status always has one value.
          if (value === '') return;
          setSearch({ status: value === 'active' ? undefined : (value as 'ignored' | 'all') });
        }}
      >
        {STATUS_OPTIONS.map((o) => (
          <ToggleGroup.Item key={o.value} value={o.value} className={styles.segment}>
            {o.label}
          </ToggleGroup.Item>
        ))}
      </ToggleGroup.Root>
      <DebouncedInput
        label="Service"
        placeholder="Service"
        value={search.service}
        onCommit={(service) => setSearch({ service }, { replace: true })}
      />
      <DebouncedInput
        label="Release"
        placeholder="Release"
        value={search.release}
        onCommit={(release) => setSearch({ release }, { replace: true })}
      />
      <DebouncedInput
        label="Environment"
        placeholder="Environment"
        value={search.environment}
        onCommit={(environment) => setSearch({ environment }, { replace: true })}
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

/**
 * A text filter that updates the URL once typing pauses (or at once on Enter). When the URL
 * changes from elsewhere (Clear filters, Back), the box shows the new value.
 */
function DebouncedInput({
  label,
  placeholder,
  value,
  onCommit,
  icon = false,
  wide = false,
}: {
  label: string;
  placeholder: string;
  value: string | undefined;
  onCommit: (value: string | undefined) => void;
  icon?: boolean;
  wide?: boolean;
}) {
  const id = useId();
  const [text, setText] = useState(value ?? '');
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    // The URL changed underneath: show it (React's "adjust state on prop change").
    setShown(value);
    setText(value ?? '');
  }
  const normalized = text.trim() === '' ? undefined : text;
  const commit = useEffectEvent((next: string | undefined) => onCommit(next));

  useEffect(() => {
    if (normalized === value) return;
    const timer = setTimeout(() => commit(normalized), 400);
    return () => clearTimeout(timer);
  }, [normalized, value]);

  return (
    <div className={`${styles.inputWrap} ${wide ? styles.wide : ''}`}>
      {icon && <SearchIcon className={styles.inputIcon} />}
      <label htmlFor={id} className={styles.visuallyHidden}>
        {label}
      </label>
      <input
        id={id}
        type="search"
        className={`${styles.input} ${icon ? styles.withIcon : ''}`}
        placeholder={placeholder}
        value={text}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && normalized !== value) onCommit(normalized);
        }}
      />
    </div>
  );
}
