import type { UseInfiniteQueryResult, UseMutationResult } from '@tanstack/react-query';
import { ApiError, failureTitle } from '../../api/errors';
import styles from './notifications-inbox.module.css';

const reason = (error: unknown) =>
  error instanceof ApiError ? `: ${failureTitle(error).toLowerCase()}` : '';

/** A failed re-read (what was read before stays) or a failed mark (they stay unread). */
export function InboxProblems({
  what,
  query,
  markRead,
}: {
  what: string;
  query: Pick<UseInfiniteQueryResult, 'isRefetchError' | 'error'>;
  markRead: Pick<UseMutationResult<unknown, Error, string>, 'isError' | 'error'>;
}) {
  return (
    <>
      {query.isRefetchError && (
        <p className={styles.problem} role="status">
          Could not read {what} again{reason(query.error)}. Showing what was read before.
        </p>
      )}
      {markRead.isError && (
        <p className={styles.problem} role="status">
          Could not mark {what} as read{reason(markRead.error)}. They stay unread; opening the inbox
          again tries again.
        </p>
      )}
    </>
  );
}
