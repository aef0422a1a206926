import { Link } from '@tanstack/react-router';
import { ApiError, knownAction } from '../../api/errors';
import type { AccountUsage } from '../../api/queries/account';
import { formatUtcTime } from '../../lib/format-time';
import { buttonClass } from '../../ui/button';
import { Callout } from '../../ui/callout';
import { quotaText } from './quota-text';
import styles from './usage-page.module.css';

/**
 * The quota state first: ok, warning or blocked in words, the service's `next`, its typed
 * action, and "stale" when the shown snapshot could not be re-read (the state may have moved).
 */
export function QuotaBanner({
  usage,
  staleSince,
  staleError,
}: {
  usage: AccountUsage;
  staleSince: number | null;
  staleError: unknown;
}) {
  const text = quotaText(usage);
  const action = knownAction(usage.next_action);
  return (
    <div className={styles.banner}>
      <Callout tone={text.tone} role={usage.state === 'ok' ? 'status' : 'alert'} title={text.title}>
        <p>{text.detail}</p>
        <p className={styles.next}>{usage.next}</p>
        {staleSince !== null && (
          <p className={styles.stale} role="status">
            Stale: read at {formatUtcTime(new Date(staleSince).toISOString())}; the latest re-read
            failed
            {staleError instanceof ApiError ? ` (${staleError.message})` : ''}. Usage may have
            changed since.
          </p>
        )}
        {action?.kind === 'open' && (
          <div className={styles.bannerActions}>
            <Link
              to={action.to}
              className={buttonClass(usage.state === 'ok' ? 'secondary' : 'primary', 'sm')}
            >
              {action.to === '/plan' ? 'See plan and limits' : 'Open usage'}
            </Link>
          </div>
        )}
      </Callout>
    </div>
  );
}
