import { TelemetryText } from '../../ui/telemetry-text';
import { useInfiniteQuery } from '@tanstack/react-query';
import { issueDetailQueries, type ActivityEntry } from '../../api/queries/issue-detail';
import { formatUtcDateTime } from '../../lib/format-time';
import { Button } from '../../ui/button';
import { ErrorState } from '../../ui/error-state';
import { PendingState } from '../../ui/pending-state';
import styles from './activity-timeline.module.css';
import section from './issue-section.module.css';
import { relativeTime } from './relative-time';

function person(entry: ActivityEntry): string {
  if (entry.actor) return entry.actor.name ?? entry.actor.email;
  return entry.actor_id ? 'Someone who can no longer read this project' : 'Lookout';
}

function target(entry: ActivityEntry): string {
  if (entry.team) return `team ${entry.team.name}`;
  if (entry.assignee) return entry.assignee.name ?? entry.assignee.email;
  return 'someone';
}

/** One entry as a sentence; values are the service's, shown as text. */
export function activitySentence(entry: ActivityEntry): string {
  const who = person(entry);
  switch (entry.type) {
    case 'status':
      return entry.actor_id === null
        ? `Marked ${entry.value ?? 'unresolved'} again by a new occurrence`
        : `${who} marked this ${entry.value ?? ''}`.trim();
    case 'priority':
      return `${who} set priority to ${entry.value ?? ''}`.trim();
    case 'assigned':
      return `${who} assigned this to ${target(entry)}`;
    case 'unassigned':
      return `${who} unassigned ${target(entry)}`;
    case 'severity_rule':
      return entry.value === 'source' || entry.value === null
        ? `${who} removed the severity rule (captured severity shown)`
        : `${who} set the severity rule to ${entry.value}`;
    case 'first_seen':
      return entry.value ? `First seen in ${entry.value}` : 'First seen';
  }
}

/** What happened to the issue, newest first, one page after another by the service's cursor. */
export function ActivityTimeline({ issueId }: { issueId: string }) {
  const query = useInfiniteQuery(issueDetailQueries.activity(issueId));
  const entries = query.data?.pages.flatMap((p) => p.activity) ?? [];
  return (
    <section className={section.sideSection} aria-labelledby="activity-title">
      <h2 id="activity-title" className={section.sectionTitle}>
        Activity
      </h2>
      {query.isPending ? (
        <PendingState label="Loading activity…" />
      ) : query.isError && entries.length === 0 ? (
        <ErrorState error={query.error} compact reset={() => void query.refetch()} />
      ) : (
        <>
          <ol className={styles.timeline}>
            {entries.map((e) => (
              <li key={`${e.type}:${e.id}`} className={styles.timelineItem} data-type={e.type}>
                <span className={styles.timelineDot} aria-hidden="true" />
                <p className={styles.timelineText}>
                  <TelemetryText text={activitySentence(e)} />
                </p>
                <time
                  className={styles.timelineTime}
                  dateTime={e.at}
                  title={formatUtcDateTime(e.at)}
                >
                  {relativeTime(e.at)} · {formatUtcDateTime(e.at)}
                </time>
              </li>
            ))}
          </ol>
          {query.isFetchNextPageError && (
            <ErrorState error={query.error} compact reset={() => void query.fetchNextPage()} />
          )}
          {query.hasNextPage && (
            <Button
              size="sm"
              variant="ghost"
              disabled={query.isFetchingNextPage}
              onClick={() => void query.fetchNextPage()}
            >
              {query.isFetchingNextPage ? 'Loading…' : 'Load more'}
            </Button>
          )}
        </>
      )}
    </section>
  );
}
