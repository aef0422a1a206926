import { useInfiniteQuery } from '@tanstack/react-query';
import { alertQueries, type WebhookDelivery } from '../../api/queries/alerts';
import { formatUtcDateTime } from '../../lib/format-time';
import { Button } from '../../ui/button';
import { EmptyState } from '../../ui/empty-state';
import { ErrorState } from '../../ui/error-state';
import { PendingState } from '../../ui/pending-state';
import tables from './alerts-tables.module.css';
import styles from './webhooks.module.css';

const EVENT_LABELS: Record<WebhookDelivery['event'], string> = {
  'alert.firing': 'Firing',
  'alert.resolved': 'Resolved',
  test: 'Test',
};

const STATE_LABELS: Record<WebhookDelivery['state'], string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
};

/** One attempt in words: `14:05:09 UTC · HTTP 200 · 83 ms` or the error. */
export function attemptText(a: WebhookDelivery['attempts'][number]): string {
  const parts = [formatUtcDateTime(a.at)];
  parts.push(a.status === null ? 'no answer' : `HTTP ${a.status}`);
  if (a.response_ms !== null) parts.push(`${a.response_ms} ms`);
  return parts.join(' · ');
}

/**
 * A webhook's deliveries, newest first: the event, the state, every attempt with its status
 * and response time (or error), and when the next retry is due. Re-read every few seconds,
 * since attempts happen in the service.
 */
export function DeliveryLog({ webhookId, name }: { webhookId: string; name: string }) {
  const query = useInfiniteQuery(alertQueries.deliveries(webhookId));
  if (query.isPending) return <PendingState label="Loading deliveries…" />;
  if (query.isError && query.data === undefined) {
    return <ErrorState error={query.error} reset={() => void query.refetch()} />;
  }
  const deliveries = query.data.pages.flatMap((p) => p.deliveries);
  if (deliveries.length === 0) {
    return (
      <div className={tables.panel}>
        <EmptyState title={`No deliveries to ${name} yet`}>
          Deliveries appear when a rule that notifies this webhook fires or resolves. “Send test”
          sends one now.
        </EmptyState>
      </div>
    );
  }
  return (
    <div className={tables.panel}>
      <table className={tables.table} aria-label={`Deliveries to ${name}`}>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Created</th>
            <th scope="col">State</th>
            <th scope="col">Attempts</th>
            <th scope="col">Next attempt</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((d) => (
            <tr key={d.id}>
              <td>
                {EVENT_LABELS[d.event]}
                <span className={tables.sub}>
                  <code>{d.id.slice(0, 8)}</code>
                </span>
              </td>
              <td>
                <time dateTime={d.created_at}>{formatUtcDateTime(d.created_at)}</time>
              </td>
              <td>
                <span className={tables.state} data-tone={d.state}>
                  {STATE_LABELS[d.state]}
                </span>
              </td>
              <td className={tables.wrapCell}>
                {d.attempts.length === 0 ? (
                  <span className={tables.sub}>Not tried yet</span>
                ) : (
                  <ol className={styles.attempts}>
                    {d.attempts.map((a, i) => (
                      <li key={`${a.at}-${i}`}>
                        {attemptText(a)}
                        {a.error !== null && (
                          <span className={styles.attemptError}> · {a.error}</span>
                        )}
                      </li>
                    ))}
                  </ol>
                )}
              </td>
              <td>
                {d.next_attempt_at === null ? (
                  '—'
                ) : (
                  <time dateTime={d.next_attempt_at}>{formatUtcDateTime(d.next_attempt_at)}</time>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {query.hasNextPage && (
        <div className={tables.more}>
          <Button
            size="sm"
            disabled={query.isFetchingNextPage}
            onClick={() => void query.fetchNextPage()}
          >
            {query.isFetchingNextPage ? 'Loading…' : 'Show older deliveries'}
          </Button>
        </div>
      )}
    </div>
  );
}
