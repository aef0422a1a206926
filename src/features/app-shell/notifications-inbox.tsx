import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Popover } from 'radix-ui';
import { useState } from 'react';
import { alertMutations, alertQueries } from '../../api/queries/alerts';
import { issuesMutations, issuesQueries } from '../../api/queries/issues';
import { formatUtcDateTime } from '../../lib/format-time';
import { Button } from '../../ui/button';
import { ConsolePathLink } from '../../ui/console-path-link';
import { ErrorState } from '../../ui/error-state';
import { BellIcon } from '../../ui/icons';
import { PopoverPanel } from '../../ui/popover-panel';
import { InboxProblems } from './inbox-problems';
import styles from './notifications-inbox.module.css';
import { useInboxState } from './use-inbox-state';

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

const formatValue = (v: number) =>
  Number.isInteger(v)
    ? v.toLocaleString('en')
    : v.toLocaleString('en', { maximumFractionDigits: 2 });

/**
 * The header's inbox, two lists under one bell: alerts that fired or resolved for you or your
 * teams, and assignments of issues to you or your teams by someone else. The button counts
 * the unread of both. Each list is read again when the tab comes back into view, every few
 * seconds while it is visible, and on opening. An entry is "New" when its time is later than
 * the read mark of the read that was on screen when the inbox opened; it stays so until the
 * inbox closes. Each list's mark moves only to its newest entry shown, and only once every
 * unread entry of it has been shown: never past something the person has not seen.
 */
export function NotificationsInbox() {
  const [open, setOpen] = useState(false);
  const issueQuery = useInfiniteQuery(issuesQueries.notifications());
  const issueMark = useMutation(issuesMutations.markNotificationsRead());
  const alertQuery = useInfiniteQuery(alertQueries.notifications());
  const alertMark = useMutation(alertMutations.markNotificationsRead());
  const issues = useInboxState(issueQuery, issueMark, open);
  const alerts = useInboxState(alertQuery, alertMark, open);
  const unread = issues.unread + alerts.unread;
  const label = unread === 0 ? 'Notifications' : `Notifications, ${unread} unread`;

  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          void issueQuery.refetch();
          void alertQuery.refetch();
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
          <span className={styles.sub}>Alerts and issues assigned to you or your teams</span>
        </div>
        <div className={styles.scroll}>
          <section aria-label="Alerts">
            <h3 className={styles.sectionTitle}>
              Alerts{alerts.unread > 0 ? ` · ${alerts.unread} unread` : ''}
            </h3>
            {alertQuery.isError && alertQuery.data === undefined ? (
              <ErrorState
                error={alertQuery.error}
                compact
                reset={() => void alertQuery.refetch()}
              />
            ) : alertQuery.data === undefined ? (
              <p className={styles.empty}>Loading…</p>
            ) : alerts.entries.length === 0 ? (
              <p className={styles.empty}>
                No alerts. When a rule that notifies you or your team fires or resolves, it shows
                here.
              </p>
            ) : (
              <ul className={styles.list} aria-label="Alert notifications">
                {alerts.entries.map((n) => {
                  const isNew = alerts.isNew(n.at);
                  const firing = n.event === 'firing';
                  return (
                    <li key={n.id} className={styles.item} data-unread={isNew || undefined}>
                      <ConsolePathLink
                        path={n.view_url}
                        className={styles.link}
                        onFollow={() => setOpen(false)}
                      >
                        <span className={styles.line}>
                          {isNew && <span className={styles.newTag}>New</span>}
                          <span className={styles.eventTag} data-event={n.event}>
                            {firing ? 'Firing' : 'Resolved'}
                          </span>
                          <span className={styles.issueTitle}>{n.rule_name}</span>
                        </span>
                        <span className={styles.meta}>
                          {formatValue(n.value)}
                          {n.threshold !== null
                            ? ` against ${formatValue(n.threshold)}`
                            : ''} · <time dateTime={n.at}>{formatUtcDateTime(n.at)}</time>
                        </span>
                      </ConsolePathLink>
                    </li>
                  );
                })}
              </ul>
            )}
            {alertQuery.data !== undefined && alertQuery.hasNextPage && (
              <div className={styles.foot}>
                <span>
                  {alerts.hiddenUnread > 0
                    ? `${alerts.hiddenUnread} older unread not shown yet; they stay unread until shown.`
                    : 'Older alerts'}
                </span>
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={alertQuery.isFetchingNextPage}
                  onClick={() => void alertQuery.fetchNextPage()}
                >
                  {alertQuery.isFetchingNextPage ? 'Loading…' : 'Show older'}
                </Button>
              </div>
            )}
            <InboxProblems what="the alerts" query={alertQuery} markRead={alertMark} />
          </section>
          <section aria-label="Assignments">
            <h3 className={styles.sectionTitle}>
              Assigned to you{issues.unread > 0 ? ` · ${issues.unread} unread` : ''}
            </h3>
            {issueQuery.isError && issueQuery.data === undefined ? (
              <ErrorState
                error={issueQuery.error}
                compact
                reset={() => void issueQuery.refetch()}
              />
            ) : issueQuery.data === undefined ? (
              <p className={styles.empty}>Loading…</p>
            ) : issues.entries.length === 0 ? (
              <p className={styles.empty}>
                Nothing yet. When someone assigns an issue to you or one of your teams, it shows
                here.
              </p>
            ) : (
              <ul className={styles.list} aria-label="Assignments">
                {issues.entries.map((n) => {
                  const isNew = issues.isNew(n.at);
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
            {issueQuery.data !== undefined && issueQuery.hasNextPage && (
              <div className={styles.foot}>
                <span>
                  {issues.hiddenUnread > 0
                    ? `${issues.hiddenUnread} older unread not shown yet; they stay unread until shown.`
                    : 'Older assignments'}
                </span>
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={issueQuery.isFetchingNextPage}
                  onClick={() => void issueQuery.fetchNextPage()}
                >
                  {issueQuery.isFetchingNextPage ? 'Loading…' : 'Show older'}
                </Button>
              </div>
            )}
            <InboxProblems what="the assignments" query={issueQuery} markRead={issueMark} />
          </section>
        </div>
      </PopoverPanel>
    </Popover.Root>
  );
}
