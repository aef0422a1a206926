import { useQuery } from '@tanstack/react-query';
import { Popover } from 'radix-ui';
import { logsQueries, type CatalogParams } from '../../api/queries/logs';
import { ErrorState } from '../../ui/error-state';
import { AlertIcon, InfoIcon } from '../../ui/icons';
import styles from './attribute-coverage.module.css';
import { coverageIsPartial, coverageSummary } from './coverage';
import { PopoverPanel } from '../../ui/popover-panel';

const n = (v: number) => v.toLocaleString('en-US');

/**
 * "Searched 97% of 1.2M logs": how much of the scope and range attribute filters can search
 * (the catalog's coverage), with what is not searched and why.
 */
export function AttributeCoverage({ catalog }: { catalog: CatalogParams }) {
  const query = useQuery(
    logsQueries.coverage({
      ...(catalog.project_id ? { project_id: catalog.project_id } : {}),
      ...(catalog.project_ids ? { project_ids: catalog.project_ids } : {}),
      since: catalog.since,
    }),
  );
  if (query.isPending) {
    return <span className={styles.pending}>Checking coverage…</span>;
  }
  const coverage = query.data;
  const partial = coverage ? coverageIsPartial(coverage) : false;
  const Icon = query.isError || partial ? AlertIcon : InfoIcon;
  const summary = coverage ? coverageSummary(coverage) : 'Coverage unknown';

  return (
    <Popover.Root>
      <Popover.Trigger
        className={styles.trigger}
        data-partial={partial || query.isError || undefined}
        aria-label={`${summary}: what attribute filters search`}
      >
        <Icon size={14} />
        {summary}
      </Popover.Trigger>
      <PopoverPanel label="What attribute filters search" className={styles.panel} align="start">
        {query.isError ? (
          <ErrorState error={query.error} reset={() => void query.refetch()} compact />
        ) : coverage ? (
          <>
            <h3 className={styles.title}>What attribute filters search</h3>
            <p className={styles.text}>
              Attribute filters search an index of log attributes. Logs the index cannot search
              never match an attribute filter, though they still appear without one.
            </p>
            <dl className={styles.facts}>
              <dt>Logs in range</dt>
              <dd>{n(coverage.total_logs)}</dd>
              <dt>Fully searchable</dt>
              <dd>{n(coverage.indexed_logs)}</dd>
              <dt>Partly searchable</dt>
              <dd>{n(coverage.partially_indexed_logs)}</dd>
              <dt>Not searchable</dt>
              <dd>{n(coverage.unindexed_logs)}</dd>
            </dl>
            <p className={styles.text}>In partly searchable logs, these are left out:</p>
            <ul className={styles.limits}>
              <li>attributes nested deeper than {coverage.index_limits.max_depth} levels,</li>
              <li>
                attributes past the first {n(coverage.index_limits.max_attributes_per_log)} of a
                log,
              </li>
              <li>text values longer than {n(coverage.index_limits.max_string_bytes)} bytes,</li>
              <li>values inside arrays.</li>
            </ul>
            <p className={styles.note}>
              Counted over the whole scope and time range
              {catalog.since.includes('T') ? ' up to now' : ''}, whatever other filters are set.
            </p>
          </>
        ) : null}
      </PopoverPanel>
    </Popover.Root>
  );
}
