import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Popover } from 'radix-ui';
import { useState } from 'react';
import { issuesMutations, issuesQueries } from '../../api/queries/issues';
import { formatUtcDateTime } from '../../lib/format-time';
import { ErrorState } from '../../ui/error-state';
import { BellIcon } from '../../ui/icons';
import styles from './notifications-inbox.module.css';
import { PopoverPanel } from '../../ui/popover-panel';

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
 * unread count on the button. Opening it moves your read mark (POST …/notifications/read); the
 * entries that were unread when you opened it stay marked until it closes.
 */
export function NotificationsInbox() {
  const query = useQuery(issuesQueries.notifications());
  const markRead = useMutation(issuesMutations.markNotificationsRead());
  const [open, setOpen] = useState(false);
  const [unreadAtOpen, setUnreadAtOpen] = useState<ReadonlySet<string>>(new Set());
  const unread = query.data?.unread ?? 0;
  const label = unread === 0 ? 'Notifications' : `Notifications, ${unread} unread`;

  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          setUnreadAtOpen(
            new Set((query.data?.notifications ?? []).filter((n) => !n.read).map((n) => n.id)),
          );
          if (unread > 0) markRead.mutate();
        }
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
        {query.isError ? (
          <ErrorState error={query.error} compact reset={() => void query.refetch()} />
        ) : query.data === undefined ? (
          <p className={styles.empty}>Loading…</p>
        ) : query.data.notifications.length === 0 ? (
          <p className={styles.empty}>
            Nothing yet. When someone assigns an issue to you or one of your teams, it shows here.
          </p>
        ) : (
          <ul className={styles.list}>
            {query.data.notifications.map((n) => {
              const isNew = unreadAtOpen.has(n.id);
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
      </PopoverPanel>
    </Popover.Root>
  );
}
