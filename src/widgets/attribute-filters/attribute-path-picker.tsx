import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { Command } from 'cmdk';
import { useId, useMemo, useState } from 'react';
import { logsQueries, type CatalogParams, type LogAttribute } from '../../api/queries/logs';
import { catalogSearchOf } from '../../lib/attribute-filter';
import { formatUtcDateTime } from '../../lib/format-time';
import { AttributePath } from '../../ui/attribute-path';
import { ErrorState } from '../../ui/error-state';
import { SearchIcon } from '../../ui/icons';
import styles from '../../ui/command-picker.module.css';
import { compactCount } from './coverage';
import { useDebouncedValue } from '../../lib/use-debounced-value';

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
  // Typed the way paths are shown; sent as the pointer substring it means.
  const typed = catalogSearchOf(text);
  const settledText = useDebouncedValue(text, 250);
  const settledCheck = catalogSearchOf(settledText);
  const settled = settledCheck.ok ? settledCheck.search : undefined;
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
        {typed.ok
          ? 'Paths seen in this scope and time range, most common first. Nested keys read a › b.'
          : typed.problem}
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
              {settled !== undefined
                ? `No attribute path contains “${settledText.trim()}” in this range.`
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
                <AttributePath pointer={a.path} className={styles.label} />
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
