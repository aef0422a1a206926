import { Popover } from 'radix-ui';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { countUnseen, eventKey, selectEvents, type ProjectFilter } from '../../live/live-events';
import { scopeLabel } from '../../lib/project-scope';
import {
  useLiveStatus,
  useLiveStore,
  useNextRetryAt,
  useReconnects,
  useUnseenCount,
} from '../../live/live-store';
import { LiveEventList } from './live-event-list';
import styles from './live-indicator.module.css';
import { liveStatusText, unseenText } from './live-status-text';
import { useSecondsUntil } from './use-seconds-until';
import { PopoverPanel } from '../../ui/popover-panel';

/** How many events the popover lists. */
const LATEST = 20;

/**
 * The live feed in the header: its state as text beside a coloured dot, and how many events
 * of the current project scope arrived since the user last looked. Opening it lists the
 * latest events of the scope and marks them seen.
 */
export function LiveIndicator({
  projects,
  projectIds,
}: {
  projects: readonly { id: string; name: string }[];
  /** The URL's project scope; null = all readable projects. Keep it referentially stable. */
  projectIds: ProjectFilter;
}) {
  const status = useLiveStatus();
  const secondsLeft = useSecondsUntil(useNextRetryAt());
  const reconnects = useReconnects();
  const unseen = useUnseenCount(projectIds);
  const [open, setOpen] = useState(false);
  // What was new when the list was opened stays marked while it is open.
  const [fresh, setFresh] = useState<ReadonlySet<string>>(() => new Set());
  const projectNames = useMemo(() => new Map(projects.map((p) => [p.id, p.name])), [projects]);

  const markScopeSeen = useCallback(() => {
    const state = useLiveStore.getState();
    if (countUnseen(state, projectIds) === 0) return;
    const keys = selectEvents(state, { projectIds })
      .filter((e) => !e.seen)
      .map(eventKey);
    setFresh((previous) => new Set([...previous, ...keys]));
    state.eventsSeen(projectIds);
  }, [projectIds]);

  // While the list is open, what arrives is seen as it arrives.
  useEffect(() => {
    if (!open) return;
    return useLiveStore.subscribe((state, previous) => {
      if (state.unseen !== previous.unseen) markScopeSeen();
    });
  }, [open, markScopeSeen]);

  const statusText = liveStatusText(status, secondsLeft);
  const name = `Live feed: ${statusText}${unseen > 0 ? `, ${unseenText(unseen)}` : ''}`;

  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          setFresh(new Set());
          markScopeSeen();
        }
      }}
    >
      <Popover.Trigger className={styles.pill} aria-label={name} data-status={status}>
        <span className={styles.dot} data-status={status} aria-hidden="true" />
        <span className={styles.statusText}>{statusText}</span>
        {unseen > 0 && <span className={styles.count}>{unseenText(unseen)}</span>}
      </Popover.Trigger>
      <PopoverPanel label="Latest live events" className={styles.panel}>
        <div className={styles.panelHeader}>
          <span className={styles.panelTitle}>
            Live feed
            <span className={styles.panelScope}>
              {scopeLabel(
                projectIds === null ? { kind: 'all' } : { kind: 'projects', ids: [...projectIds] },
                projects,
              )}
            </span>
          </span>
          <span className={styles.panelStatus}>
            <span className={styles.dot} data-status={status} aria-hidden="true" />
            {statusText}
          </span>
        </div>
        <LiveEventList
          projectIds={projectIds}
          limit={LATEST}
          projectNames={projectNames}
          fresh={fresh}
        />
        {reconnects > 0 && (
          <p className={styles.footer}>
            Reconnected {reconnects === 1 ? 'once' : `${reconnects} times`}. Lists were read again:
            the feed does not replay what was missed.
          </p>
        )}
      </PopoverPanel>
    </Popover.Root>
  );
}
