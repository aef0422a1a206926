import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Popover } from 'radix-ui';
import { useEffect, useMemo, useState } from 'react';
import { ApiError, failureTitle } from '../../api/errors';
import { issuesMutations, issuesQueries } from '../../api/queries/issues';
import { formatUtcDateTime } from '../../lib/format-time';
import { Button } from '../../ui/button';
import { ErrorState } from '../../ui/error-state';
import { BellIcon } from '../../ui/icons';
import { PopoverPanel } from '../../ui/popover-panel';
import { isNewSince, readMarkFor, unreadShown } from './inbox-marks';
import styles from './notifications-inbox.module.css';

/** The generated type of a nullable object is awkward; what these lines read of it. */
type Parties = {
  actor: { name: string | null; email: string } | null;
  team: { name: string } | null;
};

function who(n: Parties): string {
  if (n.actor === null) return 'Lookout';
  return n.actor.name ?? n.actor.email;
}

function toWhom(n: Parties): string {
  if (n.team !== null) return `team ${n.team.name}`;
  return 'you';
}

/**
 * The header's inbox: assignments of issues to you or your teams by someone else, with the
 * unread count on the button. It is read again when the tab comes back into view, every few
 * seconds while it is visible, and on opening. An entry is "New" when its time is later than
 * the read mark of the read that was on screen when the inbox opened; it stays so until the
 * inbox closes. The mark moves only to the newest entry shown, and only once every unread
 * entry has been shown: never past something the person has not seen.
 */
export function NotificationsInbox() {
  const query = useInfiniteQuery(issuesQueries.notifications());
  const markRead = useMutation(issuesMutations.markNotificationsRead());
  const [open, setOpen] = useState(false);
  // The read mark of the read shown when the inbox opened (null inside: never read).
  const [openedAgainst, setOpenedAgainst] = useState<{ readAt: string | null } | null>(null);
  const first = query.data?.pages[0];
  const readAt = first?.read_at ?? null;
  const unread = first?.unread ?? 0;
  const entries = useMemo(
    () => query.data?.pages.flatMap((p) => p.notifications) ?? [],
    [query.data],
  );
  if (open && openedAgainst === null && first !== undefined) {
    setOpenedAgainst({ readAt: first.read_at });
  } else if (!open && openedAgainst !== null) {
    setOpenedAgainst(null);
  }
  const newSince = openedAgainst === null ? readAt : openedAgainst.readAt;
  const hiddenUnread = Math.max(0, unread - unreadShown(entries, readAt));

  // While open, what is on screen is read: move the mark to the newest entry shown.
  const markTo = open && openedAgainst !== null ? readMarkFor(entries, readAt, unread) : null;
  const { mutate: mark } = markRead;
  useEffect(() => {
    if (markTo !== null) mark(markTo);
  }, [markTo, mark]);

  const label = unread === 0 ? 'Notifications' : `Notifications, ${unread} unread`;

  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) void query.refetch();
      }}
    >
      <Popover.Trigger className={styles.trigger} aria-label={label} title={label}>
        <BellIcon />
        {unread > 0 && (
          <span className={styles.badge} aria-hidden="true">
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </Popover.Trigger>
      <PopoverPanel label="Notifications" className={styles.panel}>
        <div className={styles.head}>
          <h2 className={styles.title}>Notifications</h2>
          <span className={styles.sub}>Issues assigned to you or your teams</span>
        </div>
        {query.isError && query.data === undefined ? (
          <ErrorState error={query.error} compact reset={() => void query.refetch()} />
        ) : query.data === undefined ? (
          <p className={styles.empty}>Loading…</p>
        ) : entries.length === 0 ? (
          <p className={styles.empty}>
            Nothing yet. When someone assigns an issue to you or one of your teams, it shows here.
          </p>
        ) : (
          <ul className={styles.list}>
            {entries.map((n) => {
              const isNew = isNewSince(n.at, newSince);
              const parties = n as unknown as Parties;
              return (
                <li key={n.id} className={styles.item} data-unread={isNew || undefined}>
                  <Link
                    to="/issues/$issueId"
                    params={{ issueId: n.issue_id }}
                    className={styles.link}
                    onClick={() => setOpen(false)}
                  >
                    <span className={styles.line}>
                      {isNew && <span className={styles.newTag}>New</span>}
                      <span className={styles.issueTitle}>{n.issue_title}</span>
                    </span>
                    <span className={styles.meta}>
                      {who(parties)} assigned it to {toWhom(parties)} ·{' '}
                      <time dateTime={n.at}>{formatUtcDateTime(n.at)}</time>
                    </span>
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
        {query.data !== undefined && query.hasNextPage && (
          <div className={styles.foot}>
            <span>
              {hiddenUnread > 0
                ? `${hiddenUnread} older unread not shown yet; they stay unread until shown.`
                : 'Older assignments'}
            </span>
            <Button
              size="sm"
              variant="secondary"
              disabled={query.isFetchingNextPage}
              onClick={() => void query.fetchNextPage()}
            >
              {query.isFetchingNextPage ? 'Loading…' : 'Show older'}
            </Button>
          </div>
        )}
        {query.isRefetchError && (
          <p className={styles.problem} role="status">
            Could not read the inbox again
            {query.error instanceof ApiError ? `: ${failureTitle(query.error).toLowerCase()}` : ''}.
            Showing what was read before.
          </p>
        )}
        {markRead.isError && (
          <p className={styles.problem} role="status">
            Could not mark these as read
            {markRead.error instanceof ApiError
              ? `: ${failureTitle(markRead.error).toLowerCase()}`
              : ''}
            . They stay unread; opening the inbox again tries again.
          </p>
        )}
      </PopoverPanel>
    </Popover.Root>
  );
}
