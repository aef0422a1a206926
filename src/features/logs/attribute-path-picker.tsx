import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { Command } from 'cmdk';
import { useId, useMemo, useState } from 'react';
import { logsQueries, type CatalogParams, type LogAttribute } from '../../api/queries/logs';
import { catalogSearchOf } from '../../lib/attribute-filter';
import { formatUtcDateTime } from '../../lib/format-time';
import { ErrorState } from '../../ui/error-state';
import { SearchIcon } from '../../ui/icons';
import styles from '../../ui/command-picker.module.css';
import { compactCount } from './coverage';
import { useDebouncedValue } from './use-debounced-value';

const typeLabels: Record<LogAttribute['type'], string> = {
  string: 'text',
  number: 'number',
  boolean: 'bool',
};

/**
 * Picks an attribute path (with its type) from the catalog of the scope and range: a
 * searchable combobox (cmdk on Radix), most common paths first, searched by the service
 * as you type, one page after another.
 */
export function AttributePathPicker({
  catalog,
  onPick,
  label,
  isChosen,
}: {
  catalog: CatalogParams;
  onPick: (attribute: LogAttribute) => void;
  label: string;
  /** Marks paths already in use (e.g. shown columns). */
  isChosen?: (attribute: LogAttribute) => boolean;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const typed = catalogSearchOf(text);
  const settled = useDebouncedValue(typed.ok ? typed.search : undefined, 250);
  const params: CatalogParams = settled === undefined ? catalog : { ...catalog, search: settled };
  const query = useInfiniteQuery({
    ...logsQueries.catalog(params),
    placeholderData: keepPreviousData,
  });
  const attributes = useMemo(
    () => query.data?.pages.flatMap((p) => p.attributes) ?? [],
    [query.data],
  );

  return (
    <Command
      shouldFilter={false}
      label={label}
      className={styles.command}
      loop
      aria-describedby={`${id}-help`}
    >
      <div className={styles.inputRow}>
        <SearchIcon className={styles.searchIcon} />
        <Command.Input
          value={text}
          onValueChange={setText}
          placeholder="Search attribute paths"
          className={styles.input}
          aria-invalid={typed.ok ? undefined : true}
          autoFocus
        />
      </div>
      <p id={`${id}-help`} className={typed.ok ? styles.help : styles.problem}>
        {typed.ok ? 'Paths seen in this scope and time range, most common first.' : typed.problem}
      </p>
      {query.isError ? (
        <div className={styles.error}>
          <ErrorState error={query.error} reset={() => void query.refetch()} compact />
        </div>
      ) : (
        <Command.List className={styles.list}>
          {query.isPending && <Command.Loading>Loading paths…</Command.Loading>}
          {!query.isPending && (
            <Command.Empty className={styles.empty}>
              {params.search
                ? `No attribute path contains “${params.search}” in this range.`
                : 'No attributes were seen in this scope and time range.'}
            </Command.Empty>
          )}
          {attributes.map((a) => {
            const chosen = isChosen?.(a) ?? false;
            return (
              <Command.Item
                key={`${a.type}:${a.path}`}
                value={`${a.type}:${a.path}`}
                onSelect={() => onPick(a)}
                className={styles.item}
                disabled={chosen}
                title={`Seen in ${a.observed_count.toLocaleString('en-US')} logs; last ${formatUtcDateTime(a.last_seen_at)}`}
              >
                <span className={styles.label}>{a.path}</span>
                <span className={styles.type} data-type={a.type}>
                  {typeLabels[a.type]}
                </span>
                <span className={styles.count}>
                  {chosen ? 'shown' : compactCount(a.observed_count)}
                </span>
              </Command.Item>
            );
          })}
          {query.hasNextPage && (
            <Command.Item
              value="__more"
              onSelect={() => void query.fetchNextPage()}
              className={`${styles.item} ${styles.more}`}
              disabled={query.isFetchingNextPage}
            >
              {query.isFetchingNextPage ? 'Loading more paths…' : 'Load more paths'}
            </Command.Item>
          )}
        </Command.List>
      )}
    </Command>
  );
}
