import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { alertQueries, type IncidentFilters } from '../../api/queries/alerts';
import { formatUtcDateTime } from '../../lib/format-time';
import { Button } from '../../ui/button';
import { ConsolePathLink } from '../../ui/console-path-link';
import { EmptyState } from '../../ui/empty-state';
import { ErrorState } from '../../ui/error-state';
import { BellIcon } from '../../ui/icons';
import { PendingState } from '../../ui/pending-state';
import { StaleNotice } from '../../ui/stale-notice';
import { useTickingNow } from '../../ui/use-ticking-now';
import styles from './alerts-tables.module.css';
import { incidentDuration, valueAgainstThreshold, windowLength } from './incident-text';
import { KIND_LABELS } from './rule-draft';

/**
 * Incidents newest first: what fired (rule, value against threshold, the window), a link to
 * the view at that moment with absolute times, and when it resolved.
 */
export function IncidentTable({
  filters,
  showRule = true,
  compact = false,
  emptyText,
}: {
  filters: IncidentFilters;
  showRule?: boolean;
  /** Listed beside other projects' tables: an empty table is one line. */
  compact?: boolean;
  emptyText: string;
}) {
  const query = useInfiniteQuery(alertQueries.incidents(filters));
  const now = useTickingNow(30_000);
  if (query.isPending) return <PendingState label="Loading incidents…" />;
  if (query.isError && query.data === undefined) {
    return <ErrorState error={query.error} reset={() => void query.refetch()} />;
  }
  const incidents = query.data.pages.flatMap((p) => p.incidents);
  return (
    <>
      <StaleNotice
        what="incidents"
        readAt={query.dataUpdatedAt}
        refetchError={query.isRefetchError ? query.error : null}
        onRetry={() => void query.refetch()}
      />
      {incidents.length === 0 ? (
        <div className={styles.panel}>
          {showRule && !compact ? (
            <EmptyState icon={<BellIcon />} title="No incidents">
              {emptyText}
            </EmptyState>
          ) : (
            <p className={styles.emptyLine}>{emptyText}</p>
          )}
        </div>
      ) : (
        <div className={styles.panel}>
          <table className={styles.table}>
            <thead>
              <tr>
                {showRule && <th scope="col">Rule</th>}
                <th scope="col">State</th>
                <th scope="col" className={styles.num}>
                  Value
                </th>
                <th scope="col">Started</th>
                <th scope="col">Resolved</th>
                <th scope="col">At that moment</th>
              </tr>
            </thead>
            <tbody>
              {incidents.map((i) => (
                <tr key={i.id}>
                  {showRule && (
                    <td className={styles.wrapCell}>
                      <Link
                        to="/alerts/rules/$ruleId"
                        params={{ ruleId: i.rule_id }}
                        className={styles.nameLink}
                      >
                        {i.rule_name}
                      </Link>
                      <span className={styles.sub}>{KIND_LABELS[i.kind]} alert</span>
                    </td>
                  )}
                  <td>
                    <span
                      className={styles.state}
                      data-tone={i.state === 'firing' ? 'firing' : 'resolved'}
                    >
                      {i.state === 'firing' ? 'Firing' : 'Resolved'}
                    </span>
                    <span className={styles.sub}>for {incidentDuration(i, now)}</span>
                  </td>
                  <td className={styles.num}>
                    {i.state === 'firing'
                      ? valueAgainstThreshold(i.value, i.threshold, i.op)
                      : `back to ${valueAgainstThreshold(i.value, null, i.op)}`}
                    <span
                      className={styles.sub}
                      title={`${formatUtcDateTime(i.window_start)} to ${formatUtcDateTime(i.window_end)}`}
                    >
                      over {windowLength(i)}
                    </span>
                  </td>
                  <td>
                    <time dateTime={i.started_at}>{formatUtcDateTime(i.started_at)}</time>
                  </td>
                  <td>
                    {i.resolved_at === null ? (
                      'Still firing'
                    ) : (
                      <time dateTime={i.resolved_at}>{formatUtcDateTime(i.resolved_at)}</time>
                    )}
                  </td>
                  <td>
                    <ConsolePathLink path={i.view_url} className={styles.link}>
                      Open the view
                    </ConsolePathLink>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {query.hasNextPage && (
            <div className={styles.more}>
              <Button
                size="sm"
                disabled={query.isFetchingNextPage}
                onClick={() => void query.fetchNextPage()}
              >
                {query.isFetchingNextPage ? 'Loading…' : 'Show older incidents'}
              </Button>
            </div>
          )}
        </div>
      )}
    </>
  );
}
