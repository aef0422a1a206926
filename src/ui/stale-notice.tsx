import { ApiError, failureTitle } from '../api/errors';
import { formatUtcTime } from '../lib/format-time';
import { useLiveStatus } from '../live/live-store';
import { Button } from './button';
import { Callout } from './callout';
import styles from './stale-notice.module.css';

/**
 * Marks rows that may be out of date instead of passing them off as a fresh read: the live
 * feed lost its connection to the service (new rows stop arriving), or the last re-read
 * failed. The rows stay, with the time they were read; the list is read again by itself once
 * the feed reconnects, and "Try again" reads it now. A failure without the service's
 * envelope keeps its HTTP status and has no code (spec, errors).
 */
export function StaleNotice({
  what,
  readAt,
  refetchError,
  onRetry,
}: {
  /** What the list shows, plural: "logs", "issues". */
  what: string;
  /** When the rows were read (epoch ms). */
  readAt: number;
  /** The failure of the last re-read; null when it did not fail. */
  refetchError: unknown;
  onRetry: () => void;
}) {
  const disconnected = useLiveStatus() === 'reconnecting';
  if (!disconnected && refetchError === null) return null;
  const apiError = refetchError instanceof ApiError ? refetchError : null;
  const unreachable = apiError === null || apiError.isNetworkFailure;
  const title = unreachable
    ? 'The connection to the service was lost'
    : `These ${what} could not be read again: ${failureTitle(apiError).toLowerCase()}`;
  const readTime = formatUtcTime(new Date(readAt).toISOString());
  return (
    <div className={styles.notice}>
      <Callout tone="warning" role="status" title={title}>
        <p>
          Showing {what} read at {readTime}: they may be out of date
          {disconnected ? `, and new ${what} do not arrive until the connection is back` : ''}.
        </p>
        {apiError && !apiError.isNetworkFailure && (
          <p>
            HTTP {apiError.status}
            {apiError.code !== undefined && (
              <>
                {' · '}
                <code>{apiError.code}</code>
              </>
            )}
            {apiError.next ? ` — ${apiError.next}` : ''}
          </p>
        )}
        {unreachable && (
          <p>
            Check that the Lookout service is running. The list is read again by itself when the
            connection is back.
          </p>
        )}
        <p>
          <Button size="sm" variant="secondary" onClick={onRetry}>
            Try again
          </Button>
        </p>
      </Callout>
    </div>
  );
}
